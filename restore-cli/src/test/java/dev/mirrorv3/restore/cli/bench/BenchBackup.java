package dev.mirrorv3.restore.cli.bench;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.store.FilesystemStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The restore bench's backup of one configuration (partitions x value size): each partition holds {@code perPartition}
 * records of random capital letters (ProducerPerformance's payload), offsets from 0, timestamps from
 * {@link #FIRST_TIMESTAMP}, in objects cut as the blob sink cuts them at flush.max.records=100000 and flush.max.bytes=16
 * MiB; and the check that a restored topic holds exactly that.
 *
 * @param config the connector config file {@code mirror-v3 restore --connector-config} reads
 */
record BenchBackup(int partitions, int valueBytes, int perPartition, Path config) {
    static final long FIRST_TIMESTAMP = 1_700_000_000_000L;
    private static final long SEED = 42;

    static BenchBackup write(Path dir, int partitions, int valueBytes, int perPartition) throws Exception {
        Path root = dir.resolve(partitions + "p-" + valueBytes + "B");
        EnvelopeSettings settings = EnvelopeSettings.parquetBytes();
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(settings);
        FilesystemStore store = new FilesystemStore(root, "bench-backup");
        int perObject = Math.min(100_000, (16 << 20) / valueBytes);
        for (int p = 0; p < partitions; p++) {
            Values values = new Values(p, valueBytes);
            for (int from = 0; from < perPartition; from += perObject) {
                int to = Math.min(perPartition, from + perObject) - 1;
                List<BackupRecord> batch = new ArrayList<>(to - from + 1);
                for (long o = from; o <= to; o++) {
                    batch.add(new BackupRecord("bench", p, o, FIRST_TIMESTAMP + o, TimestampType.CREATE_TIME, null, values.next(),
                            List.of()));
                }
                store.create(p, ObjectName.plain(from, to, settings.format()).fileName(), codec.encode(batch));
            }
        }
        Path config = dir.resolve("bench-backup-" + partitions + "p-" + valueBytes + "B.json");
        Files.writeString(config, "{\"name\":\"bench-backup\",\"config\":{\"topics\":\"bench\",\"filesystem.root\":\"" + root + "\"}}");
        return new BenchBackup(partitions, valueBytes, perPartition, config);
    }

    long records() {
        return (long) partitions * perPartition;
    }

    /** The restored topic holds exactly the backup: per partition offsets 0..N-1 with its values and timestamps, no key. */
    void checkRestored(String bootstrap, String topic) {
        for (int p = 0; p < partitions; p++) {
            checkPartition(bootstrap, new TopicPartition(topic, p));
        }
    }

    private void checkPartition(String bootstrap, TopicPartition tp) {
        Values values = new Values(tp.partition(), valueBytes);
        long next = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(120 + perPartition / 10_000).toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            while (next < perPartition) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(tp + ": only " + next + " of " + perPartition + " records could be read back");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    String at = tp + " offset " + r.offset() + ": ";
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

    /** A partition's values in offset order: random capital letters, as ProducerPerformance's payload. */
    private static final class Values {
        private final SplittableRandom random;
        private final int size;

        Values(int partition, int size) {
            this.random = new SplittableRandom(SEED + partition);
            this.size = size;
        }

        byte[] next() {
            byte[] value = new byte[size];
            for (int i = 0; i < size; i++) {
                value[i] = (byte) ('A' + random.nextInt(26));
            }
            return value;
        }
    }
}
