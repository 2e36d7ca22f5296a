package dev.mirrorv3.restore.cli.prune;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.kafka.FailureNotes;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.TestRecords;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * mirror-v3 prune run again and again while a real blob sink writes the backup and a standby (the chain source) follows
 * it, on the filesystem and on S3: neither notices; restore after the prune gives the topic's records from the new start
 * exactly once. A standby behind the new start fails its partition, saying where it is and where the chain starts.
 */
class PruneWhileRunningIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);

    private static S3TestServer s3;

    @TempDir
    static Path dir;

    @BeforeAll
    static void startS3() {
        s3 = S3TestServer.start("it-id", "it-secret");
        s3.createBucket("backups");
    }

    @AfterAll
    static void stopS3() {
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void pruneOnTheFilesystemWhileTheSinkWritesAndTheStandbyFollows() throws Exception {
        pruneWhileRunning("fs", Map.of("filesystem.root", dir.resolve("backups").toString()));
    }

    @Test
    void pruneOnS3WhileTheSinkWritesEncryptedAndTheStandbyFollows() throws Exception {
        Map<String, String> store = new HashMap<>(s3Store());
        Path keys = Files.createDirectories(dir.resolve("keys"));
        Files.writeString(keys.resolve("k1"), java.util.Base64.getEncoder().encodeToString(key()) + "\n");
        store.put("encryption", "parquet");
        store.put("encryption.keys.dir", keys.toString());
        pruneWhileRunning("s3", store);
    }

    private static byte[] key() {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        return key;
    }

    /** The sink writes, the standby follows; prune runs twice (--before, then --keep) while both run. */
    private void pruneWhileRunning(String name, Map<String, String> store) throws Exception {
        String topic = name + "-orders";
        createTopic(topic);
        createTopic(topic + "-standby");
        Map<String, String> sink = sinkConfig(name + "-backup", topic, store);
        cluster.deploy(name + "-backup", sink);
        Path config = connectorJson(name + "-backup", sink);
        Writer writer = new Writer(topic);
        Thread producing = new Thread(writer, "producer");
        producing.start();
        try {
            awaitBackedUp(config, 100); // the backup exists: the standby's validation requires it
            cluster.deploy(name + "-standby", sourceConfig(name + "-backup", topic, topic + "-standby", store));
            awaitBackedUp(config, 1500);
            Instant first = writer.between();
            awaitBackedUp(config, 3000);
            JsonNode byBefore = prune(config, "--before", first.toString());
            Duration keep = Duration.between(writer.between(), Instant.now());
            awaitBackedUp(config, 4500);
            JsonNode byKeep = prune(config, "--keep", keep.toString());
            assertThat(removed(byBefore)).as("the premise: the first prune removed objects; " + byBefore).isPositive();
            assertThat(removed(byKeep)).as("the premise: the second prune removed objects; " + byKeep).isPositive();
            assertThat(byKeep.get("partitions").get(0).get("new_start").asLong())
                    .isGreaterThan(byBefore.get("partitions").get(0).get("new_start").asLong());
        } finally {
            writer.stop.set(true);
            producing.join();
        }
        List<ConsumerRecord<byte[], byte[]>> source = TestRecords.readToEnd(cluster.bootstrapServers(), new TopicPartition(topic, 0), WAIT)
                .records();
        Awaitility.await("the standby holds every record").atMost(WAIT)
                .until(() -> highWatermark(topic + "-standby") == source.size());
        assertSame(source, TestRecords.readToEnd(cluster.bootstrapServers(), new TopicPartition(topic + "-standby", 0), WAIT).records(), 0);
        awaitBackedUp(config, source.size());
        for (String connector : List.of(name + "-backup", name + "-standby")) {
            assertThat(cluster.taskState(connector)).as(connector).isEqualTo("RUNNING");
            assertThat(cluster.partitionFailedGauge(connector, topic, 0)).as(connector + " never failed the partition").isZero();
        }
        cluster.delete(name + "-standby");
        cluster.delete(name + "-backup");

        JsonNode last = prune(config, "--keep", "PT1H"); // nothing is that old now: the chain as the earlier runs left it
        long start = last.get("partitions").get(0).path("new_start").asLong(-1);
        assertThat(start).as("nothing more removed, nothing recorded anew").isEqualTo(-1);
        CliRun verify = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--progress", "none");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        createTopic(topic + "-restored");
        CliRun restore = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber",
                "--bootstrap-servers", cluster.bootstrapServers(), "--topic", topic + "-restored", "--progress", "none");
        assertThat(restore.exitCode()).as(restore.toString()).isZero();
        List<ConsumerRecord<byte[], byte[]>> restored = TestRecords.readToEnd(cluster.bootstrapServers(),
                new TopicPartition(topic + "-restored", 0), WAIT).records();
        long newStart = source.size() - restored.size();
        assertThat(newStart).as("restore starts after the pruned head").isPositive();
        assertSame(source.subList((int) newStart, source.size()), restored, newStart);
    }

    /**
     * A standby paused at offset 300 while prune removes the objects up to about offset 700: resumed, it cannot go on (the
     * records after its position are gone), and fails its partition saying where it is, where the chain starts and what
     * to do; the sink goes on.
     */
    @Test
    void aStandbyBehindTheNewStartFailsItsPartitionNamingItsPositionAndTheStart() throws Exception {
        Path config = backupAndStandby("late", 300, "preserve");
        cluster.connect().pauseConnector("late-standby");
        Awaitility.await("the standby paused").atMost(WAIT)
                .until(() -> "PAUSED".equals(cluster.taskState("late-standby")));
        produce("late", 300, 900, 1_000_000);
        awaitBackedUp(config, 900);
        JsonNode report = prune(config, "--before", Instant.ofEpochMilli(1_000_000 + 700).toString());
        long start = report.get("partitions").get(0).get("new_start").asLong();
        assertThat(start).as("the premise: prune removed the objects the standby needs next; " + report).isGreaterThan(300);

        cluster.connect().resumeConnector("late-standby");
        String note = awaitStandbyFailed("late-standby", "late", "late-standby");
        assertThat(note).contains("backup partition 0", "now starts at offset " + start, "mirror-v3 prune removed the objects",
                "next record is the backup's offset 300 (target offset 300)", "offsets " + 300 + "-" + (start - 1),
                "into a new, empty topic with offsets=renumber");
        assertThat(highWatermark("late-standby")).as("nothing after the gap was sent").isEqualTo(300);
        assertThat(cluster.taskState("late-backup")).isEqualTo("RUNNING");
        cluster.delete("late-standby");
        cluster.delete("late-backup");
    }

    /**
     * A standby with offsets=renumber stopped ahead of the new start, then started again after a prune: it finds its place
     * by counting the records from the chain's start, which prune moved, so it must not continue from a wrong place: its
     * partition fails and nothing more is written.
     */
    @Test
    void aRenumberStandbyPositionedAgainAfterAPruneIsRefusedNotMisplaced() throws Exception {
        Path config = backupAndStandby("count", 600, "renumber");
        cluster.stop("count-standby", WAIT);
        produce("count", 600, 900, 1_000);
        awaitBackedUp(config, 900);
        JsonNode report = prune(config, "--before", Instant.ofEpochMilli(1_000 + 300).toString());
        long start = report.get("partitions").get(0).get("new_start").asLong();
        assertThat(start).as("the premise: prune removed records the standby counted; " + report).isBetween(1L, 599L);

        cluster.connect().resumeConnector("count-standby");
        String note = awaitStandbyFailed("count-standby", "count", "count-standby");
        assertThat(note).contains("count-standby-0 offset 599 (its last record) is not the backup's record for that position",
                "offsets=renumber places a standby by counting its records from where the chain starts",
                "now starts at offset " + start + " (mirror-v3 prune removed the objects before it)",
                "follow the backup into a new, empty topic (it begins at offset " + start + ")");
        assertThat(highWatermark("count-standby")).as("nothing written from a wrong place").isEqualTo(600);
        cluster.delete("count-standby");
        cluster.delete("count-backup");
    }

    /**
     * A real blob sink backing up {@code topic} (a filesystem, records stamped 1000 + offset) and a standby of it
     * ({@code <topic>-standby}, with {@code offsets}), both holding {@code records} records; the sink's connector JSON.
     */
    private static Path backupAndStandby(String topic, int records, String offsets) throws Exception {
        Map<String, String> store = Map.of("filesystem.root", dir.resolve("backups").toString());
        createTopic(topic);
        createTopic(topic + "-standby");
        Map<String, String> sink = sinkConfig(topic + "-backup", topic, store);
        cluster.deploy(topic + "-backup", sink);
        Path config = connectorJson(topic + "-backup", sink);
        produce(topic, 0, records, 1_000);
        awaitBackedUp(config, records);
        Map<String, String> standby = sourceConfig(topic + "-backup", topic, topic + "-standby", store);
        standby.put("offsets", offsets);
        cluster.deploy(topic + "-standby", standby);
        Awaitility.await("the standby holds " + records + " records").atMost(WAIT)
                .until(() -> highWatermark(topic + "-standby") == records);
        return config;
    }

    /** Records {@code from} to {@code to} - 1 of partition 0, record i stamped {@code base} + i. */
    private static void produce(String topic, int from, int to, long base) {
        Random random = new Random(from);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = from; i < to; i++) {
            records.add(TestRecords.varied(topic, 0, i, random, base + i));
        }
        try (KafkaProducer<byte[], byte[]> producer = TestRecords.producer(cluster.bootstrapServers(), 120_000, 60_000)) {
            TestRecords.sendAll(producer, records, Duration.ofSeconds(60));
        }
    }

    private static JsonNode prune(Path config, String... cut) throws Exception {
        Path report = Files.createTempFile(dir, "prune", ".json");
        List<String> args = new ArrayList<>(List.of("prune", "--connector-config", config.toString(), "--report", report.toString()));
        args.addAll(List.of(cut));
        CliRun run = CliRun.run(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return JSON.readTree(report.toFile());
    }

    private static long removed(JsonNode report) {
        long n = 0;
        for (JsonNode p : report.get("partitions")) {
            n += p.get("removed").size();
        }
        return n;
    }

    /** The records in order, each with the same key, value, timestamp and headers; {@code offsetShift}: source minus target. */
    private static void assertSame(List<ConsumerRecord<byte[], byte[]>> expected, List<ConsumerRecord<byte[], byte[]>> actual,
            long offsetShift) {
        assertThat(actual).as("records").hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            ConsumerRecord<byte[], byte[]> e = expected.get(i);
            ConsumerRecord<byte[], byte[]> a = actual.get(i);
            assertThat(a.offset()).as("offset of source record %d", e.offset()).isEqualTo(e.offset() - offsetShift);
            assertThat(a.key()).as("key at %d", e.offset()).isEqualTo(e.key());
            assertThat(a.value()).as("value at %d", e.offset()).isEqualTo(e.value());
            assertThat(a.timestamp()).as("timestamp at %d", e.offset()).isEqualTo(e.timestamp());
            assertThat(a.headers().toArray()).as("headers at %d", e.offset()).isEqualTo(e.headers().toArray());
        }
    }

    /** Produces bursts of 100 records stamped now, a pause between bursts; {@link #between} an instant in a pause. */
    static final class Writer implements Runnable {
        final AtomicBoolean stop = new AtomicBoolean();
        private final String topic;
        private volatile Instant lastPause = Instant.EPOCH;

        Writer(String topic) {
            this.topic = topic;
        }

        @Override
        public void run() {
            Random random = new Random(47);
            try (KafkaProducer<byte[], byte[]> producer = TestRecords.producer(cluster.bootstrapServers(), 120_000, 60_000)) {
                for (int i = 0; !stop.get(); i += 100) {
                    List<ProducerRecord<byte[], byte[]>> burst = new ArrayList<>();
                    for (int j = i; j < i + 100; j++) {
                        burst.add(TestRecords.varied(topic, 0, j, random, System.currentTimeMillis()));
                    }
                    TestRecords.sendAll(producer, burst, Duration.ofSeconds(60));
                    Thread.sleep(150);
                    lastPause = Instant.now();
                    Thread.sleep(150);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** An instant inside the last pause between bursts: every record is either before or after it. */
        Instant between() {
            return lastPause;
        }
    }

    private static void awaitBackedUp(Path config, long records) {
        Awaitility.await("the backup reaches offset " + records).atMost(WAIT).pollInterval(Duration.ofMillis(250)).until(() -> {
            CliRun status = CliRun.run("status", "--connector-config", config.toString(), "--bootstrap-servers",
                    cluster.bootstrapServers(), "--format", "json");
            JsonNode rows = JSON.readTree(status.out());
            return rows.size() > 0 && rows.get(0).path("backup_next_offset").asLong() >= records;
        });
    }

    private static Map<String, String> s3Store() {
        Map<String, String> c = new HashMap<>();
        c.put("destination.type", "s3");
        c.put("s3.endpoint", s3.endpoint().toString());
        c.put("s3.region", "us-east-1");
        c.put("s3.bucket", "backups");
        c.put("s3.prefix", "prod");
        c.put("s3.path.style.access", "true");
        for (String identity : List.of("write", "read", "prune")) {
            c.put("s3." + identity + ".access.key.id", "it-id");
            c.put("s3." + identity + ".secret.access.key", "it-secret");
        }
        return c;
    }

    static Map<String, String> sinkConfig(String name, String topic, Map<String, String> store) {
        Map<String, String> c = ConnectorConfigs.sink("dev.mirrorv3.connect.blob.BlobSinkConnector", topic, cluster.bootstrapServers());
        c.putAll(store);
        c.put("destination.name", name);
        c.put("flush.max.records", "200");
        c.put("flush.max.time.ms", "300");
        c.put("chain.check.interval.ms", "300"); // the periodic check lists the chain often while prune removes its head
        c.put("retry.backoff.initial.ms", "100");
        c.put("retry.backoff.max.ms", "1000");
        if (c.containsKey("encryption")) {
            c.put("encryption.key.id", "k1");
        }
        return c;
    }

    static Map<String, String> sourceConfig(String name, String topic, String target, Map<String, String> store) {
        Map<String, String> c = ConnectorConfigs.chainSource(topic, target, "preserve", cluster.bootstrapServers());
        c.putAll(store);
        c.put("destination.name", name);
        c.put("poll.interval.ms", "300");
        c.put("retry.backoff.initial.ms", "200");
        c.put("retry.backoff.max.ms", "2000");
        return c;
    }

    static Path connectorJson(String name, Map<String, String> config) throws Exception {
        Path file = dir.resolve(name + ".json");
        Files.writeString(file, JSON.writeValueAsString(Map.of("name", name, "config", config)));
        return file;
    }

    static void createTopic(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("retention.ms", "-1")))).all().get();
        }
    }

    static long highWatermark(String topic) {
        return TestRecords.readToEnd(cluster.bootstrapServers(), new TopicPartition(topic, 0), WAIT).highWatermark();
    }

    /** The failure note the chain source left on the target cluster for {@code target}-0, once it isolated the partition. */
    static String awaitStandbyFailed(String connector, String topic, String target) {
        String[] note = new String[1];
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            FailureNotes notes = new FailureNotes(admin, FailureNotes.groupId(connector), Duration.ofSeconds(10));
            Awaitility.await(connector + " isolates " + topic + "-0").atMost(WAIT).pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        assertThat(cluster.failureTrace(connector)).as("the task of " + connector + " failed").isNull();
                        note[0] = notes.read().get(new TopicPartition(target, 0));
                        return cluster.partitionFailedGauge(connector, topic, 0) == 1 && note[0] != null;
                    });
        }
        return note[0];
    }
}
