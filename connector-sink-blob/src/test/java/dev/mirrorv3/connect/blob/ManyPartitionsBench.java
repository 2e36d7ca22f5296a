package dev.mirrorv3.connect.blob;

import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.TestRecords;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * bench/run-many-partitions-bench: one blob sink task over many partitions (several topics, one in-process broker and
 * Connect worker; the filesystem, and S3Proxy with {@code s3}) with records flowing: the heap after GC (each heap pool's
 * usage after its last collection, {@link MemoryPoolMXBean#getCollectionUsage}, summed: live data, not garbage) against
 * buffer.max.bytes + 200 MiB, the threads of the JVM against those before the task started, how long opening and
 * closing every partition takes (the deploy until every partition is open, the delete until every one is closed, read
 * from the task's per-partition series), the store requests an idle partition costs (S3 ListObjectsV2 calls while
 * records flow into {@link #BUSY} partitions only, over several chain.check.interval.ms), and records/s of the same
 * records on {@link #BUSY} partitions against the many. The broker and the worker share this JVM: the heap and thread
 * figures include the broker's, and are printed beside the baseline measured before the task started.
 *
 * <p>Prints {@code RESULT many-r1 ...} and {@code RESULT few-r1 ...} lines for bench/lib.sh and {@code MEASURE} lines.
 * Not a test (never run by surefire or failsafe).
 *
 * <p>Usage: {@code ManyPartitionsBench [partitions, default 2000] [records per partition, default 100] [fs|s3]}
 */
public final class ManyPartitionsBench {
    static final int BUSY = 8;
    private static final int TOPICS = 4;
    private static final long BUFFER_MAX_BYTES = 64L << 20;
    private static final long CHECK_MS = 2_000;

    private ManyPartitionsBench() {
    }

    public static void main(String[] args) throws Exception {
        int partitions = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int perPartition = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        boolean s3 = args.length > 2 && args[2].equals("s3");
        Duration timeout = Duration.ofSeconds(300 + (long) partitions * perPartition / 500);
        Path root = Files.createTempDirectory("mirror-v3-many-partitions");
        TestDestination d = s3 ? new TestDestination.S3() : new TestDestination.Filesystem(root);
        try (ConnectTestCluster cluster = ConnectTestCluster.start(1)) {
            List<String> topics = new ArrayList<>();
            for (int t = 0; t < TOPICS; t++) {
                topics.add("many-" + t);
                cluster.kafka().createTopic("many-" + t, partitions / TOPICS);
            }
            cluster.kafka().createTopic("few", BUSY);
            long total = (long) (partitions / TOPICS) * TOPICS * perPartition;
            produce(cluster, topics, partitions / TOPICS, perPartition);
            produce(cluster, List.of("few"), BUSY, (int) (total / BUSY));
            gc();
            long baseHeap = heapAfterGc();
            int baseThreads = ManagementFactory.getThreadMXBean().getThreadCount();
            System.out.printf("MEASURE baseline heap-after-gc %d MiB, threads %d (broker and worker, no task)%n", baseHeap >> 20,
                    baseThreads);

            Sampler sampler = new Sampler();
            Thread sampling = new Thread(sampler, "bench-sampler");
            sampling.setDaemon(true);
            sampling.start();
            Map<String, String> config = config(d, String.join(",", topics), cluster.bootstrapServers());
            long start = System.nanoTime();
            cluster.deploy("many", config);
            double openSeconds = await("every partition open", () -> series(cluster, "many", "destination-offset-verified").size()
                    == partitions, timeout, start);
            double seconds = await("every record durable", () -> sum(series(cluster, "many", "destination-offset-verified")) == total,
                    timeout, start);
            System.out.printf("RESULT many-r1 %d %.3f %.0f%n", total, seconds, total / seconds);
            System.out.printf("MEASURE open all %d partitions %.1f s%n", partitions, openSeconds);

            long idleWindowMs = 4 * CHECK_MS;
            int listsBefore = s3 ? ((TestDestination.S3) d).calls("list") : 0;
            long flowEnd = System.currentTimeMillis() + idleWindowMs;
            int produced = 0;
            while (System.currentTimeMillis() < flowEnd) { // records flow into BUSY partitions of one topic only
                produceTo(cluster, topics.get(0), BUSY, 10, produced);
                produced += 10;
                Thread.sleep(200);
            }
            if (s3) {
                int lists = ((TestDestination.S3) d).calls("list") - listsBefore;
                System.out.printf("MEASURE ListObjectsV2 calls in %d ms (%d chain checks) with %d of %d partitions busy: %d%n",
                        idleWindowMs, idleWindowMs / CHECK_MS, BUSY, partitions, lists);
            }
            sampler.stop();
            System.out.printf("MEASURE heap-after-gc peak %d MiB (goal <= buffer.max.bytes %d MiB + 200 MiB; baseline %d MiB),"
                    + " threads peak %d (baseline %d)%n", sampler.heap.get() >> 20, BUFFER_MAX_BYTES >> 20, baseHeap >> 20,
                    sampler.threads.get(), baseThreads);

            long closeStart = System.nanoTime();
            cluster.delete("many");
            double closeSeconds = await("every partition closed", () -> series(cluster, "many", "destination-offset-verified")
                    .isEmpty(), timeout, closeStart);
            System.out.printf("MEASURE close all %d partitions %.1f s%n", partitions, closeSeconds);

            long fewStart = System.nanoTime();
            cluster.deploy("few", config(d, "few", cluster.bootstrapServers()));
            double fewSeconds = await("every record of few durable", () -> sum(series(cluster, "few", "destination-offset-verified"))
                    == total, timeout, fewStart);
            System.out.printf("RESULT few-r1 %d %.3f %.0f%n", total, fewSeconds, total / fewSeconds);
            cluster.delete("few");
        } finally {
            if (d instanceof TestDestination.S3 s) {
                s.shutdown();
            }
        }
    }

    private static Map<String, String> config(TestDestination d, String topics, String bootstrap) {
        Map<String, String> c = d.config(topics, bootstrap);
        c.put("destination.name", "${topic}");
        c.put("flush.max.records", "10000");
        c.put("flush.max.time.ms", "10000");
        c.put("chain.check.interval.ms", Long.toString(CHECK_MS));
        c.put("buffer.max.bytes", Long.toString(BUFFER_MAX_BYTES));
        c.put("heartbeat.interval.ms", "0");
        return c;
    }

    private static void produce(ConnectTestCluster cluster, List<String> topics, int partitions, int perPartition) {
        SplittableRandom random = new SplittableRandom(1);
        try (KafkaProducer<byte[], byte[]> producer = TestRecords.producer(cluster.bootstrapServers(), 120_000, 60_000)) {
            for (String topic : topics) {
                for (int p = 0; p < partitions; p++) {
                    for (int i = 0; i < perPartition; i++) {
                        byte[] value = new byte[100];
                        random.nextBytes(value);
                        producer.send(new ProducerRecord<>(topic, p, null, value));
                    }
                }
            }
            producer.flush();
        }
    }

    private static void produceTo(ConnectTestCluster cluster, String topic, int partitions, int perPartition, int from) {
        try (KafkaProducer<byte[], byte[]> producer = TestRecords.producer(cluster.bootstrapServers(), 60_000, 30_000)) {
            for (int p = 0; p < partitions; p++) {
                for (int i = 0; i < perPartition; i++) {
                    producer.send(new ProducerRecord<>(topic, p, null, ("r" + (from + i)).getBytes()));
                }
            }
        }
    }

    /** The task's per-partition values of one series (a partition's MBean exists while the partition is open). */
    private static List<Long> series(ConnectTestCluster cluster, String connector, String attribute) throws Exception {
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        List<Long> values = new ArrayList<>();
        for (ObjectName n : jmx.queryNames(new ObjectName("kafka.connect:type=plugins,connector=" + connector + ",*"), null)) {
            if (n.getKeyProperty("partition") != null) {
                try {
                    values.add(((Number) jmx.getAttribute(n, attribute)).longValue());
                } catch (javax.management.AttributeNotFoundException | javax.management.InstanceNotFoundException e) {
                    continue; // a series of another kind, or the partition closed meanwhile
                }
            }
        }
        return values;
    }

    private static long sum(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sum();
    }

    /** Seconds from {@code startNanos} until {@code done}, polled every 100 ms; fails past {@code timeout}. */
    private static double await(String what, Check done, Duration timeout, long startNanos) throws Exception {
        while (!done.ok()) {
            if (System.nanoTime() - startNanos > timeout.toNanos()) {
                throw new IllegalStateException(what + ": not within " + timeout);
            }
            Thread.sleep(100);
        }
        return (System.nanoTime() - startNanos) / 1e9;
    }

    @FunctionalInterface
    private interface Check {
        boolean ok() throws Exception;
    }

    private static void gc() throws InterruptedException {
        System.gc();
        Thread.sleep(500);
    }

    /** Heap in use after the last collection of each heap pool: live data, not garbage. */
    static long heapAfterGc() {
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                used += pool.getCollectionUsage().getUsed();
            }
        }
        return used;
    }

    /** Samples the heap after GC and the thread count every 250 ms, keeping the peaks. */
    private static final class Sampler implements Runnable {
        final AtomicLong heap = new AtomicLong();
        final AtomicLong threads = new AtomicLong();
        private volatile boolean running = true;

        void stop() {
            running = false;
        }

        @Override
        public void run() {
            LongSupplier threadCount = () -> ManagementFactory.getThreadMXBean().getThreadCount();
            while (running) {
                heap.accumulateAndGet(heapAfterGc(), Math::max);
                threads.accumulateAndGet(threadCount.getAsLong(), Math::max);
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
