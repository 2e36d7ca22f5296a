package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.restore.cli.report.RestoreReport;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every restore flag on every backup kind (a plain chain, an encrypted chain, a compaction=log snapshot backup) in both
 * offset modes: it works, checked by the restored content, or it is refused before anything is written
 * (docs/restore-cli.md: Restore flags on every backup kind). One broker and the three backups (written with chain-core's
 * writers, with their topic and two group snapshots) are shared by all cases. The default build runs every flag on every
 * kind once; {@code -Prestore-matrix-full} runs every combination.
 *
 * <p>Point in time: partition 1 of each chain has a record stamped after {@link #CHAIN_CUT} at offset {@link #LATE}, so a
 * timestamp cut keeps offsets 0 to LATE - 1 there, not every record stamped at or before the cut (docs/restore-cli.md:
 * Point-in-time restore); the group snapshot at or before the cut is the older one. The snapshot backup has two snapshots per
 * partition; the second took a delete stamped after {@link #SNAPSHOT_CUT} and nothing else after it, so only its taken
 * stamps (TakenStamps) tell that it is not at or before the cut: choosing it would lose a key.
 */
class RestoreFlagMatrixIT {
    private static final int PARTITIONS = 2;
    private static final int RECORDS = 60;
    private static final int KEYS = 25;
    private static final boolean FULL = Boolean.getBoolean("restore.matrix.full");
    private static final AtomicInteger TARGETS = new AtomicInteger();
    /** --until-timestamp on the chains; partition 1's record at offset LATE is stamped after it. */
    private static final long CHAIN_CUT = TestBackups.BASE_TS + 29;
    private static final int LATE = 20;
    /** The snapshot backup's first snapshot ends here; the second at RECORDS - 1, with a delete stamped after SNAPSHOT_CUT. */
    private static final int FIRST_SNAPSHOT_TO = 29;
    /** --until-timestamp on the snapshot backup: after every record the second snapshot kept, before the delete it took. */
    private static final long SNAPSHOT_CUT = TestBackups.BASE_TS + RECORDS - 2;

    enum Kind { PLAIN, ENCRYPTED, SNAPSHOT }

    enum Mode { preserve, renumber }

    enum Flag {
        DRY_RUN, VERIFY_ONLY, CREATE_TOPIC, GROUPS, UNTIL, REPORT, PARTITION, ALL_TOPICS, ORIGINAL_OFFSET_HEADER, UNTIL_TIMESTAMP,
        DRY_RUN_UNTIL_TIMESTAMP, GROUPS_UNTIL_TIMESTAMP,
        /** --chain-start 10 on chains that start at 0 (at or before it): restored whole; a snapshot backup has no chain start. */
        CHAIN_START,
        /** An existing target with message.timestamp.type=LogAppendTime: refused without --accept-log-append-time. */
        LOG_APPEND_TIME_TARGET,
        /** The same target with --accept-log-append-time: restored, each record stamped by the target. */
        ACCEPT_LOG_APPEND_TIME;

        boolean logAppendTime() {
            return this == LOG_APPEND_TIME_TARGET || this == ACCEPT_LOG_APPEND_TIME;
        }

        boolean dryRun() {
            return this == DRY_RUN || this == DRY_RUN_UNTIL_TIMESTAMP;
        }

        boolean groups() {
            return this == GROUPS || this == GROUPS_UNTIL_TIMESTAMP;
        }

        boolean untilTimestamp() {
            return name().endsWith("UNTIL_TIMESTAMP");
        }
    }

    @TempDir
    static Path dir;

    private static KafkaTestBroker broker;
    private static Path keys;
    private static final Map<Kind, Path> CONFIGS = new java.util.EnumMap<>(Kind.class);

    @BeforeAll
    static void backUp() throws Exception {
        broker = KafkaTestBroker.start();
        keys = TestBackups.keysWithK1(dir);
        KeyRing ring = KeyRing.load(keys);
        Path root = Files.createDirectory(dir.resolve("backups"));
        for (Kind kind : Kind.values()) {
            String topic = topic(kind);
            FilesystemStore store = new FilesystemStore(root, topic);
            ObjectEncryption encryption = kind == Kind.ENCRYPTED ? new ObjectEncryption(ring, "k1") : ObjectEncryption.none();
            for (int p = 0; p < PARTITIONS; p++) {
                List<BackupRecord> records = records(kind, topic, p);
                if (kind == Kind.SNAPSHOT) {
                    SnapshotWriter w = new SnapshotWriter(store, topic, p, new SnapshotWriter.Settings(TestBackups.SETTINGS,
                            new ParquetCodec(TestBackups.SETTINGS, encryption),
                            new SnapshotReader(store, TestBackups.SETTINGS, ring),
                            new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000), Clock.systemUTC(), 64 * 1024),
                            ChainHead.empty(store.location(p)), 0, dir.resolve("spill"));
                    for (BackupRecord r : records) {
                        w.append(r);
                        if (r.offset() == FIRST_SNAPSHOT_TO || r.offset() == RECORDS - 1) {
                            w.flush(FlushTrigger.TIME).orElseThrow();
                        }
                    }
                } else {
                    ChainWriter w = new ChainWriter(store, p, EnvelopeCodecs.forSettings(TestBackups.SETTINGS, encryption),
                            new FlushPolicy(20, 1 << 24, 60_000), Clock.systemUTC(),
                            new ChainReader(store, TestBackups.SETTINGS, ring).head(p), 0);
                    for (BackupRecord r : records) {
                        w.append(r);
                        if (w.sizeTrigger().isPresent()) {
                            w.flush(FlushTrigger.RECORDS);
                        }
                    }
                    w.flush(FlushTrigger.CLOSE);
                }
            }
            MetaSnapshots meta = new MetaSnapshots(store, encryption);
            meta.writeTopic(new TopicSnapshot(TestBackups.BASE_TS, topic, "id", PARTITIONS, 1, Map.of("retention.ms", "-1")));
            // the older at or before CHAIN_CUT (g1 on partition 1 past the timestamp cut's prefix: clamped), the newer after it
            meta.writeGroups(new GroupSnapshot(TestBackups.BASE_TS + 1, topic, Map.of(0, (long) RECORDS, 1, (long) RECORDS),
                    Map.of("g1", Map.of(0, new GroupSnapshot.CommittedOffset(10, ""), 1, new GroupSnapshot.CommittedOffset(25, "")),
                            "g2", Map.of(0, new GroupSnapshot.CommittedOffset(5, "")))));
            meta.writeGroups(new GroupSnapshot(CHAIN_CUT + 11, topic, Map.of(0, (long) RECORDS, 1, (long) RECORDS),
                    Map.of("g1", Map.of(0, new GroupSnapshot.CommittedOffset(50, ""), 1, new GroupSnapshot.CommittedOffset(55, "")),
                            "g2", Map.of(0, new GroupSnapshot.CommittedOffset(7, "")))));
            String extra = "\"destination.name\":\"${topic}\","
                    + (kind == Kind.SNAPSHOT ? "\"compaction\":\"log\"," : "")
                    + (kind == Kind.ENCRYPTED ? "\"encryption\":\"parquet\",\"encryption.key.id\":\"k1\",\"encryption.keys.dir\":\""
                            + keys + "\"," : "");
            Path config = dir.resolve(topic + ".json");
            Files.writeString(config, Files.readString(TestBackups.connectorJson(dir, topic + "-backup", topic, root))
                    .replace("\"tasks.max\"", extra + "\"tasks.max\""));
            CONFIGS.put(kind, config);
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    /**
     * Chains: every offset, no hole (both modes work), partition 1's record at LATE stamped after CHAIN_CUT; snapshots: KEYS
     * keys updated over and over, one value per key kept, the last record a delete stamped after SNAPSHOT_CUT.
     */
    private static List<BackupRecord> records(Kind kind, String topic, int p) {
        List<BackupRecord> out = new ArrayList<>();
        for (long o = 0; o < RECORDS; o++) {
            boolean snapshot = kind == Kind.SNAPSHOT;
            byte[] key = (snapshot ? String.format("key-%02d", o % KEYS) : "key-" + o).getBytes(StandardCharsets.UTF_8);
            boolean delete = snapshot && o == RECORDS - 1;
            long ts = delete ? SNAPSHOT_CUT + 1_000 : !snapshot && p == 1 && o == LATE ? CHAIN_CUT + 1_000 : TestBackups.BASE_TS + o;
            out.add(new BackupRecord(topic, p, o, ts, TimestampType.CREATE_TIME, key,
                    delete ? null : (topic + "-" + p + "-" + o).getBytes(StandardCharsets.UTF_8), List.of()));
        }
        return out;
    }

    private static String topic(Kind kind) {
        return "m-" + kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (Flag f : Flag.values()) {
            for (Kind k : Kind.values()) {
                for (Mode m : Mode.values()) {
                    // CI: every flag on every kind once (the mode alternates); snapshot x preserve is a quick refusal, always run
                    boolean ci = k == Kind.SNAPSHOT || m.ordinal() == (f.ordinal() + k.ordinal()) % 2;
                    if (FULL || ci) {
                        all.add(Arguments.of(f, k, m));
                    }
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} on {1} --offsets {2}")
    @MethodSource("cases")
    void eachFlagWorksOrIsRefusedBeforeAnythingIsWritten(Flag flag, Kind kind, Mode mode) throws Exception {
        String target = "t-" + TARGETS.incrementAndGet();
        List<String> args = new ArrayList<>(List.of("restore", "--connector-config", CONFIGS.get(kind).toString(), "--keys-dir",
                keys.toString(), "--offsets", mode.name(), "--progress", "none"));
        boolean writes = !flag.dryRun() && flag != Flag.VERIFY_ONLY;
        if (flag != Flag.VERIFY_ONLY) {
            args.addAll(List.of("--bootstrap-servers", broker.bootstrapServers()));
        }
        if (flag != Flag.ALL_TOPICS && flag != Flag.VERIFY_ONLY) {
            args.addAll(List.of("--topic", target));
        }
        boolean create = flag == Flag.CREATE_TOPIC || flag.groups() || flag == Flag.ALL_TOPICS || flag.dryRun();
        boolean targetMadeBefore = !create && flag != Flag.VERIFY_ONLY;
        if (create) {
            args.add("--create-topic");
        } else if (flag.logAppendTime()) {
            broker.createTopic(target, PARTITIONS, Map.of("retention.ms", "-1", "message.timestamp.type", "LogAppendTime"));
        } else if (targetMadeBefore) {
            broker.createTopic(target, PARTITIONS, Map.of("retention.ms", "-1"));
        }
        Path report = dir.resolve(target + ".json");
        if (flag.untilTimestamp()) {
            args.addAll(List.of("--until-timestamp", Instant.ofEpochMilli(kind == Kind.SNAPSHOT ? SNAPSHOT_CUT : CHAIN_CUT).toString()));
        }
        if (flag.dryRun()) {
            args.add("--dry-run");
        }
        if (flag.groups()) {
            args.addAll(List.of("--groups", "g.*", "--groups-exclude", "g2"));
        }
        switch (flag) {
            case VERIFY_ONLY -> args.add("--verify-only");
            // on a snapshot backup the first snapshot (up to FIRST_SNAPSHOT_TO) is the newest at or before this cut
            case UNTIL -> args.addAll(List.of("--until-offset", "0:" + (kind == Kind.SNAPSHOT ? FIRST_SNAPSHOT_TO + 16 : 29),
                    "--partition", "0"));
            case REPORT -> args.addAll(List.of("--report", report.toString(), "--original-offset-header", "orig"));
            case PARTITION -> args.addAll(List.of("--partition", "1"));
            case ALL_TOPICS -> args.add("--all-topics");
            case ORIGINAL_OFFSET_HEADER -> args.addAll(List.of("--original-offset-header", "orig"));
            case CHAIN_START -> args.addAll(List.of("--chain-start", "10"));
            case ACCEPT_LOG_APPEND_TIME -> args.add("--accept-log-append-time");
            default -> { }
        }
        String restored = flag == Flag.ALL_TOPICS ? topic(kind) : target;
        CliRun r = CliRun.run(args.toArray(String[]::new));
        try {
            if (kind == Kind.SNAPSHOT && flag.groups()) {
                assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
                assertThat(r.out() + r.err()).contains("--groups cannot restore the consumer groups", "compaction=log", "--reset-offsets");
                assertNothingWritten(restored, targetMadeBefore);
                return;
            }
            if (kind == Kind.SNAPSHOT && flag == Flag.CHAIN_START) {
                assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
                assertThat(r.err()).contains("--chain-start", "compaction=log", "snapshot", "Nothing was written");
                assertStillEmpty(restored);
                return;
            }
            if (kind == Kind.SNAPSHOT && mode == Mode.preserve) {
                assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
                assertThat(r.out() + r.err()).contains("holes by construction", "use --offsets renumber"); // --all-topics: all on stdout
                assertNothingWritten(restored, targetMadeBefore);
                return;
            }
            if (flag == Flag.LOG_APPEND_TIME_TARGET) {
                assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
                assertThat(r.err()).contains("target topic " + target + " has message.timestamp.type=LogAppendTime",
                        "--accept-log-append-time");
                assertStillEmpty(restored);
                return;
            }
            assertThat(r.exitCode()).as(r.toString()).isZero();
            if (!writes) {
                assertNothingWritten(restored, targetMadeBefore);
                if (flag.dryRun()) {
                    assertThat(r.out()).contains("would create: " + target + " with 2 partitions");
                }
                assertTimestampCutShown(flag, kind, r);
                return;
            }
            for (int p = 0; p < PARTITIONS; p++) {
                List<ConsumerRecord<byte[], byte[]>> got = TestRecords.readToEnd(broker.bootstrapServers(),
                        new TopicPartition(restored, p), Duration.ofSeconds(30)).records();
                List<BackupRecord> want = expected(kind, topic(kind), p, flag);
                // the keys first: a wrong cut or snapshot shows as the keys it lost or added
                assertThat(got.stream().map(g -> text(g.key())).toList()).as("%s partition %d keys", restored, p)
                        .containsExactlyElementsOf(want.stream().map(w -> text(w.key())).toList());
                for (int i = 0; i < want.size(); i++) {
                    ConsumerRecord<byte[], byte[]> g = got.get(i);
                    BackupRecord w = want.get(i);
                    assertThat(g.value()).as("value at %d", i).isEqualTo(w.value());
                    assertThat(g.key()).isEqualTo(w.key());
                    if (flag == Flag.ACCEPT_LOG_APPEND_TIME) {
                        assertThat(g.timestampType().name).as("stamped by the target").isEqualTo("LogAppendTime");
                    } else {
                        assertThat(g.timestamp()).isEqualTo(w.timestampMs());
                    }
                    if (kind != Kind.SNAPSHOT) {
                        assertThat(g.offset()).isEqualTo(w.offset()); // no hole: renumber writes them at the same offsets
                    }
                    if (flag == Flag.REPORT || flag == Flag.ORIGINAL_OFFSET_HEADER) {
                        assertThat(new String(g.headers().lastHeader("orig").value(), StandardCharsets.UTF_8))
                                .isEqualTo(Long.toString(w.offset()));
                    }
                }
            }
            if (flag.groups()) {
                Map<TopicPartition, OffsetAndMetadata> g1 = broker.admin().listConsumerGroupOffsets("g1")
                        .partitionsToOffsetAndMetadata().get();
                // the newest snapshot; with the timestamp cut the older one, partition 1's 25 clamped to the prefix's end
                assertThat(g1.get(new TopicPartition(target, 0)).offset()).isEqualTo(flag.untilTimestamp() ? 10 : 50);
                assertThat(g1.get(new TopicPartition(target, 1)).offset()).isEqualTo(flag.untilTimestamp() ? LATE : 55);
                if (flag.untilTimestamp()) {
                    assertThat(r.out()).contains("the newest taken at or before the cut " + Instant.ofEpochMilli(CHAIN_CUT)
                            + "; 1 newer snapshot(s) ignored");
                }
                assertThat(broker.admin().listConsumerGroupOffsets("g2").partitionsToOffsetAndMetadata().get())
                        .as("excluded").doesNotContainKey(new TopicPartition(target, 0));
            }
            assertTimestampCutShown(flag, kind, r); // after the content, which a wrong cut or snapshot changes
            if (flag == Flag.REPORT) {
                // The digest covers the records as backed up: the same as a verify pass's, without the header restore added.
                Path verify = dir.resolve(target + "-verify.json");
                CliRun v = CliRun.run("restore", "--connector-config", CONFIGS.get(kind).toString(), "--keys-dir", keys.toString(),
                        "--offsets", mode.name(), "--verify-only", "--report", verify.toString());
                assertThat(v.exitCode()).as(v.toString()).isZero();
                var restoredJson = RestoreReport.read(report);
                var verifyJson = RestoreReport.read(verify);
                assertThat(restoredJson.at("/recordsDigest").asText()).contains("as backed up");
                for (int p = 0; p < PARTITIONS; p++) {
                    assertThat(restoredJson.at("/partitions/" + p + "/sha256").asText())
                            .isEqualTo(verifyJson.at("/partitions/" + p + "/sha256").asText()).isNotEmpty();
                    assertThat(restoredJson.at("/partitions/" + p + "/targetHighWatermarkAfter").asLong())
                            .isEqualTo(expected(kind, topic(kind), p, flag).size());
                }
            }
        } finally {
            if (flag == Flag.ALL_TOPICS && broker.admin().listTopics().names().get().contains(restored)) {
                broker.admin().deleteTopics(List.of(restored)).all().get();
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                        .until(() -> !broker.admin().listTopics().names().get().contains(restored));
            }
        }
    }

    /**
     * --create-topic keeps a restored topic alive: retention.bytes against the records' size in the log (uncompressed,
     * not the Parquet size), on created and hand-made targets alike; configs that cannot work on the target adjusted with a
     * note; and a refusal leaves no topic behind.
     */
    @org.junit.jupiter.api.Test
    void createTopicAdjustsConfigsThatCannotWorkAndRefusesRetentionBytesByTheLogSize() throws Exception {
        Path root = dir.resolve("backups");
        String topic = "m-big";
        FilesystemStore store = new FilesystemStore(root, topic);
        List<BackupRecord> records = new ArrayList<>();
        for (long o = 0; o < 200; o++) { // 1000 B values that compress to almost nothing: 200 kB in the log
            records.add(new BackupRecord(topic, 0, o, System.currentTimeMillis() - 7_200_000, TimestampType.CREATE_TIME,
                    ("k" + o).getBytes(StandardCharsets.UTF_8), "a".repeat(1000).getBytes(StandardCharsets.UTF_8), List.of()));
        }
        TestBackups.write(root, topic, 0, 0, records, 100);
        long parquetBytes;
        try (Stream<Path> files = Files.list(root.resolve(topic + "/0"))) {
            parquetBytes = files.mapToLong(f -> f.toFile().length()).sum();
        }
        assertThat(parquetBytes).as("the backup's Parquet size").isLessThan(100_000);
        new MetaSnapshots(store, ObjectEncryption.none()).writeTopic(new TopicSnapshot(System.currentTimeMillis(), topic, "id", 1, 3,
                Map.of("retention.ms", "-1", "retention.bytes", "100000", "min.insync.replicas", "2",
                        "leader.replication.throttled.replicas", "0:101", "message.timestamp.before.max.ms", "3600000",
                        "remote.storage.enable", "true")));
        Path config = TestBackups.connectorJson(dir, topic, topic, root); // destination.name: the connector's name
        List<String> base = List.of("restore", "--connector-config", config.toString(), "--offsets", "preserve", "--progress", "none",
                "--bootstrap-servers", broker.bootstrapServers());

        CliRun bySize = run(base, "--topic", "big-1", "--create-topic", "--replication-factor", "1");
        assertThat(bySize.exitCode()).as(bySize.toString()).isEqualTo(1);
        assertThat(bySize.err()).contains("retention.bytes=100000", "take at least 2", "bytes in the log", "Nothing was created");
        assertThat(broker.admin().listTopics().names().get()).doesNotContain("big-1");

        CliRun created = run(base, "--topic", "big-2", "--create-topic", "--replication-factor", "1", "--accept-retention");
        assertThat(created.exitCode()).as(created.toString()).isZero();
        assertThat(created.out()).contains("note: min.insync.replicas=2 lowered to 1", "note: dropped leader.replication.throttled"
                + ".replicas=0:101", "note: dropped message.timestamp.before.max.ms=3600000", "note: dropped remote.storage.enable=true",
                "restored: 200 records into big-2");
        var own = broker.admin().describeConfigs(List.of(new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "big-2"))).all().get().values().iterator().next();
        assertThat(own.get("min.insync.replicas").value()).isEqualTo("1");
        assertThat(own.get("leader.replication.throttled.replicas").value()).isEmpty();
        assertThat(own.get("retention.bytes").value()).isEqualTo("100000");

        broker.createTopic("big-3", 1, Map.of("retention.ms", "-1", "retention.bytes", "100000"));
        CliRun handMade = run(base, "--topic", "big-3");
        assertThat(handMade.exitCode()).as(handMade.toString()).isEqualTo(1);
        assertThat(handMade.err()).contains("target topic big-3 has retention.bytes=100000", "Nothing was sent");

        broker.createTopic("big-4", 1, Map.of("retention.ms", "-1", "min.insync.replicas", "2"));
        CliRun insync = run(base, "--topic", "big-4");
        assertThat(insync.exitCode()).as(insync.toString()).isEqualTo(1);
        assertThat(insync.err()).contains("target topic big-4 has min.insync.replicas=2 and 1 replica(s)", "Nothing was sent");
    }

    private static CliRun run(List<String> base, String... extra) {
        List<String> args = new ArrayList<>(base);
        args.addAll(List.of(extra));
        return CliRun.run(args.toArray(String[]::new));
    }

    /** Flags that would be ignored in a combination are usage errors before anything is read (exit 2). */
    @org.junit.jupiter.api.Test
    void flagsThatWouldBeIgnoredAreRefusedUpFront() {
        String config = CONFIGS.get(Kind.PLAIN).toString();
        CliRun exclude = CliRun.run("restore", "--connector-config", config, "--offsets", "renumber", "--verify-only",
                "--groups-exclude", "g2");
        assertThat(exclude.exitCode()).as(exclude.toString()).isEqualTo(2);
        assertThat(exclude.err()).contains("--groups-exclude only narrows --groups: pass --groups too");
        for (String flag : List.of("--groups", "--create-topic")) {
            List<String> args = new ArrayList<>(List.of("restore", "--connector-config", config, "--offsets", "renumber",
                    "--verify-only", flag));
            if (flag.equals("--groups")) {
                args.add(".*");
            }
            CliRun r = CliRun.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
            assertThat(r.err()).contains("--verify-only reads the backup and writes nothing: not with " + flag, "use --dry-run");
        }
        CliRun rf = CliRun.run("restore", "--connector-config", config, "--offsets", "renumber", "--bootstrap-servers",
                broker.bootstrapServers(), "--topic", "never", "--replication-factor", "1");
        assertThat(rf.exitCode()).as(rf.toString()).isEqualTo(2);
        assertThat(rf.err()).contains("--replication-factor is the replication factor of the topic --create-topic creates");
    }

    /** What the target partition must hold after the flag's restore. */
    private static List<BackupRecord> expected(Kind kind, String topic, int p, Flag flag) {
        if (flag == Flag.PARTITION && p != 1 || flag == Flag.UNTIL && p != 0) {
            return List.of();
        }
        List<BackupRecord> all = records(kind, topic, p);
        if (kind == Kind.SNAPSHOT) {
            // both cuts pick the first snapshot (the second took the delete stamped after SNAPSHOT_CUT); the rest the newest
            return state(all, flag == Flag.UNTIL || flag.untilTimestamp() ? FIRST_SNAPSHOT_TO : RECORDS - 1);
        }
        if (flag.untilTimestamp()) {
            // the prefix ends before the first record stamped after the cut: on partition 1 the late one at LATE, although
            // the records after it up to offset 29 are stamped at or before the cut
            return all.subList(0, p == 1 ? LATE : 30);
        }
        return flag == Flag.UNTIL ? all.subList(0, 30) : all;
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A snapshot up to offset {@code to}: the latest record per live key, in key order (zero-padded keys: byte order). */
    private static List<BackupRecord> state(List<BackupRecord> records, long to) {
        Map<String, BackupRecord> byKey = new TreeMap<>();
        for (BackupRecord r : records.subList(0, (int) to + 1)) {
            String key = text(r.key());
            if (r.value() == null) {
                byKey.remove(key);
            } else {
                byKey.put(key, r);
            }
        }
        return List.copyOf(byKey.values());
    }

    /** The summary says where the timestamp cut ended each chain partition, or which snapshot it chose and why. */
    private static void assertTimestampCutShown(Flag flag, Kind kind, CliRun r) {
        if (!flag.untilTimestamp()) {
            return;
        }
        if (kind == Kind.SNAPSHOT) {
            assertThat(r.out()).contains("(state up to offset " + FIRST_SNAPSHOT_TO + "; the newest at or before timestamp "
                    + Instant.ofEpochMilli(SNAPSHOT_CUT), "took a record stamped " + Instant.ofEpochMilli(SNAPSHOT_CUT + 1_000));
            return;
        }
        String cut = "cut: until timestamp " + Instant.ofEpochMilli(CHAIN_CUT) + ": up to offset ";
        assertThat(r.out()).contains(cut + "29 (", cut + (LATE - 1) + " (", "first excluded: offset " + LATE + " stamped "
                + Instant.ofEpochMilli(CHAIN_CUT + 1_000));
    }

    /** A target the test created (a LogAppendTime one) is still there and still empty: the refusal wrote nothing. */
    private static void assertStillEmpty(String topic) throws Exception {
        assertThat(broker.admin().listTopics().names().get()).contains(topic);
        for (int p = 0; p < PARTITIONS; p++) {
            assertThat(TestRecords.readToEnd(broker.bootstrapServers(), new TopicPartition(topic, p), Duration.ofSeconds(30))
                    .highWatermark()).as("%s/%d written", topic, p).isZero();
        }
    }

    /**
     * Nothing was written. A target that did not exist before the run (one {@code --create-topic} was to create, or none
     * at all with {@code --verify-only}) must not exist after it, even empty: a dry run or a refusal that created it wrote a
     * topic. A target the test made before the run must still exist (else there is no emptiness to check) and hold no record.
     */
    private static void assertNothingWritten(String topic, boolean madeBefore) throws Exception {
        boolean exists = broker.admin().listTopics().names().get().contains(topic);
        if (!madeBefore) {
            assertThat(exists).as("target topic %s, which did not exist before the run, exists after it", topic).isFalse();
            return;
        }
        assertThat(exists).as("target topic %s, created before the run", topic).isTrue();
        for (int p = 0; p < PARTITIONS; p++) {
            assertThat(TestRecords.readToEnd(broker.bootstrapServers(), new TopicPartition(topic, p), Duration.ofSeconds(30))
                    .highWatermark()).as("%s/%d written", topic, p).isZero();
        }
    }
}
