package dev.mirrorv3.connect.source;

import static dev.mirrorv3.connect.source.ChainSourceTestSupport.PARQUET;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.assertStandbyMirrors;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.awaitPartitionFailed;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.createTopic;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.errors;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.highWatermark;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.produce;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.records;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.sinkConfig;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.sourceConfig;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.writeObject;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.restore.BackupVerifier;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.restore.Progress;
import dev.mirrorv3.chain.restore.VerifiedPartition;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.s3.S3Identity;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.restore.RecordSizes;
import dev.mirrorv3.kafka.restore.RestoreOptions;
import dev.mirrorv3.kafka.restore.Restorer;
import dev.mirrorv3.kafka.restore.TargetTopic;
import dev.mirrorv3.testsupport.Closeables;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chain source on one worker: following a backup the real blob sink writes at the same time (also one destination
 * of a blob sink writing two), handing over from a
 * one-shot restore, every refusal (each one isolates its backup partition, named by its gauge and its failure note on
 * the target; ChainSourceIsolationIT: the other partitions go on), a store outage, an empty backup waited for and a
 * missing one refused.
 */
class ChainSourceFollowIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String BUCKET = "backups";
    private static final String S3_ID = "it-id";
    private static final String S3_SECRET = "it-secret";
    private static final StringWriter logs = new StringWriter();

    private static ConnectTestCluster cluster;
    private static S3TestServer s3;

    @TempDir
    static Path root;

    @BeforeAll
    static void start() {
        LogCapture.appendTo(logs, "chain-source-it", "%p %c{1} %m%n");
        s3 = S3TestServer.start(S3_ID, S3_SECRET);
        s3.createBucket(BUCKET);
        cluster = ConnectTestCluster.start(1);
    }

    @AfterAll
    static void stop() {
        Closeables.closeAll("the follow test's worker and S3 server", cluster, s3);
    }

    private static String bootstrap() {
        return cluster.bootstrapServers();
    }

    /** Waits until connector {@code name} isolated backup partition t-0 (target {@code <name>-target}); its failure note. */
    private static String failedPartition(String name) {
        return awaitPartitionFailed(cluster, name, "t", 0, new TopicPartition(name + "-target", 0), WAIT);
    }

    /** Backup {@code name} of topic t holding offsets 0-9 in one object, and its target {@code <name>-target}, empty. */
    private static Store tenRecordsAndAnEmptyTarget(String name) {
        Store store = new FilesystemStore(root, name);
        writeObject(store, 0, 0, 9, records("t", 0, 0, 9, o -> true));
        createTopic(bootstrap(), name + "-target", 1);
        return store;
    }

    /** The follower of backup {@code name} of topic t onto {@code <name>-target}, the offsets preserved. */
    private static Map<String, String> preservingFollower(String name) {
        return sourceConfig("t", root, name, name + "-target", "preserve", bootstrap());
    }

    /** {@code count} records of another writer on partition 0 of {@code topic}. */
    private static void produceForeign(String topic, int count) {
        try (KafkaProducer<byte[], byte[]> p = ChainSourceTestSupport.producer(bootstrap())) {
            for (int i = 0; i < count; i++) {
                p.send(new ProducerRecord<>(topic, 0, null, "other".getBytes()));
            }
        }
    }

    @Test
    void followsAGrowingBackupWhileTheSinkWritesIt() throws Exception {
        createTopic(bootstrap(), "orders", 2);
        createTopic(bootstrap(), "orders-standby", 2);
        cluster.deploy("orders-backup", sinkConfig("orders", root, "orders-backup", bootstrap()));
        produce(bootstrap(), "orders", 2, 1000, 1);
        awaitBackup("orders-backup", 2, 1000);
        Map<String, String> source = sourceConfig("orders", root, "orders-backup", "orders-standby", "preserve", bootstrap());
        cluster.deploy("orders-follow", source);
        for (int burst = 2; burst <= 4; burst++) {
            produce(bootstrap(), "orders", 2, 1000, burst);
            Thread.sleep(700);
        }
        awaitBackup("orders-backup", 2, 4000);
        long backedUp = System.nanoTime();
        Duration bound = Duration.ofMillis(3 * 500 + 5000);
        Awaitility.await("the standby holds every backed-up record").atMost(bound).pollInterval(Duration.ofMillis(50))
                .until(() -> highWatermark(bootstrap(), "orders-standby", 0) == 4000
                        && highWatermark(bootstrap(), "orders-standby", 1) == 4000);
        assertThat(Duration.ofNanos(System.nanoTime() - backedUp)).isLessThanOrEqualTo(bound);
        assertStandbyMirrors(bootstrap(), "orders", "orders-standby", 2);
        assertThat(cluster.taskState("orders-follow")).isEqualTo("RUNNING");
        cluster.delete("orders-follow");
        cluster.delete("orders-backup");
    }

    /** The blob sink writing {@code topic} to a filesystem (local) and to S3Proxy (offsite), each under its own name. */
    private static Map<String, String> teeSinkConfig(String topic) {
        Map<String, String> c = sinkConfig(topic, root, "unused", cluster.bootstrapServers());
        c.remove("filesystem.root");
        c.remove("destination.name");
        c.put("destinations", "local,offsite");
        c.put("destinations.local.filesystem.root", root.resolve("local").toString());
        c.put("destinations.local.destination.name", topic + "-local");
        c.put("destinations.offsite.destination.type", "s3");
        c.put("destinations.offsite.destination.name", topic + "-offsite");
        c.put("destinations.offsite.s3.endpoint", s3.endpoint().toString());
        c.put("destinations.offsite.s3.region", "us-east-1");
        c.put("destinations.offsite.s3.bucket", BUCKET);
        c.put("destinations.offsite.s3.prefix", "dr");
        c.put("destinations.offsite.s3.path.style.access", "true");
        for (String role : List.of("write", "read")) {
            c.put("destinations.offsite.s3." + role + ".access.key.id", S3_ID);
            c.put("destinations.offsite.s3." + role + ".secret.access.key", S3_SECRET);
        }
        c.put("destinations.offsite.encryption", "none");
        c.put("destinations.offsite.flush.max.time.ms", "700");
        return c;
    }

    @Test
    /**
     * Deployed once the offsite chain holds the topic: S3Proxy's filesystem backend lists an upload in progress as
     * {@code <key>-<uuid>} (docs/decisions.md, "Listings taken while an object is being written"), which a reader of the
     * chain takes for a foreign object; real S3 never lists one.
     */
    void followsTheOffsiteDestinationOfATee() throws Exception {
        String topic = "tee";
        createTopic(cluster.bootstrapServers(), topic, 2);
        createTopic(cluster.bootstrapServers(), "tee-standby", 2);
        Map<String, String> sink = teeSinkConfig(topic);
        cluster.deploy("tee-backup", sink);
        produce(cluster.bootstrapServers(), topic, 2, 2000, 1);
        try (S3Store offsite = new S3Store(S3Settings.of(Optional.of(s3.endpoint()), "us-east-1", BUCKET, "dr", true,
                new S3Identity("read", S3_ID, S3_SECRET), new S3Identity("read", S3_ID, S3_SECRET)), topic + "-offsite")) {
            awaitChainNext(new ChainReader(offsite, PARQUET, KeyRing.empty()), 2, 2000);
        }

        Map<String, String> source = sourceConfig(topic, root, "unused", "tee-standby", "preserve", cluster.bootstrapServers());
        source.remove("filesystem.root");
        source.remove("destination.name");
        sink.forEach((k, v) -> {
            if (k.startsWith("destinations")) {
                source.put(k, v);
            }
        });
        assertThat(errors(cluster.validate(ChainSourceConnector.class.getName(), source)).get("destination"))
                .as("Connect's validate: a tee without destination").singleElement().asString()
                .contains("several destinations [local, offsite]");

        source.put("destination", "offsite");
        int mark = logs.getBuffer().length();
        cluster.deploy("tee-follow", source);
        Awaitility.await("the standby holds every record of the topic").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> highWatermark(cluster.bootstrapServers(), "tee-standby", 0) == 2000
                        && highWatermark(cluster.bootstrapServers(), "tee-standby", 1) == 2000);
        assertThat(Files.isDirectory(root.resolve("local").resolve("tee-local").resolve("0"))).as("the sink writes both").isTrue();
        List<String> followed = logs.getBuffer().substring(mark).lines().filter(l -> l.contains(" ChainSource")).toList();
        assertThat(followed).as("the chain source reads the offsite destination's chains, never the local one's")
                .anyMatch(l -> l.contains("following backup s3://" + BUCKET + "/dr/tee-offsite/0"))
                .anyMatch(l -> l.contains("following backup s3://" + BUCKET + "/dr/tee-offsite/1"))
                .noneMatch(l -> l.contains("tee-local"));
        assertStandbyMirrors(cluster.bootstrapServers(), topic, "tee-standby", 2);
        assertThat(cluster.taskState("tee-follow")).isEqualTo("RUNNING");
        cluster.delete("tee-follow");
        cluster.delete("tee-backup");
    }

    @Test
    void followsABackupTheSinkEncryptsWithTheSameKeysDir() throws Exception {
        Path keysDir = Files.createDirectories(root.resolve("keys"));
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Files.writeString(keysDir.resolve("k1"), Base64.getEncoder().encodeToString(key) + "\n");
        createTopic(bootstrap(), "cards", 1);
        createTopic(bootstrap(), "cards-standby", 1);
        Map<String, String> sink = sinkConfig("cards", root, "cards-backup", bootstrap());
        sink.put("encryption", "parquet");
        sink.put("encryption.keys.dir", keysDir.toString());
        sink.put("encryption.key.id", "k1");
        cluster.deploy("cards-backup", sink);
        produce(bootstrap(), "cards", 1, 600, 21);
        KeyRing keys = KeyRing.load(keysDir);
        awaitBackup("cards-backup", keys, 1, 600);

        Map<String, String> source = sourceConfig("cards", root, "cards-backup", "cards-standby", "preserve", bootstrap());
        source.put("encryption", "parquet");
        Path badKeys = Files.createDirectories(root.resolve("bad-keys"));
        Files.writeString(badKeys.resolve("k1"), "c2hvcnQ=");
        source.put("encryption.keys.dir", badKeys.toString());
        assertThat(errors(cluster.validate(ChainSourceConnector.class.getName(), source)).get("encryption.keys.dir")).singleElement()
                .asString().contains(badKeys.resolve("k1") + " holds 5 bytes").doesNotContain("c2hvcnQ");
        source.remove("encryption.keys.dir");
        assertThat(errors(cluster.validate(ChainSourceConnector.class.getName(), source)).get("encryption.keys.dir")).singleElement()
                .asString().contains("required with encryption=parquet");
        source.put("encryption.keys.dir", keysDir.toString());
        assertThat(errors(cluster.validate(ChainSourceConnector.class.getName(), source))).doesNotContainKey("encryption.keys.dir");

        cluster.deploy("cards-follow", source);
        produce(bootstrap(), "cards", 1, 600, 22);
        awaitBackup("cards-backup", keys, 1, 1200);
        Awaitility.await("the standby holds every record of the encrypted backup").atMost(WAIT)
                .until(() -> highWatermark(bootstrap(), "cards-standby", 0) == 1200);
        try (Store store = new FilesystemStore(root, "cards-backup")) {
            assertThat(new ChainReader(store, PARQUET, keys).listChain(0, OptionalLong.empty()).objects())
                    .as("every object encrypted with k1").isNotEmpty().allMatch(o -> "k1".equals(o.keyId()));
        }
        assertStandbyMirrors(bootstrap(), "cards", "cards-standby", 1);
        assertThat(cluster.taskState("cards-follow")).isEqualTo("RUNNING");
        cluster.delete("cards-follow");
        cluster.delete("cards-backup");
    }

    @Test
    void followsAPartitionTheSourceTopicGainsWhileFollowing() throws Exception {
        createTopic(bootstrap(), "events", 1);
        createTopic(bootstrap(), "events-standby", 2);
        Map<String, String> sink = sinkConfig("events", root, "events-backup", bootstrap());
        sink.put("partitions.watch.interval.ms", "1000");
        cluster.deploy("events-backup", sink);
        produce(bootstrap(), "events", 1, 300, 31);
        awaitBackup("events-backup", 1, 300);
        cluster.deploy("events-follow", sourceConfig("events", root, "events-backup", "events-standby", "preserve", bootstrap()));
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "events-standby", 0) == 300);

        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap()))) {
            admin.createPartitions(Map.of("events", NewPartitions.increaseTo(2))).all().get();
        }
        // the sink restarts its task by itself, whose start() gives the new partition a committed offset
        produce(bootstrap(), "events", 2, 300, 32);
        awaitBackup("events-backup", 2, 300);
        Awaitility.await("the new partition followed without a restart").atMost(WAIT)
                .until(() -> highWatermark(bootstrap(), "events-standby", 0) == 600
                        && highWatermark(bootstrap(), "events-standby", 1) == 300);
        assertThat(logs.toString()).contains("now has partitions [0, 1] (following [0]): asking Connect to reconfigure the tasks");
        assertStandbyMirrors(bootstrap(), "events", "events-standby", 2);
        assertThat(cluster.taskState("events-follow")).isEqualTo("RUNNING");
        cluster.delete("events-follow");
        cluster.delete("events-backup");
    }

    @Test
    void handsOverFromAOneShotRestore() throws Exception {
        createTopic(bootstrap(), "payments", 1);
        createTopic(bootstrap(), "payments-restored", 1);
        cluster.deploy("payments-backup", sinkConfig("payments", root, "payments-backup", bootstrap()));
        produce(bootstrap(), "payments", 1, 1500, 11);
        awaitBackup("payments-backup", 1, 1500);
        try (Store store = new FilesystemStore(root, "payments-backup");
                LogOffsets target = new LogOffsets(Map.of("bootstrap.servers", bootstrap()), Duration.ofSeconds(30))) {
            BackupVerifier verifier = new BackupVerifier(store, PARQUET, "payments");
            VerifiedPartition vp = verifier.verify(0, 0, RecordSizes::batchOfOne, n -> { });
            TargetTopic topic = TargetTopic.inspect(target.admin(), "payments-restored", Duration.ofSeconds(30));
            new Restorer(verifier, target, topic, Map.of("bootstrap.servers", bootstrap()), RestoreOptions.of(OffsetMode.PRESERVE))
                    .restore(List.of(vp), new Progress("restore", Map.of(0, vp.records())));
        }
        assertThat(highWatermark(bootstrap(), "payments-restored", 0)).isEqualTo(1500);
        produce(bootstrap(), "payments", 1, 1500, 12);
        cluster.deploy("payments-follow", sourceConfig("payments", root, "payments-backup", "payments-restored", "preserve", bootstrap()));
        awaitBackup("payments-backup", 1, 3000);
        Awaitility.await("the follower continues where the one-shot restore ended").atMost(WAIT)
                .until(() -> highWatermark(bootstrap(), "payments-restored", 0) == 3000);
        assertStandbyMirrors(bootstrap(), "payments", "payments-restored", 1);
        assertThat(cluster.taskState("payments-follow")).isEqualTo("RUNNING");
        cluster.delete("payments-follow");
        cluster.delete("payments-backup");
    }

    @Test
    void refusesATargetWithForeignRecords() {
        tenRecordsAndAnEmptyTarget("foreign");
        produceForeign("foreign-target", 3);
        cluster.deploy("foreign", preservingFollower("foreign"));
        assertThat(failedPartition("foreign")).contains("the target holds records that are not this backup's")
                .contains("foreign-target-0 offset 2").contains("the key differs");
        cluster.delete("foreign");
    }

    @Test
    void refusesATargetPastTheBackup() {
        tenRecordsAndAnEmptyTarget("past");
        produceForeign("past-target", 12);
        cluster.deploy("past", preservingFollower("past"));
        assertThat(failedPartition("past")).contains("the target is past the backup").contains("holds 12 records")
                .contains("the backup ends at offset 9");
        cluster.delete("past");
    }

    @Test
    void refusesATargetWhoseLastRecordRetentionRemoved() throws Exception {
        tenRecordsAndAnEmptyTarget("retention");
        Map<String, String> c = preservingFollower("retention");
        cluster.deploy("retention", c);
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "retention-target", 0) == 10);
        cluster.delete("retention");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap()))) {
            admin.deleteRecords(Map.of(new TopicPartition("retention-target", 0), RecordsToDelete.beforeOffset(10))).all().get();
        }
        cluster.deploy("retention", c);
        assertThat(failedPartition("retention")).contains("retention-target-0 offset 9) is no longer in the topic")
                .contains("retention or compaction removed it");
        cluster.delete("retention");
    }

    @Test
    void stopsAtUntilTimestampWithTheTaskRunningAndSaysSo() throws Exception {
        Store store = tenRecordsAndAnEmptyTarget("frozen"); // stamped BASE_TS + offset
        Map<String, String> config = preservingFollower("frozen");
        config.put("until.timestamp", java.time.Instant.ofEpochMilli(ChainSourceTestSupport.BASE_TS + 14).toString());
        int logMark = logs.getBuffer().length();
        cluster.deploy("frozen", config);
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "frozen-target", 0) == 10);
        writeObject(store, 0, 10, 19, records("t", 0, 10, 19, o -> true));
        writeObject(store, 0, 20, 29, records("t", 0, 20, 29, o -> true));
        javax.management.ObjectName mbean = new javax.management.ObjectName(
                "kafka.connect:type=plugins,connector=frozen,task=0,mirror=frozen,topic=t,partition=0");
        Awaitility.await("the cut reached, its metric and log line").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .failFast("connector failed", () -> cluster.failureTrace("frozen") != null)
                .until(() -> Long.valueOf(1).equals(java.lang.management.ManagementFactory.getPlatformMBeanServer()
                        .getAttribute(mbean, "follow-cut-reached")) && logsSince(logMark).contains("reached the cut"));
        assertThat(logsSince(logMark)).contains("frozen-target-0 reached the cut (until timestamp", "up to backup offset 14",
                "the first record after it is at offset 15", "the task stays RUNNING");
        assertThat(highWatermark(bootstrap(), "frozen-target", 0)).as("records after the cut are never sent").isEqualTo(15);
        assertThat(cluster.taskState("frozen")).isEqualTo("RUNNING");
        cluster.delete("frozen");
    }

    /**
     * A cut set on a standby that has already followed past it (the documented use: freeze a standby before a bad deploy,
     * set too late) is not reported as reached: the partition fails, naming the first record after the cut that the
     * target holds, and says what to do.
     */
    @Test
    void aCutTheStandbyIsAlreadyPastFailsThePartition() {
        Store store = tenRecordsAndAnEmptyTarget("late-cut"); // stamped BASE_TS + offset
        writeObject(store, 0, 10, 19, records("t", 0, 10, 19, o -> true));
        Map<String, String> config = preservingFollower("late-cut");
        cluster.deploy("late-cut", config);
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "late-cut-target", 0) == 20);
        cluster.delete("late-cut");

        config.put("until.timestamp", java.time.Instant.ofEpochMilli(ChainSourceTestSupport.BASE_TS + 14).toString());
        cluster.deploy("late-cut", config);
        assertThat(failedPartition("late-cut"))
                .contains("the target holds records after the cut (offset 15 stamped "
                        + java.time.Instant.ofEpochMilli(ChainSourceTestSupport.BASE_TS + 15) + ")")
                .contains("into a new topic", "delete and re-create the target topic");
        assertThat(highWatermark(bootstrap(), "late-cut-target", 0)).isEqualTo(20);
        cluster.delete("late-cut");
    }

    /**
     * The cut is checked on every record the target holds, not only on the object holding its last record: a record
     * stamped after the cut in an earlier object (offset 5 of 0-9, while 10-19 are all before the cut) fails (isolates)
     * the partition as well, on a CreateTime target (its own timestamps) and on a LogAppendTime one (the backup's
     * records before it).
     */
    @Test
    void aTimestampCutIsCheckedOnEveryRecordTheTargetHoldsNotOnlyItsLastObject() throws Exception {
        for (String type : List.of("CreateTime", "LogAppendTime")) {
            String name = "early-late-" + type.toLowerCase(java.util.Locale.ROOT);
            String target = name + "-target";
            Store store = new FilesystemStore(root, name);
            writeObject(store, 0, 0, 9, records("t", 0, 0, 9, o -> true).stream()
                    .map(r -> r.offset() == 5 ? new dev.mirrorv3.chain.envelope.BackupRecord(r.topic(), r.partition(), 5,
                            ChainSourceTestSupport.BASE_TS + 100, r.timestampType(), r.key(), r.value(), r.headers()) : r).toList());
            writeObject(store, 0, 10, 19, records("t", 0, 10, 19, o -> true)); // stamped BASE_TS + offset: all before the cut
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap()))) {
                admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(target, 1, (short) 1)
                        .configs(Map.of("retention.ms", "-1", "message.timestamp.type", type)))).all().get();
            }
            Map<String, String> config = sourceConfig("t", root, name, target, "preserve", bootstrap());
            cluster.deploy(name, config);
            Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), target, 0) == 20);
            cluster.delete(name);

            config.put("until.timestamp", java.time.Instant.ofEpochMilli(ChainSourceTestSupport.BASE_TS + 50).toString());
            cluster.deploy(name, config);
            assertThat(failedPartition(name)).as(type)
                    .contains("the target holds records after the cut (offset 5 stamped "
                            + java.time.Instant.ofEpochMilli(ChainSourceTestSupport.BASE_TS + 100) + ")")
                    .contains("into a new topic", "delete and re-create the target topic");
            assertThat(highWatermark(bootstrap(), target, 0)).isEqualTo(20);
            cluster.delete(name);
        }
    }

    @Test
    void refusesAGapInNewObjects() {
        Store store = tenRecordsAndAnEmptyTarget("gap");
        cluster.deploy("gap", sourceConfig("t", root, "gap", "gap-target", "renumber", bootstrap()));
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "gap-target", 0) == 10);
        writeObject(store, 0, 20, 29, records("t", 0, 20, 29, o -> true));
        assertThat(failedPartition("gap")).contains("gap in the chain").contains("offsets 10-19 are in no object");
        assertThat(highWatermark(bootstrap(), "gap-target", 0)).isEqualTo(10);
        cluster.delete("gap");
    }

    @Test
    void preserveFailsAtAHoleAfterTheRecordsBeforeIt() {
        Store store = new FilesystemStore(root, "hole");
        writeObject(store, 0, 0, 9, records("t", 0, 0, 9, o -> o != 5));
        createTopic(bootstrap(), "hole-target", 1);
        cluster.deploy("hole", preservingFollower("hole"));
        assertThat(failedPartition("hole")).contains("hole at offset 5").contains("offsets=renumber");
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "hole-target", 0) == 5);
        cluster.delete("hole");
    }

    @Test
    void detectsASecondWriterOnTheTarget() {
        Store store = tenRecordsAndAnEmptyTarget("second");
        cluster.deploy("second", preservingFollower("second"));
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "second-target", 0) == 10);
        try (KafkaProducer<byte[], byte[]> p = ChainSourceTestSupport.producer(bootstrap())) {
            p.send(new ProducerRecord<>("second-target", 0, null, "intruder".getBytes()));
        }
        writeObject(store, 0, 10, 19, records("t", 0, 10, 19, o -> true));
        assertThat(failedPartition("second")).contains("produced for offset 10, and the broker stored it at offset 11")
                .contains("another writer on the partition").contains("exactly.once.source.support");
        cluster.delete("second");
    }

    @Test
    void recoversFromAStoreOutageByItself() throws Exception {
        S3Identity id = new S3Identity("read", S3_ID, S3_SECRET);
        S3Settings settings = S3Settings.of(Optional.of(s3.endpoint()), "us-east-1", BUCKET, "dr", true, id, id)
                .withCallTimeout(Duration.ofSeconds(10));
        createTopic(bootstrap(), "outage-target", 1);
        try (S3Store store = new S3Store(settings, "outage")) {
            writeObject(store, 0, 0, 99, records("t", 0, 0, 99, o -> true));
            int logMark = logs.getBuffer().length();
            cluster.deploy("outage", s3SourceConfig("outage", "outage-target"));
            Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "outage-target", 0) == 100);
            long down = System.nanoTime();
            s3.stop();
            Thread.sleep(20_000);
            s3.restart();
            writeObject(store, 0, 100, 199, records("t", 0, 100, 199, o -> true));
            Duration bound = Duration.ofSeconds(20 + 2 * 2);
            Awaitility.await("restored after the outage").atMost(bound.minus(Duration.ofNanos(System.nanoTime() - down)))
                    .pollInterval(Duration.ofMillis(100)).until(() -> highWatermark(bootstrap(), "outage-target", 0) == 200);
            String caused = logsSince(logMark);
            assertThat(caused).as("this test's connector logged its own transient failure")
                    .containsPattern("outage: \\S+ into outage-target-0: transient failure");
            assertThat(caused).as("retries keep the position, reading nothing from the store while it is down")
                    .contains("outage-target-0 resumes at target offset 100 (the target's high watermark; its last record is the"
                            + " backup's offset 99), where it stopped");
            javax.management.ObjectName task = new javax.management.ObjectName(
                    "kafka.connect:type=plugins,connector=outage,task=0,mirror=outage");
            assertThat((Long) java.lang.management.ManagementFactory.getPlatformMBeanServer().getAttribute(task, "mirror-restarts-total"))
                    .as("each retry counts in the task's restarts (mirror_v3_mirror_restarts_total)").isPositive();
            assertThat(cluster.taskState("outage")).isEqualTo("RUNNING");
        }
        cluster.delete("outage");
    }

    @Test
    void waitsForAnEmptyS3PrefixThenStartsItsTasks() throws Exception {
        createTopic(bootstrap(), "prefix-target", 1);
        Map<String, String> c = s3SourceConfig("later", "prefix-target");
        int logMark = logs.getBuffer().length();
        cluster.deploy("prefix", c);
        Awaitility.await("log lines while the prefix is empty").atMost(WAIT)
                .until(() -> logsSince(logMark).split("dr/later is empty \\(no partition directories\\) for", -1).length > 2);
        S3Identity id = new S3Identity("read", S3_ID, S3_SECRET);
        S3Settings settings = S3Settings.of(Optional.of(s3.endpoint()), "us-east-1", BUCKET, "dr", true, id, id)
                .withCallTimeout(Duration.ofSeconds(10));
        try (S3Store store = new S3Store(settings, "later")) {
            writeObject(store, 0, 0, 9, records("t", 0, 0, 9, o -> true));
        }
        Awaitility.await("tasks started once the prefix holds a partition").atMost(WAIT)
                .until(() -> highWatermark(bootstrap(), "prefix-target", 0) == 10);
        cluster.delete("prefix");
    }

    /** What was logged since {@code mark} (a length of the log buffer): what this test caused, not an earlier test. */
    private static String logsSince(int mark) {
        synchronized (logs.getBuffer()) {
            return logs.getBuffer().substring(mark);
        }
    }

    private static Map<String, String> s3SourceConfig(String name, String target) {
        Map<String, String> c = sourceConfig("t", root, name, target, "preserve", bootstrap());
        c.remove("filesystem.root");
        c.put("destination.type", "s3");
        c.put("s3.endpoint", s3.endpoint().toString());
        c.put("s3.region", "us-east-1");
        c.put("s3.bucket", BUCKET);
        c.put("s3.prefix", "dr");
        c.put("s3.path.style.access", "true");
        c.put("s3.read.access.key.id", S3_ID);
        c.put("s3.read.secret.access.key", S3_SECRET);
        return c;
    }

    @Test
    void waitsForAnEmptyBackupAndRefusesAMissingDirectory() throws Exception {
        Files.createDirectories(root.resolve("empty").resolve("0"));
        createTopic(bootstrap(), "empty-target", 1);
        Map<String, String> c = preservingFollower("empty");
        int logMark = logs.getBuffer().length();
        cluster.deploy("empty", c);
        String emptyLine = root.resolve("empty").resolve("0") + " is empty (no objects) for";
        Awaitility.await("log lines while the backup is empty").atMost(WAIT)
                .until(() -> logsSince(logMark).split(java.util.regex.Pattern.quote(emptyLine), -1).length > 3);
        writeObject(new FilesystemStore(root, "empty"), 0, 0, 9, records("t", 0, 0, 9, o -> true));
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "empty-target", 0) == 10);
        cluster.delete("empty");

        Map<String, String> missing = sourceConfig("t", root, "no-such-backup", "empty-target", "preserve", bootstrap());
        assertThat(errors(cluster.validate(ChainSourceConnector.class.getName(), missing)).get("filesystem.root")).singleElement()
                .asString().contains("the backup directory " + root.resolve("no-such-backup") + " does not exist");
        assertThatThrownBy(() -> cluster.deploy("missing", missing)).as("Connect refuses the config at PUT")
                .hasMessageContaining("the backup directory " + root.resolve("no-such-backup") + " does not exist");
    }

    @Test
    void validateRequiresAnIdempotentProducerWithAcksAll() {
        Map<String, String> c = sourceConfig("t", root, "foreign", "foreign-target", "preserve", bootstrap());
        c.remove("producer.override.enable.idempotence");
        c.put("producer.override.acks", "1");
        c.put("errors.tolerance", "all");
        Map<String, List<String>> errors = errors(cluster.validate(ChainSourceConnector.class.getName(), c));
        assertThat(errors.get("producer.override.enable.idempotence")).singleElement().asString()
                .contains("set producer.override.enable.idempotence=true");
        assertThat(errors.get("producer.override.acks")).singleElement().asString().contains("set producer.override.acks=all");
        assertThat(errors.get("errors.tolerance")).singleElement().asString().contains("errors.tolerance=all");
    }

    /** Until every partition's chain, read through {@code reader}, ends at {@code next} (an upload in progress: again). */
    private static void awaitChainNext(ChainReader reader, int partitions, long next) {
        Awaitility.await("the chains reach " + next).atMost(WAIT).pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> {
            for (int p = 0; p < partitions; p++) {
                if (reader.listChain(p, OptionalLong.empty()).nextOffset().orElse(0) < next) {
                    return false;
                }
            }
            return true;
        });
    }

    private static void awaitBackup(String name, int partitions, long next) {
        awaitBackup(name, KeyRing.empty(), partitions, next);
    }

    private static void awaitBackup(String name, KeyRing keys, int partitions, long next) {
        Awaitility.await("backup " + name + " reaches " + next).atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            try (Store store = new FilesystemStore(root, name)) {
                ChainReader reader = new ChainReader(store, PARQUET, keys);
                for (int p = 0; p < partitions; p++) {
                    if (reader.listChain(p, OptionalLong.empty()).nextOffset().orElse(0) < next) {
                        return false;
                    }
                }
                return true;
            }
        });
    }
}
