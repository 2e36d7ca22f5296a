package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.restore.cli.report.RestoreReport;
import dev.mirrorv3.testsupport.TestRecords;
import dev.mirrorv3.testsupport.TestRecords.PartitionContent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * {@code restore} of a compaction=log backup: snapshots written from a real compacted topic with updates and tombstones;
 * preserve is refused, verify-only checks the snapshots, renumber produces the newest snapshot in key order, and a
 * consumer of the restored topic builds the same key -> value map as one of the source topic.
 */
class RestoreSnapshotIT extends RestoreIntoBrokerBase {
    private static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();

    private static KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers(), "key.serializer", ByteArraySerializer.class,
                "value.serializer", ByteArraySerializer.class));
    }

    /**
     * Sends {@code count} records to partition 0, each with one of {@code keys} keys ("key-<n>") drawn at random, and
     * a value "<valuePrefix><i>" or, one time in {@code tombstoneOneIn}, none: updates and tombstones to compact.
     */
    private static void sendUpdatesAndTombstones(String topic, Random random, int count, int keys, int tombstoneOneIn,
            String valuePrefix) {
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            for (int i = 0; i < count; i++) {
                byte[] value = random.nextInt(tombstoneOneIn) == 0 ? null : (valuePrefix + i).getBytes(StandardCharsets.UTF_8);
                p.send(new ProducerRecord<>(topic, 0, ("key-" + random.nextInt(keys)).getBytes(StandardCharsets.UTF_8), value));
            }
        }
    }

    /** Partition 0 of the topic, read to its end. */
    private static PartitionContent partition0(String topic) {
        return TestRecords.readToEnd(broker.bootstrapServers(), new TopicPartition(topic, 0), Duration.ofSeconds(60));
    }

    /** The blob sink's snapshot writer of the topic's partition 0, flushed by the test, spilling to the test's dir/spill. */
    private SnapshotWriter snapshotWriter(FilesystemStore store, String topic, ObjectEncryption encryption, KeyRing keys,
            int bufferBytes) {
        return new SnapshotWriter(store, topic, 0, new SnapshotWriter.Settings(SETTINGS, new ParquetCodec(SETTINGS, encryption),
                new SnapshotReader(store, SETTINGS, keys), new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000), Clock.systemUTC(),
                bufferBytes), ChainHead.empty(store.location(0)), 0, dir.resolve("spill"));
    }

    @Test
    void renumberRestoresTheNewestSnapshotInKeyOrderAndPreserveIsRefused() throws Exception {
        broker.createTopic("kv", 1, Map.of("cleanup.policy", "compact"));
        sendUpdatesAndTombstones("kv", new Random(5), 8_000, 2_000, 6, "v");
        List<ConsumerRecord<byte[], byte[]>> source = partition0("kv").records();
        Map<String, ConsumerRecord<byte[], byte[]>> expected = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : source) {
            String k = new String(r.key(), StandardCharsets.UTF_8);
            if (r.value() == null) {
                expected.remove(k);
            } else {
                expected.put(k, r);
            }
        }

        // Two snapshots, as the blob sink writes them (its writer, over the topic's records).
        Path root = dir.resolve("backups");
        FilesystemStore store = new FilesystemStore(root, "kv-backup");
        SnapshotWriter w = snapshotWriter(store, "kv", ObjectEncryption.none(), KeyRing.empty(), 64 * 1024);
        for (int i = 0; i < source.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = source.get(i);
            w.append(new BackupRecord("kv", 0, r.offset(), r.timestamp(), TimestampType.CREATE_TIME, r.key(), r.value(), List.of()));
            if (i == source.size() / 2 || i == source.size() - 1) {
                w.flush(FlushTrigger.TIME).orElseThrow();
            }
        }
        Path config = dir.resolve("kv-backup.json");
        Files.writeString(config, Files.readString(TestBackups.connectorJson(dir, "kv-backup", "kv", root))
                .replace("\"tasks.max\"", "\"compaction\":\"log\",\"tasks.max\""));

        CliRun preserve = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "preserve", "--verify-only");
        assertThat(preserve.exitCode()).as(preserve.toString()).isEqualTo(1);
        assertThat(preserve.err()).contains("compaction=log", "holes by construction", "use --offsets renumber");

        CliRun verify = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).contains("snapshots: 2 (all checked)", "keys: " + expected.size());

        broker.createTopic("kv-restored", 1, Map.of("cleanup.policy", "compact"));
        CliRun r = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--bootstrap-servers",
                broker.bootstrapServers(), "--topic", "kv-restored", "--original-offset-header", "mirror-v3.offset", "--progress", "none");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("restored: " + expected.size() + " records");

        PartitionContent restored = partition0("kv-restored");
        assertThat(restored.highWatermark()).isEqualTo(expected.size());
        Map<String, String> got = new TreeMap<>();
        List<byte[]> keysInOrder = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> g : restored.records()) {
            String k = new String(g.key(), StandardCharsets.UTF_8);
            got.put(k, new String(g.value(), StandardCharsets.UTF_8));
            keysInOrder.add(g.key());
            Header h = g.headers().lastHeader("mirror-v3.offset");
            assertThat(new String(h.value(), StandardCharsets.UTF_8)).as("original offset of " + k)
                    .isEqualTo(Long.toString(expected.get(k).offset()));
            assertThat(g.timestamp()).isEqualTo(expected.get(k).timestamp());
        }
        Map<String, String> fromSource = new TreeMap<>();
        expected.forEach((k, v) -> fromSource.put(k, new String(v.value(), StandardCharsets.UTF_8)));
        assertThat(got).as("key -> value of the restored topic").isEqualTo(fromSource);
        for (int i = 1; i < keysInOrder.size(); i++) {
            assertThat(Arrays.compareUnsigned(keysInOrder.get(i - 1), keysInOrder.get(i))).as("key order").isNegative();
        }
    }

    /**
     * encryption=parquet with compaction=log: the sink's writer encrypts every snapshot with k1; verify and restore read them
     * with the keys dir, and the restored topic holds the source's latest value per key.
     */
    @Test
    void encryptedSnapshotsRestoreWithTheirKeys() throws Exception {
        broker.createTopic("kv-enc", 1, Map.of("cleanup.policy", "compact"));
        sendUpdatesAndTombstones("kv-enc", new Random(9), 3_000, 700, 5, "e");
        List<ConsumerRecord<byte[], byte[]>> source = partition0("kv-enc").records();
        Map<String, String> expected = TestBackups.newestValues(source);

        Path keys = TestBackups.keysWithK1(dir);
        KeyRing ring = KeyRing.load(keys);
        Path root = dir.resolve("backups");
        FilesystemStore store = new FilesystemStore(root, "kv-enc-backup");
        SnapshotWriter w = snapshotWriter(store, "kv-enc", new ObjectEncryption(ring, "k1"), ring, 16 * 1024);
        for (int i = 0; i < source.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = source.get(i);
            w.append(new BackupRecord("kv-enc", 0, r.offset(), r.timestamp(), TimestampType.CREATE_TIME, r.key(), r.value(), List.of()));
            if (i == source.size() / 3 || i == source.size() - 1) {
                w.flush(FlushTrigger.TIME).orElseThrow();
            }
        }
        assertThat(store.list(0)).hasSize(2).allMatch(n -> n.endsWith(".k-k1.parquet"));
        Path config = dir.resolve("kv-enc-backup.json");
        Files.writeString(config, Files.readString(TestBackups.connectorJson(dir, "kv-enc-backup", "kv-enc", root))
                .replace("\"tasks.max\"", "\"compaction\":\"log\",\"encryption\":\"parquet\",\"encryption.key.id\":\"k1\","
                        + "\"encryption.keys.dir\":\"" + dir.resolve("worker-keys") + "\",\"tasks.max\""));

        CliRun noKeys = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only");
        assertThat(noKeys.exitCode()).as(noKeys.toString()).isEqualTo(1);
        assertThat(noKeys.err()).contains("[k1]");

        CliRun verify = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--keys-dir", keys.toString());
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).contains("snapshots: 2 (all checked)", "keys: " + expected.size());

        broker.createTopic("kv-enc-restored", 1, Map.of("cleanup.policy", "compact"));
        CliRun r = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--keys-dir", keys.toString(),
                "--bootstrap-servers", broker.bootstrapServers(), "--topic", "kv-enc-restored", "--progress", "none");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("restored: " + expected.size() + " records");
        assertThat(restoredMap("kv-enc-restored")).as("key -> value of the restored topic").isEqualTo(expected);
    }

    /**
     * Point-in-time restore of snapshots: an offset cut between the two snapshots and a timestamp cut between their records'
     * stamps each restore the older snapshot (the key -> value map of the topic as of its end), --verify-only and --report name
     * it, and a cut before the oldest snapshot fails naming it.
     */
    @Test
    void untilOffsetAndUntilTimestampRestoreTheOlderSnapshot() throws Exception {
        broker.createTopic("kv-pit", 1, Map.of("cleanup.policy", "compact"));
        long early = 1_700_000_000_000L;
        long late = early + 3_600_000;
        Random random = new Random(11);
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            for (int i = 0; i < 2_000; i++) {
                byte[] value = random.nextInt(6) == 0 ? null : ("p" + i).getBytes(StandardCharsets.UTF_8);
                // the first half stamped an hour before the second half
                p.send(new ProducerRecord<>("kv-pit", 0, (i < 1_000 ? early : late) + i,
                        ("key-" + random.nextInt(400)).getBytes(StandardCharsets.UTF_8), value));
            }
        }
        List<ConsumerRecord<byte[], byte[]>> source = partition0("kv-pit").records();
        assertThat(source).hasSize(2_000);

        Path root = dir.resolve("backups");
        FilesystemStore store = new FilesystemStore(root, "kv-pit-backup");
        SnapshotWriter w = snapshotWriter(store, "kv-pit", ObjectEncryption.none(), KeyRing.empty(), 64 * 1024);
        List<String> snapshots = new ArrayList<>();
        Map<String, String> atOlder = new TreeMap<>();
        Map<String, String> state = new TreeMap<>();
        for (int i = 0; i < source.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = source.get(i);
            w.append(new BackupRecord("kv-pit", 0, r.offset(), r.timestamp(), TimestampType.CREATE_TIME, r.key(), r.value(), List.of()));
            String k = new String(r.key(), StandardCharsets.UTF_8);
            if (r.value() == null) {
                state.remove(k);
            } else {
                state.put(k, new String(r.value(), StandardCharsets.UTF_8));
            }
            if (i == 999 || i == source.size() - 1) {
                snapshots.add(w.flush(FlushTrigger.TIME).orElseThrow().name().toString());
                if (i == 999) {
                    atOlder.putAll(state);
                }
            }
        }
        String older = snapshots.get(0);
        long olderTo = source.get(999).offset();
        assertThat(atOlder).as("the older snapshot's state differs from the newest").isNotEqualTo(state);
        Path config = dir.resolve("kv-pit-backup.json");
        Files.writeString(config, Files.readString(TestBackups.connectorJson(dir, "kv-pit-backup", "kv-pit", root))
                .replace("\"tasks.max\"", "\"compaction\":\"log\",\"tasks.max\""));

        broker.createTopic("kv-pit-offset", 1, Map.of("cleanup.policy", "compact", "retention.ms", "-1"));
        long offsetCut = olderTo + 500; // records after the older snapshot's end up to here are in no snapshot at or before it
        Path report = dir.resolve("offset-cut.json");
        CliRun byOffset = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--until-offset",
                "0:" + offsetCut, "--bootstrap-servers", broker.bootstrapServers(), "--topic", "kv-pit-offset", "--progress", "none",
                "--report", report.toString());
        assertThat(byOffset.exitCode()).as(byOffset.toString()).isZero();
        assertThat(restoredMap("kv-pit-offset")).as("key -> value restored with --until-offset 0:" + offsetCut).isEqualTo(atOlder);
        assertThat(byOffset.out()).contains("snapshot: " + older + " (state up to offset " + olderTo, "offset " + offsetCut,
                "restored state is as of offset " + olderTo);
        PointInTimeRestoreTest.assertValid(report);
        var json = RestoreReport.read(report);
        assertThat(json.at("/partitions/0/snapshot").asText()).isEqualTo(older);
        assertThat(json.at("/partitions/0/records").asLong()).isEqualTo(atOlder.size());
        assertThat(json.at("/partitions/0/lastOffset").asLong()).isEqualTo(olderTo);
        assertThat(json.at("/partitions/0/targetHighWatermarkAfter").asLong()).isEqualTo(atOlder.size());
        assertThat(json.at("/cut/untilOffsets/0").asLong()).isEqualTo(offsetCut);

        String untilTimestamp = java.time.Instant.ofEpochMilli(early + 1_000 + 60_000).toString(); // after every early stamp
        CliRun verify = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--until-timestamp", untilTimestamp, "--report", dir.resolve("verify.json").toString());
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).contains("snapshot: " + older, "keys: " + atOlder.size(), "timestamp " + untilTimestamp,
                "the newer " + snapshots.get(1) + " took a record stamped");
        var verifyJson = RestoreReport.read(dir.resolve("verify.json"));
        assertThat(verifyJson.at("/partitions/0/snapshot").asText()).isEqualTo(older);
        assertThat(verifyJson.at("/partitions/0/sha256").asText()).as("same records as the offset cut restored")
                .isEqualTo(json.at("/partitions/0/sha256").asText());

        broker.createTopic("kv-pit-ts", 1, Map.of("cleanup.policy", "compact", "retention.ms", "-1"));
        CliRun byTime = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--until-timestamp",
                untilTimestamp, "--bootstrap-servers", broker.bootstrapServers(), "--topic", "kv-pit-ts", "--progress", "none");
        assertThat(byTime.exitCode()).as(byTime.toString()).isZero();
        assertThat(restoredMap("kv-pit-ts")).as("key -> value restored with --until-timestamp " + untilTimestamp).isEqualTo(atOlder);

        CliRun tooEarly = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--until-offset", "0:" + (olderTo - 1));
        assertThat(tooEarly.exitCode()).as(tooEarly.toString()).isEqualTo(1);
        assertThat(tooEarly.err()).contains("no snapshot is at or before offset " + (olderTo - 1), "the oldest kept is " + older);
    }

    private static Map<String, String> restoredMap(String topic) {
        Map<String, String> got = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> g : partition0(topic).records()) {
            got.put(new String(g.key(), StandardCharsets.UTF_8), new String(g.value(), StandardCharsets.UTF_8));
        }
        return got;
    }
}
