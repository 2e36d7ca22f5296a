package dev.mirrorv3.connect.blob;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.TestConsumers;
import dev.mirrorv3.testsupport.TestRecords;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ListenerNotFoundException;
import javax.management.MBeanServer;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * bench/run-many-partitions-bench: one blob sink task over many partitions ({@link #TOPICS} topics, one in-process broker
 * and Connect worker; the filesystem, or S3Proxy with {@code s3}) against the same task over {@link #FEW} partitions of
 * as many topics holding the same records, in rounds whose order alternates, after warm-up rounds. Each run is a new
 * connector into a new destination, timed from its deploy until its consumer group has committed every partition's high
 * watermark (read by an admin client, as every sink bench's clock); then every partition's chain must end there, read
 * from the store's listing (object names), or the run fails.
 *
 * <p>Besides records/s of both ({@code RESULT many-r<n> ...}, {@code RESULT few-r<n> ...}), each run reports as
 * {@code FIGURE} lines, for the script's goal checks: the heap after GC (the collectors' own figures: every
 * collection's notification carries each pool's usage after it, summed over the heap pools: live data, not garbage),
 * its peak while the run lasted, and the collections seen against those the collectors counted; the threads, their
 * peak (sampled every 250 ms) over those before the deploy (the broker and the worker share this JVM, so the heap
 * includes theirs and the threads are counted as the task adds them); and as
 * {@code MEASURE} lines, for the record: how long opening every partition (the deploy until each partition's series
 * exists) and closing every partition (the delete until none is left) take, and with S3 the ListObjectsV2 calls over
 * four {@code chain.check.interval.ms} while records flow into {@link #FEW} of the many partitions only (the periodic
 * check lists only partitions that committed since their last check).
 *
 * <p>Not a test (never run by surefire or failsafe). Usage: {@code ManyPartitionsBench partitions records-per-partition
 * fs|s3 rounds warmup-rounds}.
 */
public final class ManyPartitionsBench {
    static final int FEW = 8;
    private static final int TOPICS = 4;
    static final long BUFFER_MAX_BYTES = 64L << 20;
    private static final long CHECK_MS = 2_000;
    private static final Pattern OBJECT = Pattern.compile("^(\\d+)-(\\d+)\\.");

    private final ConnectTestCluster cluster;
    private final TestDestination destination;
    private final Admin admin;
    private final Duration timeout;
    /** Records produced into the first many topic's first {@link #FEW} partitions after the start (the idle window). */
    private long extra;

    private ManyPartitionsBench(ConnectTestCluster cluster, TestDestination destination, Duration timeout) {
        this.cluster = cluster;
        this.destination = destination;
        this.admin = cluster.kafka().createAdminClient();
        this.timeout = timeout;
    }

    /** One kind of run: its topics and their partitions. */
    private record Kind(String name, List<String> topics, int partitionsPerTopic) {
        int partitions() {
            return topics.size() * partitionsPerTopic;
        }
    }

    public static void main(String[] args) throws Exception {
        int partitions = Integer.parseInt(args[0]);
        int perPartition = Integer.parseInt(args[1]);
        boolean s3 = args[2].equals("s3");
        int rounds = Integer.parseInt(args[3]);
        int warmups = Integer.parseInt(args[4]);
        Duration timeout = Duration.ofSeconds(300 + (long) partitions * perPartition / 500);
        TestDestination d = s3 ? new TestDestination.S3() : new TestDestination.Filesystem(Files.createTempDirectory("mirror-v3-many"));
        Kind many = new Kind("many", topics("many", TOPICS), partitions / TOPICS);
        Kind few = new Kind("few", topics("few", TOPICS), FEW / TOPICS);
        long total = (long) many.partitions() * perPartition;
        try (ConnectTestCluster cluster = ConnectTestCluster.start(1, Map.of("offset.flush.interval.ms", "100"))) {
            ManyPartitionsBench bench = new ManyPartitionsBench(cluster, d, timeout);
            bench.produce(many, perPartition);
            bench.produce(few, (int) (total / few.partitions()));
            System.out.printf("FIGURE max-heap-mib %d%n", Runtime.getRuntime().maxMemory() >> 20);
            for (int r = 1; r <= warmups + rounds; r++) {
                String round = r <= warmups ? "w" + r : "r" + (r - warmups);
                boolean manyFirst = r % 2 == 1;
                bench.run(manyFirst ? many : few, round, r == warmups + 1 && s3);
                bench.run(manyFirst ? few : many, round, r == warmups + 1 && s3);
            }
        } finally {
            if (d instanceof TestDestination.S3 s) {
                s.shutdown();
            }
        }
    }

    private static List<String> topics(String prefix, int n) {
        List<String> out = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            out.add(prefix + "-" + t);
        }
        return out;
    }

    /** Runs {@code kind} once as run {@code <kind>-<round>}: a new connector into a new destination. */
    private void run(Kind kind, String round, boolean idleWindow) throws Exception {
        String name = kind.name() + "-" + round;
        Map<TopicPartition, Long> ends = endOffsets(kind);
        long records = ends.values().stream().mapToLong(Long::longValue).sum();
        gc();
        long baseHeap = heapAfterGc();
        int baseThreads = ManagementFactory.getThreadMXBean().getThreadCount();
        Threads threads = Threads.start();
        AfterGc afterGc = new AfterGc();
        long start = System.nanoTime();
        cluster.deploy(name, config(kind, round));
        double openSeconds = await(name + ": every partition open", () -> series(name).size() == kind.partitions(), start);
        double seconds = await(name + ": the group committed every partition's end", () -> committedAll(name, ends), start);
        threads.stop();
        afterGc.close();
        requireChainsEndAt(round, ends);
        String prefix = round.startsWith("w") ? "WARMUP" : "RESULT";
        System.out.printf("%s %s %d %.3f %.0f%n", prefix, name, records, seconds, records / seconds);
        System.out.printf("FIGURE %s heap-after-gc-peak-mib %d baseline-mib %d collections-seen %d collections-counted %d threads-peak %d"
                + " threads-baseline %d%n", name, afterGc.peak.get() >> 20, baseHeap >> 20, afterGc.seen.get(), afterGc.counted,
                threads.peak.get(), baseThreads);
        System.out.printf("MEASURE %s: open all %d partitions %.1f s%n", name, kind.partitions(), openSeconds);
        if (idleWindow && kind.name().equals("many")) {
            idleListings(kind);
        }
        long closeStart = System.nanoTime();
        cluster.delete(name);
        double closeSeconds = await(name + ": every partition closed", () -> series(name).isEmpty(), closeStart);
        System.out.printf("MEASURE %s: close all %d partitions %.1f s%n", name, kind.partitions(), closeSeconds);
    }

    /** With S3: the listings over four chain checks while records flow into {@link #FEW} partitions of one topic only. */
    private void idleListings(Kind kind) throws Exception {
        long windowMs = 4 * CHECK_MS;
        int before = ((TestDestination.S3) destination).calls("list");
        long end = System.currentTimeMillis() + windowMs;
        while (System.currentTimeMillis() < end) {
            produceTo(kind.topics().get(0), FEW, 10);
            Thread.sleep(200);
        }
        int lists = ((TestDestination.S3) destination).calls("list") - before;
        System.out.printf("MEASURE ListObjectsV2 calls in %d ms (%d chain checks) with %d of %d partitions receiving records: %d%n",
                windowMs, windowMs / CHECK_MS, FEW, kind.partitions(), lists);
    }

    private Map<String, String> config(Kind kind, String round) {
        Map<String, String> c = destination.config(String.join(",", kind.topics()), cluster.bootstrapServers());
        c.put("destination.name", round + "-${topic}");
        c.put("flush.max.records", "10000");
        c.put("flush.max.time.ms", "10000");
        c.put("chain.check.interval.ms", Long.toString(CHECK_MS));
        c.put("buffer.max.bytes", Long.toString(BUFFER_MAX_BYTES));
        c.put("heartbeat.interval.ms", "0");
        return c;
    }

    private void produce(Kind kind, int perPartition) throws Exception {
        for (String t : kind.topics()) {
            cluster.kafka().createTopic(t, kind.partitionsPerTopic());
        }
        SplittableRandom random = new SplittableRandom(1);
        try (KafkaProducer<byte[], byte[]> producer = TestRecords.producer(cluster.bootstrapServers(), 120_000, 60_000)) {
            for (String topic : kind.topics()) {
                for (int p = 0; p < kind.partitionsPerTopic(); p++) {
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

    private void produceTo(String topic, int partitions, int perPartition) {
        try (KafkaProducer<byte[], byte[]> producer = TestRecords.producer(cluster.bootstrapServers(), 60_000, 30_000)) {
            for (int p = 0; p < partitions; p++) {
                for (int i = 0; i < perPartition; i++) {
                    producer.send(new ProducerRecord<>(topic, p, null, ("r" + (extra + i)).getBytes()));
                }
            }
        }
        extra += perPartition;
    }

    /** Every partition's end offset, read by the admin client. */
    private Map<TopicPartition, Long> endOffsets(Kind kind) throws Exception {
        Map<TopicPartition, OffsetSpec> ask = new java.util.HashMap<>();
        for (String t : kind.topics()) {
            for (int p = 0; p < kind.partitionsPerTopic(); p++) {
                ask.put(new TopicPartition(t, p), OffsetSpec.latest());
            }
        }
        Map<TopicPartition, Long> ends = new java.util.HashMap<>();
        admin.listOffsets(ask).all().get().forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }

    /** Whether the connector's consumer group committed each partition's end offset. */
    private boolean committedAll(String name, Map<TopicPartition, Long> ends) throws Exception {
        Map<TopicPartition, Long> committed = new java.util.HashMap<>();
        for (String topic : ends.keySet().stream().map(TopicPartition::topic).distinct().toList()) {
            TestConsumers.committed(admin, "connect-" + name, topic).forEach((p, o) -> committed.put(new TopicPartition(topic, p), o));
        }
        return ends.entrySet().stream().allMatch(e -> committed.getOrDefault(e.getKey(), -1L) >= e.getValue());
    }

    /** Every partition's chain ends where its topic does, read from the store's listing of object names. */
    private void requireChainsEndAt(String round, Map<TopicPartition, Long> ends) {
        ends.forEach((tp, end) -> {
            long next = 0;
            for (String object : destination.list(round + "-" + tp.topic(), tp.partition())) {
                Matcher m = OBJECT.matcher(object);
                if (m.find()) {
                    next = Math.max(next, Long.parseLong(m.group(2)) + 1);
                }
            }
            if (next != end) {
                throw new IllegalStateException(tp + ": the chain of round " + round + " ends at next offset " + next + ", the topic at "
                        + end + ": the group committed offsets the destination does not hold");
            }
        });
    }

    /** The task's per-partition series of the connector (a partition's MBean exists while the partition is open). */
    private static List<Long> series(String connector) throws Exception {
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        List<Long> values = new ArrayList<>();
        for (ObjectName n : jmx.queryNames(new ObjectName("kafka.connect:type=plugins,connector=" + connector + ",*"), null)) {
            if (n.getKeyProperty("partition") != null) {
                try {
                    values.add(((Number) jmx.getAttribute(n, "destination-offset-verified")).longValue());
                } catch (javax.management.AttributeNotFoundException | javax.management.InstanceNotFoundException e) {
                    continue; // a series of another kind, or the partition closed meanwhile
                }
            }
        }
        return values;
    }

    /** Seconds from {@code startNanos} until {@code done}, polled every 100 ms; fails past the timeout. */
    private double await(String what, Check done, long startNanos) throws Exception {
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

    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    /** Heap in use after the last collection of each heap pool: live data, not garbage (read after an explicit GC). */
    static long heapAfterGc() {
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                used += pool.getCollectionUsage().getUsed();
            }
        }
        return used;
    }

    /**
     * The heap after each collection while a run lasts, from the collectors' notifications (a sample of the pools' last
     * collection could miss one of two collections between samples): its peak, and the collections seen against those
     * the collectors counted, so that a run without a collection, or with one not seen, is known.
     */
    private static final class AfterGc implements NotificationListener, AutoCloseable {
        private static final Set<String> HEAP_POOLS = Set.copyOf(ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).toList());
        final AtomicLong peak = new AtomicLong();
        final AtomicLong seen = new AtomicLong();
        private final long countAtStart = collections();
        long counted;

        AfterGc() {
            ManagementFactory.getGarbageCollectorMXBeans().forEach(gc -> ((NotificationEmitter) gc).addNotificationListener(this, null,
                    null));
        }

        @Override
        public void handleNotification(Notification n, Object handback) {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                long used = 0;
                for (Map.Entry<String, MemoryUsage> e : GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()).getGcInfo()
                        .getMemoryUsageAfterGc().entrySet()) {
                    used += HEAP_POOLS.contains(e.getKey()) ? e.getValue().getUsed() : 0;
                }
                peak.accumulateAndGet(used, Math::max);
                seen.incrementAndGet();
            }
        }

        /** Counts the run's collections, waits up to 2 s for their notifications (delivered after the fact), stops listening. */
        @Override
        public void close() throws Exception {
            counted = collections() - countAtStart;
            for (int i = 0; i < 100 && seen.get() < counted; i++) {
                Thread.sleep(20);
            }
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                try {
                    ((NotificationEmitter) gc).removeNotificationListener(this);
                } catch (ListenerNotFoundException e) {
                    // never added to this one
                }
            }
        }
    }

    /** Samples the JVM's thread count every 250 ms, keeping the peak. */
    private static final class Threads implements Runnable {
        final AtomicLong peak = new AtomicLong();
        private volatile boolean running = true;

        static Threads start() {
            Threads s = new Threads();
            Thread t = new Thread(s, "bench-threads");
            t.setDaemon(true);
            t.start();
            return s;
        }

        void stop() {
            running = false;
        }

        @Override
        public void run() {
            while (running) {
                peak.accumulateAndGet(ManagementFactory.getThreadMXBean().getThreadCount(), Math::max);
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
