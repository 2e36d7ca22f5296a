package dev.mirrorv3.quickstart;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The torture suite's producer: a steady stream at a given rate with keys (some null), headers (some with a null
 * value), null values and, in transactional mode, transactions of 1 to 50 records of which about one in six is aborted
 * (their records and every commit marker become holes the backup must skip). Survives a broker that dies and comes
 * back: a failed transaction is aborted (or the producer re-created) and the stream goes on. What reached the topic is
 * read back by {@link TortureCompare}; this process only has to keep writing.
 *
 * <p>Usage: {@code TortureProducer <bootstrap> <topic> <partitions> <records> <records per second> <seed> <transactional true|false>}
 */
public final class TortureProducer {
    private TortureProducer() {
    }

    /** The stream's settings, from the command line. */
    record Settings(String bootstrap, String topic, int partitions, long records, double rate, long seed, boolean transactional) {
        static Settings parse(String[] args) {
            Usage.exactly(args, 7, "TortureProducer <bootstrap> <topic> <partitions> <records> <records/s> <seed>"
                    + " <transactional true|false>");
            return new Settings(args[0], args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]), Double.parseDouble(args[4]),
                    Long.parseLong(args[5]), Boolean.parseBoolean(args[6]));
        }
    }

    public static void main(String[] args) throws Exception {
        Settings s = Settings.parse(args);
        Random random = new Random(s.seed());
        createTopic(s.bootstrap(), s.topic(), s.partitions());

        long sent = 0;
        long aborted = 0;
        long failed = 0;
        AtomicLong sendErrors = new AtomicLong();
        KafkaProducer<byte[], byte[]> producer = producer(s.bootstrap(), s.topic(), s.transactional());
        // a burst (started ahead, let go by a file) sends without waiting for each batch: what counts is how fast it comes
        boolean burst = awaitStartFile();
        long start = System.nanoTime();
        while (sent < s.records()) {
            int batch = s.transactional() ? 1 + random.nextInt(50) : 1 + random.nextInt(20);
            batch = (int) Math.min(batch, s.records() - sent);
            boolean abort = s.transactional() && random.nextInt(6) == 0;
            try {
                if (s.transactional()) {
                    producer.beginTransaction();
                }
                for (int i = 0; i < batch; i++) {
                    producer.send(record(s.topic(), sent + i, random), (m, e) -> {
                        if (e != null) {
                            sendErrors.incrementAndGet();
                        }
                    });
                }
                if (!s.transactional()) {
                    if (!burst) {
                        producer.flush();
                    }
                } else if (abort) {
                    producer.abortTransaction();
                    aborted += batch;
                } else {
                    producer.commitTransaction();
                }
            } catch (KafkaException e) {
                // A broker killed under us: whatever this batch did is aborted (or, idempotent, retried by the
                // producer until delivery.timeout.ms); a new producer fences the old transactional id and goes on.
                failed += batch;
                System.out.println("producer: " + e.getClass().getSimpleName() + " (" + e.getMessage() + "); re-creating the producer");
                producer.close(java.time.Duration.ofSeconds(5));
                producer = producer(s.bootstrap(), s.topic(), s.transactional());
            }
            sent += batch;
            long due = start + (long) (sent / s.rate() * 1e9);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
        }
        producer.close();
        System.out.printf("produced %d records to %s (%d in aborted transactions, %d in failed batches, %d send errors) in %.1f s%n",
                sent, s.topic(), aborted, failed, sendErrors.get(), (System.nanoTime() - start) / 1e9);
    }

    /**
     * With {@code -Dtorture.start.file=<path>}, waits (at most 10 minutes) until that file exists: a burst started ahead,
     * its JVM and producer ready, writes the moment the suite creates the file (a JVM start takes seconds on a loaded
     * machine). True for such a burst.
     */
    private static boolean awaitStartFile() throws InterruptedException {
        String file = System.getProperty("torture.start.file");
        if (file == null) {
            return false;
        }
        long deadline = System.nanoTime() + 600_000_000_000L;
        while (!Files.exists(Path.of(file))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("torture.start.file " + file + " did not appear within 10 minutes");
            }
            Thread.sleep(10);
        }
        return true;
    }

    static ProducerRecord<byte[], byte[]> record(String topic, long n, Random random) {
        byte[] key = random.nextInt(20) == 0 ? null : ("key-" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8);
        byte[] value = null;
        if (random.nextInt(10) != 0) {
            value = new byte[16 + random.nextInt(200)];
            random.nextBytes(value);
        }
        RecordHeaders headers = new RecordHeaders();
        if (n % 3 == 0) {
            headers.add("n", Long.toString(n).getBytes(StandardCharsets.UTF_8));
        }
        if (n % 7 == 0) {
            headers.add("empty", null);
        }
        return new ProducerRecord<>(topic, null, null, key, value, headers);
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap, String topic, boolean transactional) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        // A killed broker comes back within this: nothing the stream sent is given up on.
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "600000");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "600000");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "torture-producer-" + topic);
        if (transactional) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "torture-" + topic);
            p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "60000");
        }
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        if (transactional) {
            producer.initTransactions();
        }
        return producer;
    }

    private static void createTopic(String bootstrap, String topic, int partitions) throws InterruptedException {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("could not create topic " + topic + " at " + bootstrap + ": " + e.getCause(), e.getCause());
            }
        }
    }
}
