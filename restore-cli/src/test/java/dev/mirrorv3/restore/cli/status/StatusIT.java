package dev.mirrorv3.restore.cli.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.kafka.FailureNote;
import dev.mirrorv3.kafka.FailureNotes;
import dev.mirrorv3.kafka.FailureVerdict;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.ConnectorKind;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code status} against a real broker and Connect worker: the rows of each connector class (blob sink, Kafka sink,
 * chain source) from connector JSON files, every mirror-v3 connector of a worker with its state through
 * {@code --connect-url}, table and JSON, and exit 1 when a row cannot be read or a task FAILED.
 */
class StatusIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);

    @TempDir
    static Path dir;

    private static String config;
    private static Path backups;

    @BeforeAll
    static void start() throws Exception {
        cluster.kafka().createTopic("events", 2);
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            send(p, "events", 0, 700);
            send(p, "events", 1, 10);
        }
        backups = dir.resolve("backups");
        TestBackups.write(backups, "events-backup", 0, 0, TestBackups.records("events", 0, 0, 499, o -> true), 250);
        config = TestBackups.connectorJson(dir, "events-backup", "events", backups).toString();
        MetaSnapshots meta = new MetaSnapshots(new FilesystemStore(backups, "events-backup"), ObjectEncryption.none());
        meta.writeTopic(new TopicSnapshot(1_700_000_000_000L, "events", "", 2, 1, Map.of()));
        meta.writeGroups(new GroupSnapshot(1_699_000_000_000L, "events", Map.of(0, 400L), Map.of()));
        meta.writeGroups(new GroupSnapshot(1_700_000_060_000L, "events", Map.of(0, 500L), Map.of()));
        // A newer snapshot whose writer was killed before its commit: its temporary file is not a snapshot.
        Files.writeString(backups.resolve("events-backup/_meta/groups")
                .resolve(dev.mirrorv3.chain.TemporaryFiles.temporaryNameFor("00000001800000000000.json")), "{\"format_ver");
    }

    @Test
    void tableAndJsonShowHighWatermarkNextOffsetAndLag() throws Exception {
        CliRun table = CliRun.run("status", "--connector-config", config, "--bootstrap-servers", cluster.bootstrapServers());
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).isEqualTo(
                "CONNECTOR      TOPIC   PARTITION  SOURCE_HWM  BACKUP_NEXT  LAG  TOPIC_SNAPSHOT        GROUPS_SNAPSHOT       ERROR\n"
                        + "events-backup  events          0         700          500  200  2023-11-14T22:13:20Z  2023-11-14T22:14:20Z\n"
                        + "events-backup  events          1          10            0   10  2023-11-14T22:13:20Z  2023-11-14T22:14:20Z\n");
        CliRun json = CliRun.run("status", "--connector-config", config, "--bootstrap-servers", cluster.bootstrapServers(),
                "--format", "json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        JsonNode rows = JSON.readTree(json.out());
        assertThat(rows.size()).isEqualTo(2);
        assertThat(rows.get(0).get("type").asText()).isEqualTo("blob-sink");
        assertThat(rows.get(0).get("source_high_watermark").asLong()).isEqualTo(700);
        assertThat(rows.get(0).get("backup_next_offset").asLong()).isEqualTo(500);
        assertThat(rows.get(0).get("lag").asLong()).isEqualTo(200);
        assertThat(rows.get(0).get("groups_snapshot").asText()).as("the newest").isEqualTo("2023-11-14T22:14:20Z");
        assertThat(rows.get(1).get("lag").asLong()).isEqualTo(10);
        assertThat(rows.get(1).get("error").isNull()).isTrue();
        assertThat(rows.get(1).has("connector_state")).isFalse();
    }

    @Test
    void anUnreachableBrokerOrACorruptChainFailsItsRow() throws Exception {
        CliRun down = CliRun.run("status", "--connector-config", config, "--bootstrap-servers", "localhost:1", "--timeout-ms", "1500");
        assertThat(down.exitCode()).as(down.toString()).isEqualTo(1);
        assertThat(down.out()).contains("events-backup", "source cluster localhost:1");

        Path foreign = backups.resolve("events-backup/1/notes.txt");
        Files.createDirectories(foreign.getParent());
        Files.writeString(foreign, "hello");
        try {
            CliRun corrupt = CliRun.run("status", "--connector-config", config, "--bootstrap-servers", cluster.bootstrapServers(),
                    "--format", "json");
            assertThat(corrupt.exitCode()).as(corrupt.toString()).isEqualTo(1);
            JsonNode rows = JSON.readTree(corrupt.out());
            assertThat(rows.get(0).get("error").isNull()).isTrue();
            assertThat(rows.get(1).get("error").asText()).contains("notes.txt is not a backup object");
        } finally {
            Files.delete(foreign);
        }
    }

    @Test
    void aSnapshotBackupShowsTheNewestSnapshotsKeysAndEnd() throws Exception {
        cluster.kafka().createTopic("kv", 1);
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            for (int i = 0; i < 300; i++) {
                p.send(new ProducerRecord<>("kv", 0, ("key-" + i % 40).getBytes(StandardCharsets.UTF_8), new byte[] {1}));
            }
        }
        // Snapshots of offsets 0-99 and 100-199 as the blob sink writes them (compaction=log): 40 keys, 7 of them deleted.
        Path root = dir.resolve("snapshots");
        FilesystemStore store = new FilesystemStore(root, "kv-backup");
        long next = 0;
        for (int s = 0; s < 2; s++) {
            SnapshotWriter w = new SnapshotWriter(store, "kv", 0, new SnapshotWriter.Settings(TestBackups.SETTINGS,
                    new ParquetCodec(TestBackups.SETTINGS), new SnapshotReader(store, TestBackups.SETTINGS, KeyRing.empty()),
                    new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000), Clock.systemUTC(), 1 << 20),
                    new SnapshotReader(store, TestBackups.SETTINGS, KeyRing.empty()).head(0), next, dir.resolve("spill"));
            for (long o = next; o < next + 100; o++) {
                byte[] value = s == 1 && o >= 193 ? null : new byte[] {1}; // keys 33..39 deleted in the second snapshot
                w.append(new BackupRecord("kv", 0, o, TestBackups.BASE_TS + o, TimestampType.CREATE_TIME,
                        ("key-" + o % 40).getBytes(StandardCharsets.UTF_8), value, List.of()));
            }
            w.flush(FlushTrigger.TIME).orElseThrow();
            next += 100;
        }
        Path config = dir.resolve("kv-backup.json");
        Files.writeString(config, Files.readString(TestBackups.connectorJson(dir, "kv-backup", "kv", root))
                .replace("\"tasks.max\"", "\"compaction\":\"log\",\"tasks.max\""));

        CliRun table = CliRun.run("status", "--connector-config", config.toString(), "--bootstrap-servers", cluster.bootstrapServers());
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).isEqualTo(
                "CONNECTOR  TOPIC  PARTITION  SOURCE_HWM  BACKUP_NEXT  LAG  TOPIC_SNAPSHOT  GROUPS_SNAPSHOT  KEYS  SNAPSHOT_TO  ERROR\n"
                + "kv-backup  kv             0         300          200  100  -               -                  33          199\n");
        CliRun json = CliRun.run("status", "--connector-config", config.toString(), "--bootstrap-servers", cluster.bootstrapServers(),
                "--format", "json");
        JsonNode row = JSON.readTree(json.out()).get(0);
        assertThat(row.get("snapshot_keys").asLong()).isEqualTo(33);
        assertThat(row.get("snapshot_to").asLong()).isEqualTo(199);
        assertThat(row.get("backup_next_offset").asLong()).isEqualTo(200);

        CliRun chain = CliRun.run("status", "--connector-config", StatusIT.config, "--bootstrap-servers", cluster.bootstrapServers(),
                "--format", "json");
        assertThat(JSON.readTree(chain.out()).get(0).has("snapshot_keys")).as("a chain has no snapshot columns").isFalse();
    }

    @Test
    void kafkaSinkRowsCompareSourceAndDestinationHighWatermarks() throws Exception {
        cluster.kafka().createTopic("events-copy", 2);
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            send(p, "events-copy", 0, 650);
            send(p, "events-copy", 1, 10);
        }
        Path sink = connectorJson("events-dr", kafkaSink("events", "events-copy"));
        CliRun table = CliRun.run("status", "--connector-config", sink.toString());
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).isEqualTo(
                "CONNECTOR  TOPIC   PARTITION  SOURCE_HWM  DEST_TOPIC   DEST_HWM  LAG  ERROR\n"
                        + "events-dr  events          0         700  events-copy       650   50\n"
                        + "events-dr  events          1          10  events-copy        10    0\n");

        Path nowhere = connectorJson("events-nowhere", kafkaSink("events", "nowhere"));
        CliRun missing = CliRun.run("status", "--connector-config", nowhere.toString(), "--format", "json");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(1);
        JsonNode rows = JSON.readTree(missing.out());
        assertThat(rows.get(0).get("type").asText()).isEqualTo("kafka-sink");
        assertThat(rows.get(0).get("destination_topic").asText()).isEqualTo("nowhere");
        assertThat(rows.get(0).get("source_high_watermark").asLong()).isEqualTo(700);
        assertThat(rows.get(0).get("destination_high_watermark").isNull()).isTrue();
        assertThat(rows.get(0).get("error").asText()).isEqualTo("destination cluster " + cluster.bootstrapServers()
                + ": topic nowhere does not exist");
    }

    @Test
    void chainSourceRowsShowTheBackupsEndTheTargetsHighWatermarkAndHowFarBehindItIs() throws Exception {
        // records one second apart, so that the lag in seconds is the lag in offsets
        TestBackups.write(backups, "orders-backup", 0, 0, spaced("orders", 0, 499), 250);
        TestBackups.write(backups, "orders-backup", 1, 0, spaced("orders", 1, 99), 100);
        cluster.kafka().createTopic("standby", 2);
        cluster.kafka().createTopic("renumbered", 2);
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            for (int o = 0; o < 300; o++) {
                p.send(new ProducerRecord<>("standby", 0, TestBackups.BASE_TS + o * 1000L, null, new byte[] {1}));
            }
            for (int o = 0; o < 100; o++) {
                p.send(new ProducerRecord<>("standby", 1, TestBackups.BASE_TS + o * 1000L, null, new byte[] {1}));
            }
            // renumbered: 40 records whose last is the backup's offset 399 (original.offset.header); partition 1 empty
            for (int i = 0; i < 40; i++) {
                long original = 360 + i;
                RecordHeaders headers = new RecordHeaders(List.of(new RecordHeader("backup-offset",
                        Long.toString(original).getBytes(StandardCharsets.UTF_8))));
                p.send(new ProducerRecord<>("renumbered", 0, TestBackups.BASE_TS + original * 1000L, null, new byte[] {1}, headers));
            }
        }
        Path preserve = connectorJson("standby", chainSource("standby", "preserve"));
        Map<String, String> renumber = chainSource("renumbered", "renumber");
        renumber.put("original.offset.header", "backup-offset");
        Path renumbered = connectorJson("standby-renumbered", renumber);

        CliRun table = CliRun.run("status", "--connector-config", preserve.toString(), "--connector-config", renumbered.toString());
        assertThat(table.exitCode()).as(table.toString()).isZero();
        // CHECKSTYLE.OFF: LineLength - the expected table, one row a line
        assertThat(table.out()).isEqualTo(
                "CONNECTOR           BACKUP         PARTITION  BACKUP_END  TARGET_TOPIC  TARGET_PARTITION  TARGET_HWM  LAG  SECONDS_BEHIND  ERROR\n"
              + "standby             orders-backup          0         500  standby                      0         300  200             200\n"
              + "standby             orders-backup          1         100  standby                      1         100    0               0\n"
              + "standby-renumbered  orders-backup          0         500  renumbered                   0          40  100             100\n"
              + "standby-renumbered  orders-backup          1         100  renumbered                   1           0  100              99\n");
        // CHECKSTYLE.ON: LineLength
        CliRun json = CliRun.run("status", "--connector-config", preserve.toString(), "--format", "json");
        JsonNode row = JSON.readTree(json.out()).get(0);
        assertThat(row.get("type").asText()).isEqualTo("chain-source");
        assertThat(row.get("backup_end_offset").asLong()).isEqualTo(500);
        assertThat(row.get("target_high_watermark").asLong()).isEqualTo(300);
        assertThat(row.get("lag").asLong()).isEqualTo(200);
        assertThat(row.get("seconds_behind").asLong()).isEqualTo(200);

        // A failed partition, as the chain source notes it on the target cluster (ChainSourceIsolationIT writes it there).
        try (Admin admin = cluster.kafka().createAdminClient()) {
            FailureNotes notes = new FailureNotes(admin, FailureNotes.groupId("standby"), Duration.ofSeconds(10));
            notes.record(new TopicPartition("standby", 1), 0, FailureNote.failed(TestBackups.BASE_TS, FailureVerdict.Kind.NEEDS_OPERATOR,
                    "gap in the chain at /backups/orders-backup/1: offsets 100-109 are in no object"));
            CliRun failed = CliRun.run("status", "--connector-config", preserve.toString(), "--format", "json");
            assertThat(failed.exitCode()).as(failed.toString()).isEqualTo(1);
            JsonNode rows = JSON.readTree(failed.out());
            assertThat(rows.get(0).get("error").isNull()).as("partition 0 is healthy").isTrue();
            assertThat(rows.get(1).get("error").asText()).isEqualTo("partition FAILED since 2023-11-14T22:13:20Z (needs an operator):"
                    + " gap in the chain at /backups/orders-backup/1: offsets 100-109 are in no object");
            notes.clear(List.of(new TopicPartition("standby", 1)));
        }
    }

    @Test
    void connectUrlCoversEveryMirrorV3ConnectorWithItsStateAndAFailedPartitionOrTaskExitsOne() throws Exception {
        cluster.kafka().createTopic("live", 1);
        cluster.kafka().createTopic("orders", 1);
        cluster.kafka().createTopic("orders-copy", 1);
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            send(p, "live", 0, 50);
            send(p, "orders", 0, 10);
            send(p, "orders-copy", 0, 20);
        }
        Map<String, String> blob = common(ConnectorKind.BLOB_SINK, "live");
        blob.put("filesystem.root", dir.resolve("live-root").toString());
        blob.put("flush.max.time.ms", "1000");
        cluster.deploy("live-backup", blob);
        // The destination is ahead of its source: the partition is isolated (the task runs on), or with partition.failure=task
        // the task fails.
        cluster.deploy("orders-dr", kafkaSink("orders", "orders-copy"));
        Map<String, String> failing = kafkaSink("orders", "orders-copy");
        failing.put("partition.failure", "task");
        cluster.deploy("orders-dr-task", failing);
        cluster.deploy("someone-elses", Map.of("connector.class", "org.apache.kafka.connect.runtime.SampleSinkConnector",
                "topics", "live", "required", "x", "tasks.max", "1"));
        cluster.awaitRunning("live-backup", Duration.ofSeconds(120));
        cluster.awaitPartitionFailed("orders-dr", "orders", 0, Duration.ofSeconds(120));
        cluster.awaitTaskFailure("orders-dr-task", Duration.ofSeconds(120));
        String url = cluster.connect().endpointForResource("");

        AtomicReference<CliRun> all = new AtomicReference<>();
        Awaitility.await("the blob sink backed up the 50 records").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    all.set(CliRun.run("status", "--connect-url", url));
                    return all.get().out().contains("live-backup  live           0          50           50    0");
                });
        CliRun r = all.get();
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).matches("CONNECTOR +TYPE +STATE +TASKS +ERROR");
        assertThat(lines.get(1)).matches("live-backup +blob-sink +RUNNING +0:RUNNING");
        assertThat(lines.get(2)).matches("orders-dr +kafka-sink +RUNNING +0:RUNNING");
        assertThat(lines.get(3)).matches("orders-dr-task +kafka-sink +RUNNING +0:FAILED +task 0 FAILED: .*");
        assertThat(r.out()).doesNotContain("someone-elses");
        assertThat(r.out().lines().filter(l -> l.startsWith("orders-dr ") && l.contains("orders-copy")).toList())
                .as("the failed partition's row names its failure")
                .singleElement().asString().matches("orders-dr +orders +0 +10 +orders-copy +20 +-10 +partition FAILED since \\S+"
                        + " \\(needs an operator\\): the destination is ahead of the source for orders-0.*");

        CliRun one = CliRun.run("status", "--connect-url", url, "--connector", "live-backup", "--format", "json");
        assertThat(one.exitCode()).as(one.toString()).isZero();
        JsonNode row = JSON.readTree(one.out()).get(0);
        assertThat(row.get("connector").asText()).isEqualTo("live-backup");
        assertThat(row.get("connector_state").asText()).isEqualTo("RUNNING");
        assertThat(row.get("tasks").get(0).get("state").asText()).isEqualTo("RUNNING");
        assertThat(row.get("lag").asLong()).isZero();
    }

    private static List<BackupRecord> spaced(String topic, int partition, long to) {
        return TestBackups.records(topic, partition, 0, to, o -> true).stream()
                .map(r -> new BackupRecord(r.topic(), r.partition(), r.offset(), TestBackups.BASE_TS + r.offset() * 1000, r.timestampType(),
                        r.key(), r.value(), r.headers()))
                .toList();
    }

    private static Map<String, String> common(ConnectorKind kind, String topics) {
        return ConnectorConfigs.sink(kind.className(), topics, cluster.bootstrapServers());
    }

    private static Map<String, String> kafkaSink(String topic, String destinationTopic) {
        Map<String, String> c = common(ConnectorKind.KAFKA_SINK, topic);
        c.put("destination.bootstrap.servers", cluster.bootstrapServers());
        c.put("destination.topic", destinationTopic);
        return c;
    }

    private static Map<String, String> chainSource(String targetTopic, String offsets) {
        Map<String, String> c = common(ConnectorKind.CHAIN_SOURCE, "orders");
        c.remove("consumer.override.auto.offset.reset");
        c.remove("consumer.override.isolation.level");
        c.remove("source.admin.bootstrap.servers");
        c.put("filesystem.root", backups.toString());
        c.put("destination.name", "orders-backup");
        c.put("target.topic", targetTopic);
        c.put("offsets", offsets);
        c.put("target.admin.bootstrap.servers", cluster.bootstrapServers());
        return c;
    }

    private static Path connectorJson(String name, Map<String, String> settings) throws Exception {
        Path file = dir.resolve(name + ".json");
        Files.writeString(file, JSON.writeValueAsString(Map.of("name", name, "config", settings)));
        return file;
    }

    /** Sends {@code count} records without a key, each with the one-byte value 1, to the partition. */
    private static void send(KafkaProducer<byte[], byte[]> p, String topic, int partition, int count) {
        for (int i = 0; i < count; i++) {
            p.send(new ProducerRecord<>(topic, partition, null, new byte[] {1}));
        }
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of("bootstrap.servers", cluster.bootstrapServers(), "key.serializer", ByteArraySerializer.class,
                "value.serializer", ByteArraySerializer.class));
    }
}
