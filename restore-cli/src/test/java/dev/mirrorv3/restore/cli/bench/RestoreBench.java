package dev.mirrorv3.restore.cli.bench;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.kafka.restore.Restorer;
import dev.mirrorv3.kafka.restore.TargetTopic;
import dev.mirrorv3.restore.cli.Main;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.tools.ProducerPerformance;

/**
 * bench/run-restore-bench: a one-shot restore of N records of 100 B from a filesystem backup (verify pass included)
 * against Kafka's ProducerPerformance producing the same number and size of records with the restore's own producer
 * settings ({@link Restorer#producerConfig}: acks=all, idempotent, batches up to the topic's {@code max.message.bytes},
 * the same linger, buffer and request size), on the same in-process broker. Over the rounds the order alternates
 * (odd rounds time ProducerPerformance first, even rounds the restore), each round into new empty topics; the
 * restored topic of every round is then read back and compared with the backup record by record.
 *
 * <p>Prints {@code RESULT producer-perf-r<n> <records> <seconds> <records/s>} and {@code RESULT restore-r<n> ...} per
 * round for the script's summary (bench/lib.sh). Not a test (never run by surefire).
 *
 * <p>Usage: {@code RestoreBench [records, default 1000000] [rounds, default 3]}
 */
public final class RestoreBench {
    private static final int SIZE = 100;
    private static final long SEED = 42;
    private static final long FIRST_TIMESTAMP = 1_700_000_000_000L;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private RestoreBench() {
    }

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Files.createTempDirectory("mirror-v3-bench");
        Path root = dir.resolve("backups");
        writeBackup(root, records);
        Path config = dir.resolve("bench-backup.json");
        Files.writeString(config, "{\"name\":\"bench-backup\",\"config\":{\"topics\":\"bench\",\"filesystem.root\":\"" + root + "\"}}");
        try (KafkaTestBroker broker = KafkaTestBroker.start()) {
            String bootstrap = broker.bootstrapServers();
            for (int round = 1; round <= rounds; round++) {
                String perf = "perf-r" + round;
                String restored = "restored-r" + round;
                broker.createTopic(perf, 1, Map.of("retention.ms", "-1"));
                broker.createTopic(restored, 1, Map.of("retention.ms", "-1"));
                double perfSeconds;
                double restoreSeconds;
                if (round % 2 == 1) {
                    perfSeconds = producerPerformance(broker, perf, records);
                    restoreSeconds = restore(config, bootstrap, restored);
                } else {
                    restoreSeconds = restore(config, bootstrap, restored);
                    perfSeconds = producerPerformance(broker, perf, records);
                }
                requireEndOffset(broker, perf, records);
                checkRestored(bootstrap, restored, records);
                System.out.printf("round %d (%s first): ProducerPerformance %.2f s, mirror-v3 restore (verify pass included) %.2f s,"
                        + " ratio %.2f; %s holds the backup's %d records (offsets, values, timestamps checked)%n", round,
                        round % 2 == 1 ? "ProducerPerformance" : "restore", perfSeconds, restoreSeconds, restoreSeconds / perfSeconds,
                        restored, records);
                System.out.printf("RESULT producer-perf-r%d %d %.3f %.0f%n", round, records, perfSeconds, records / perfSeconds);
                System.out.printf("RESULT restore-r%d %d %.3f %.0f%n", round, records, restoreSeconds, records / restoreSeconds);
                broker.admin().deleteTopics(List.of(perf, restored)).all().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    /** ProducerPerformance with the producer settings the restore uses for that topic. */
    private static double producerPerformance(KafkaTestBroker broker, String topic, int records) throws Exception {
        int maxMessageBytes = TargetTopic.inspect(broker.admin(), topic, WAIT).maxMessageBytes();
        List<String> argv = new ArrayList<>(List.of("--topic", topic, "--num-records", Integer.toString(records), "--record-size",
                Integer.toString(SIZE), "--throughput", "-1", "--command-property"));
        Restorer.producerConfig(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()), maxMessageBytes)
                .forEach((k, v) -> {
                    // ProducerPerformance sets its own byte-array serializers and client id
                    if (!k.equals(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG) && !k.equals(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG)
                            && !k.equals(ProducerConfig.CLIENT_ID_CONFIG)) {
                        argv.add(k + "=" + v);
                    }
                });
        System.out.println("ProducerPerformance " + String.join(" ", argv));
        long t0 = System.nanoTime();
        ProducerPerformance.main(argv.toArray(String[]::new));
        return (System.nanoTime() - t0) / 1e9;
    }

    private static double restore(Path config, String bootstrap, String topic) {
        long t0 = System.nanoTime();
        int code = Main.commandLine(new PrintWriter(System.out, true), new PrintWriter(System.err, true), null).execute("restore",
                "--connector-config", config.toString(), "--offsets", "preserve", "--bootstrap-servers", bootstrap,
                "--topic", topic, "--progress", "none");
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (code != 0) {
            throw new IllegalStateException("restore into " + topic + " failed with exit code " + code);
        }
        return seconds;
    }

    private static void requireEndOffset(KafkaTestBroker broker, String topic, long records) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        long end = broker.admin().listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp).get(WAIT.toSeconds(), TimeUnit.SECONDS)
                .offset();
        if (end != records) {
            throw new IllegalStateException(topic + " ends at offset " + end + ", expected " + records);
        }
    }

    /** The restored topic holds exactly the backup: offsets 0..N-1 with the backup's value and timestamp, no key, no header. */
    private static void checkRestored(String bootstrap, String topic, int records) {
        TopicPartition tp = new TopicPartition(topic, 0);
        Values values = new Values();
        long next = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(120 + records / 10_000).toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            while (next < records) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(topic + ": only " + next + " of " + records + " records could be read back");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    String at = topic + " offset " + r.offset() + ": ";
                    if (r.offset() != next) {
                        throw new IllegalStateException(at + "expected offset " + next + " (a gap or a duplicate)");
                    }
                    if (r.key() != null || r.headers().toArray().length != 0) {
                        throw new IllegalStateException(at + "the backup has no key and no header there");
                    }
                    if (!Arrays.equals(values.next(), r.value())) {
                        throw new IllegalStateException(at + "the value differs from the backup's");
                    }
                    if (r.timestamp() != FIRST_TIMESTAMP + next) {
                        throw new IllegalStateException(at + "timestamp " + r.timestamp() + ", the backup's is "
                                + (FIRST_TIMESTAMP + next));
                    }
                    next++;
                }
            }
        }
    }

    /** The backup's values in offset order: 100 random capital letters each, as ProducerPerformance's payload. */
    private static final class Values {
        private final SplittableRandom random = new SplittableRandom(SEED);

        byte[] next() {
            byte[] value = new byte[SIZE];
            for (int i = 0; i < SIZE; i++) {
                value[i] = (byte) ('A' + random.nextInt(26));
            }
            return value;
        }
    }

    /** Objects of 100,000 records, the sink's default flush.max.records. */
    private static void writeBackup(Path root, int records) {
        EnvelopeSettings settings = EnvelopeSettings.parquetBytes();
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(settings);
        FilesystemStore store = new FilesystemStore(root, "bench-backup");
        Values values = new Values();
        int perObject = 100_000;
        for (int from = 0; from < records; from += perObject) {
            int to = Math.min(records, from + perObject) - 1;
            List<BackupRecord> batch = new ArrayList<>(to - from + 1);
            for (long o = from; o <= to; o++) {
                batch.add(new BackupRecord("bench", 0, o, FIRST_TIMESTAMP + o, TimestampType.CREATE_TIME, null, values.next(), List.of()));
            }
            store.create(0, ObjectName.plain(from, to, settings.format()).fileName(), codec.encode(batch));
        }
    }
}
