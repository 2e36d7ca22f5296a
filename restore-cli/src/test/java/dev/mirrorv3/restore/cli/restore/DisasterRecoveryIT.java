package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.kafka.restore.RestoreOptions;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disaster-recovery drill with real brokers and a real worker: the blob sink backs up two topics of the source
 * cluster with their metadata and consumer groups, then restore recreates the topics and the groups in a second
 * cluster (the target), and consumers of the restored groups resume at the right record.
 */
class DisasterRecoveryIT {
    private static final Map<String, String> ORDERS_CONFIGS = Map.of("retention.ms", "604800000", "max.message.bytes", "300000",
            "min.insync.replicas", "1", "compression.type", "lz4", "segment.ms", "3600000");
    /** users: batches of 4 records and a commit or abort marker; batches 2 and 5 aborted. */
    private static final int USER_BATCHES = 8;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static final ConnectTestCluster source = ConnectTestCluster.perClass(1);

    @TempDir
    static Path dir;

    private static KafkaTestBroker target;
    private static Path root;
    private static String config;
    private static String encConfig;
    private static Path keys;
    private static final List<Long> userRecordOffsets = new ArrayList<>();
    private static long usersEnd;

    @BeforeAll
    static void backUp() throws Exception {
        target = KafkaTestBroker.start();
        root = dir.resolve("backups");
        source.kafka().createTopic("orders", 2, 1, ORDERS_CONFIGS);
        source.kafka().createTopic("users", 1, 1, Map.of("cleanup.policy", "compact"));
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(producerConfig(source.bootstrapServers(), null))) {
            for (int i = 0; i < 200; i++) {
                p.send(new ProducerRecord<>("orders", 0, null, bytes("k" + i), bytes("o-0-" + i), headers(i)));
            }
            for (int i = 0; i < 50; i++) {
                p.send(new ProducerRecord<>("orders", 1, null, bytes("k" + i), bytes("o-1-" + i), headers(i)));
            }
        }
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(producerConfig(source.bootstrapServers(), "dr-users"))) {
            p.initTransactions();
            long offset = 0;
            for (int b = 0; b < USER_BATCHES; b++) {
                p.beginTransaction();
                for (int i = 0; i < 4; i++) {
                    p.send(new ProducerRecord<>("users", 0, null, bytes("u" + ((b * 4 + i) % 5)), bytes("v-" + b + "-" + i),
                            headers(b * 4 + i)));
                    if (b % 3 != 2) {
                        userRecordOffsets.add(offset);
                    }
                    offset++;
                }
                if (b % 3 == 2) {
                    p.flush(); // aborted records in the log (holes), not dropped unsent
                    p.abortTransaction();
                } else {
                    p.commitTransaction();
                }
                offset++; // the marker
            }
            usersEnd = offset;
        }
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", source.bootstrapServers()))) {
            commit(admin, "billing", Map.of(tp("orders", 0), 5L));
            commit(admin, "audit", Map.of(tp("orders", 0), 150L, tp("orders", 1), 30L));
            // Ahead of what the backup holds on partition 1 (a coordinator never checks an offset against the log end).
            commit(admin, "search", Map.of(tp("orders", 0), 200L, tp("orders", 1), 80L));
            commit(admin, "live", Map.of(tp("orders", 0), 10L));
            for (long c = 0; c <= usersEnd; c++) {
                commit(admin, userGroup(c), Map.of(tp("users", 0), c));
            }
        }
        Map<String, String> c =
                ConnectorConfigs.sink("dev.mirrorv3.connect.blob.BlobSinkConnector", "orders,users", source.bootstrapServers());
        c.put("destination.name", "dr-${topic}");
        c.put("filesystem.root", root.toString());
        c.put("flush.max.records", "20");
        c.put("flush.max.time.ms", "300");
        c.put("retry.backoff.initial.ms", "100");
        c.put("metadata.interval.ms", "300");
        c.put("groups.interval.ms", "300");
        c.put("groups.exclude", "connect-dr.*"); // two backup connectors of orders: neither snapshots the other's group
        source.deploy("dr", c);
        config = connectorJson("dr", c);

        // The same topic backed up encrypted: chain objects and metadata snapshots sealed with key k1.
        keys = Files.createDirectory(dir.resolve("keys"));
        byte[] k1 = new byte[32];
        new java.security.SecureRandom().nextBytes(k1);
        Files.writeString(keys.resolve("k1"), java.util.Base64.getEncoder().encodeToString(k1) + "\n");
        Map<String, String> e = new HashMap<>(c);
        e.put("topics", "orders");
        e.put("destination.name", "enc-orders");
        e.put("encryption", "parquet");
        e.put("encryption.keys.dir", keys.toString());
        e.put("encryption.key.id", "k1");
        source.deploy("dr-enc", e);
        encConfig = connectorJson("dr-enc", e);

        Awaitility.await("the backup and its snapshots").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() ->
                chainNext("dr-orders", 0) == 200 && chainNext("dr-orders", 1) == 50 && chainNext("dr-users", 0) == usersEnd - 1
                        && meta("dr-orders").newestTopic().isPresent() && meta("dr-users").newestTopic().isPresent()
                        && meta("dr-orders").newestGroups().map(s -> s.snapshot().groups().keySet())
                                .filter(g -> g.containsAll(Set.of("billing", "audit", "search", "live"))).isPresent()
                        && meta("dr-users").newestGroups().filter(s -> s.snapshot().groups().size() == usersEnd + 1).isPresent()
                        && chainNext("enc-orders", 0) == 200 && chainNext("enc-orders", 1) == 50 && encMeta().newestTopic().isPresent()
                        && encMeta().newestGroups().map(s -> s.snapshot().groups().keySet())
                                .filter(g -> g.containsAll(Set.of("billing", "audit", "search", "live"))).isPresent());
        source.delete("dr-enc");
        source.delete("dr"); // the source cluster is lost from here on: only the backup and the target are used
    }

    @AfterAll
    static void stop() {
        target.close();
    }

    @Test
    void createsTheTopicAndRestoresThreeGroupsClampedAsTheRuleSaysAndRefusesALiveGroup() throws Exception {
        try (KafkaConsumer<byte[], byte[]> live = consumer("live")) {
            live.subscribe(List.of("something-else"));
            Awaitility.await("live group active").atMost(Duration.ofSeconds(30)).until(() -> {
                live.poll(Duration.ofMillis(100));
                return target.admin().describeConsumerGroups(List.of("live")).all().get().get("live").members().size() == 1;
            });
            CliRun refused = restore(null, "--source-topic", "orders", "--topic", "orders", "--offsets", "preserve", "--create-topic",
                    "--groups", ".*");
            assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
            assertThat(refused.err()).contains("[live] have active members on the target", "--groups-exclude");
            assertThat(target.admin().listTopics().names().get()).as("nothing created").doesNotContain("orders");

            // Retention on the target removes its first 20 records while the restore runs: billing (at 5) is below the log start.
            RestoreOptions.PartitionHook retention = p -> {
                if (p == 0) {
                    target.admin().deleteRecords(Map.of(tp("orders", 0), RecordsToDelete.beforeOffset(20))).all().get();
                }
            };
            CliRun r = restore(retention, "--source-topic", "orders", "--topic", "orders", "--offsets", "preserve", "--create-topic",
                    "--groups", ".*", "--groups-exclude", "live");
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).contains("topic metadata: " + root.resolve("dr-orders/_meta/topic"),
                    "consumer-group offsets: " + root.resolve("dr-orders/_meta/groups"), "created: orders",
                    "groups: committed 5 offset(s) of 3 group(s) on orders");
            assertThat(r.out()).containsPattern("billing +0 +5 +20 +to log start")
                    .containsPattern("search +1 +80 +50 +to high watermark").containsPattern("audit +0 +150 +150 +no");
        }
        assertThat(target.admin().describeTopics(List.of("orders")).allTopicNames().get().get("orders").partitions()).hasSize(2);
        assertThat(ownConfigs(target.admin(), "orders")).isEqualTo(ORDERS_CONFIGS);

        Map<String, Map<Integer, Long>> expected = Map.of("billing", Map.of(0, 20L), "audit", Map.of(0, 150L, 1, 30L),
                "search", Map.of(0, 200L, 1, 50L));
        for (Map.Entry<String, Map<Integer, Long>> e : expected.entrySet()) {
            assertThat(committed(e.getKey(), "orders")).as(e.getKey()).isEqualTo(e.getValue());
        }
        assertThat(committed("live", "orders")).as("excluded: exclude wins over include").isEmpty();

        // Consumers of each group resume at the right record.
        for (String group : List.of("billing", "audit")) {
            Map<Integer, ConsumerRecord<byte[], byte[]>> first = firstRecords(group, "orders", expected.get(group).keySet());
            expected.get(group).forEach((p, o) -> {
                assertThat(first.get(p).offset()).isEqualTo(o);
                assertThat(new String(first.get(p).value(), StandardCharsets.UTF_8)).isEqualTo("o-" + p + "-" + o);
            });
        }
    }

    @Test
    void renumberTranslatesEveryGroupExactlyThroughACompactedChainWithHoles() throws Exception {
        CliRun r = restore(null, "--source-topic", "users", "--topic", "users-new", "--offsets", "renumber", "--create-topic",
                "--groups", "u-.*", "--original-offset-header", "mirror-v3.offset");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(ownConfigs(target.admin(), "users-new")).isEqualTo(Map.of("cleanup.policy", "compact"));
        assertThat(r.out()).contains("groups: committed " + (usersEnd + 1) + " offset(s)");

        // The restored topic holds the committed records at 0, 1, 2, ...; the header says where each was.
        List<Long> restoredOriginals = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = consumer(null)) {
            c.assign(List.of(tp("users-new", 0)));
            c.seekToBeginning(List.of(tp("users-new", 0)));
            while (restoredOriginals.size() < userRecordOffsets.size()) {
                for (ConsumerRecord<byte[], byte[]> rec : c.poll(Duration.ofMillis(200))) {
                    restoredOriginals.add(Long.parseLong(new String(rec.headers().lastHeader("mirror-v3.offset").value(),
                            StandardCharsets.UTF_8)));
                }
            }
        }
        assertThat(restoredOriginals).isEqualTo(userRecordOffsets);
        // Record by record: a group that had committed C reads, after the restore, exactly the records at or after C.
        for (long c = 0; c <= usersEnd; c++) {
            long committed = c;
            long applied = committed(userGroup(c), "users-new").get(0);
            assertThat(restoredOriginals.subList((int) applied, restoredOriginals.size())).as("group at %d, resumes at %d", c, applied)
                    .isEqualTo(userRecordOffsets.stream().filter(o -> o >= committed).toList());
        }
        // And a real consumer of one of them does resume there.
        long c = userRecordOffsets.get(5) + 1;
        ConsumerRecord<byte[], byte[]> first = firstRecords(userGroup(c), "users-new", Set.of(0)).get(0);
        assertThat(new String(first.headers().lastHeader("mirror-v3.offset").value(), StandardCharsets.UTF_8))
                .isEqualTo(Long.toString(userRecordOffsets.stream().filter(o -> o >= c).findFirst().orElseThrow()));
    }

    @Test
    void aDryRunOfAllTopicsShowsTopicsAndGroupsWithoutCreatingOrCommitting() throws Exception {
        CliRun r = restore(null, "--all-topics", "--offsets", "renumber", "--create-topic", "--groups", "billing|u-0.*", "--dry-run");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("=== orders", "=== users", "would create: users with 1 partitions", "would commit (dry run",
                "=== summary: 2 topics", "orders: ok", "users: ok");
        assertThat(r.out()).containsPattern("billing +0 +5 +5 +no");
        assertThat(target.admin().listTopics().names().get()).doesNotContain("users");
        assertThat(committed("u-01", "users")).isEmpty();

        CliRun tooFew = restore(null, "--source-topic", "orders", "--topic", "orders-rf3", "--offsets", "preserve", "--create-topic",
                "--replication-factor", "3");
        assertThat(tooFew.exitCode()).as(tooFew.toString()).isEqualTo(1);
        assertThat(tooFew.err()).contains("the target cluster has 1 broker(s), and orders-rf3 needs replication factor 3",
                "--replication-factor 1 or fewer");
        assertThat(target.admin().listTopics().names().get()).doesNotContain("orders-rf3");
    }

    /** Both topics of the ${topic} backup into a cluster of their own (the target has an orders of the first test). */
    @Test
    void allTopicsCreatesAndRestoresBothTopicsEqualToTheirSources() throws Exception {
        try (KafkaTestBroker second = KafkaTestBroker.start()) {
            Path report = dir.resolve("all-topics.json");
            Path metrics = dir.resolve("all-topics.prom");
            CliRun r = CliRun.run("restore", "--connector-config", config, "--bootstrap-servers", second.bootstrapServers(),
                    "--progress", "none", "--all-topics", "--offsets", "renumber", "--create-topic", "--report", report.toString(),
                    "--metrics-file", metrics.toString());
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).contains("=== summary: 2 topics", "orders: ok, restored: 250 records into orders",
                    "users: ok, restored: " + userRecordOffsets.size() + " records into users", "created: orders", "created: users");
            // one report and one metrics file for both topics, each topic's restore in its entry
            var json = dev.mirrorv3.restore.cli.report.RestoreReport.read(report);
            assertThat(json.path("mode").asText()).isEqualTo("restore");
            assertThat(json.path("result").asText()).isEqualTo("ok");
            assertThat(json.at("/topics/0/topic").asText()).isEqualTo("orders");
            assertThat(json.at("/topics/0/report/target/topic").asText()).isEqualTo("orders");
            assertThat(json.at("/topics/0/report/partitions/0/targetHighWatermarkAfter").asLong()).isEqualTo(200);
            assertThat(json.at("/topics/1/topic").asText()).isEqualTo("users");
            assertThat(json.at("/topics/1/report/partitions/0/targetHighWatermarkAfter").asLong()).isEqualTo(userRecordOffsets.size());
            PointInTimeRestoreTest.assertValidAllTopics(report);
            assertThat(Files.readString(metrics)).contains(
                    "mirror_v3_backup_verify_success{connector=\"dr\",topic=\"orders\",partition=\"1\"} 1\n",
                    "mirror_v3_backup_verify_success{connector=\"dr\",topic=\"users\",partition=\"0\"} 1\n");
            assertThat(second.admin().describeTopics(List.of("orders")).allTopicNames().get().get("orders").partitions()).hasSize(2);
            assertThat(ownConfigs(second.admin(), "orders")).isEqualTo(ORDERS_CONFIGS);
            assertThat(ownConfigs(second.admin(), "users")).isEqualTo(Map.of("cleanup.policy", "compact"));

            // orders has no hole: renumber writes every record at its source offset.
            for (int p = 0; p < 2; p++) {
                List<ConsumerRecord<byte[], byte[]>> want =
                        TestRecords.readToEnd(source.bootstrapServers(), tp("orders", p), WAIT).records();
                List<ConsumerRecord<byte[], byte[]>> got =
                        TestRecords.readToEnd(second.bootstrapServers(), tp("orders", p), WAIT).records();
                assertThat(want).hasSize(p == 0 ? 200 : 50);
                assertSameRecords(got, want, true);
            }
            // users: the committed records of the source, in order, at 0, 1, 2, ... (aborted ones and markers are holes).
            List<ConsumerRecord<byte[], byte[]>> want = TestRecords.readToEnd(source.bootstrapServers(), tp("users", 0), WAIT).records()
                    .stream().filter(rec -> userRecordOffsets.contains(rec.offset())).toList();
            assertThat(want).hasSize(userRecordOffsets.size());
            assertSameRecords(TestRecords.readToEnd(second.bootstrapServers(), tp("users", 0), WAIT).records(), want, false);
        }
    }

    private static void assertSameRecords(List<ConsumerRecord<byte[], byte[]>> got, List<ConsumerRecord<byte[], byte[]>> want,
            boolean sameOffsets) {
        assertThat(got).hasSize(want.size());
        for (int i = 0; i < want.size(); i++) {
            ConsumerRecord<byte[], byte[]> g = got.get(i);
            ConsumerRecord<byte[], byte[]> w = want.get(i);
            assertThat(g.offset()).isEqualTo(sameOffsets ? w.offset() : i);
            assertThat(g.key()).as("key at %d", w.offset()).isEqualTo(w.key());
            assertThat(g.value()).as("value at %d", w.offset()).isEqualTo(w.value());
            assertThat(g.timestamp()).as("timestamp at %d", w.offset()).isEqualTo(w.timestamp());
            assertThat(g.timestampType()).as("timestamp type at %d", w.offset()).isEqualTo(w.timestampType());
            assertThat(g.headers().toArray()).as("headers at %d", w.offset()).containsExactly(w.headers().toArray());
        }
    }

    /** Headers that vary by record: none, one, a duplicate key and a null value, so that a restore losing any shows. */
    private static List<Header> headers(int i) {
        List<Header> headers = new ArrayList<>();
        for (int h = 0; h < i % 4; h++) {
            headers.add(new RecordHeader(h == 2 ? "dup" : "h" + h, h == 1 ? null : bytes("hv-" + i + "-" + h)));
        }
        if (i % 4 == 3) {
            headers.add(new RecordHeader("dup", bytes("second")));
        }
        return headers;
    }

    /** encryption=parquet through Connect: the snapshots are sealed and named by their key id, and restore reads them. */
    @Test
    void anEncryptedBackupsSnapshotsRestoreTheTopicAndTheGroups() throws Exception {
        for (String kind : List.of("topic", "groups")) {
            try (var names = Files.list(root.resolve("enc-orders/_meta/" + kind))) {
                List<Path> files = names.toList();
                assertThat(files).isNotEmpty().allSatisfy(f -> {
                    assertThat(f.getFileName().toString()).matches("\\d{20}\\.k-k1\\.json");
                    assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).doesNotContain("orders", "billing");
                });
            }
        }
        CliRun r = CliRun.run("restore", "--connector-config", encConfig, "--bootstrap-servers", target.bootstrapServers(), "--progress",
                "none", "--topic", "orders-enc", "--offsets", "preserve", "--create-topic", "--groups", ".*");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).containsPattern("topic metadata: .*enc-orders/_meta/topic/\\d{20}\\.k-k1\\.json")
                .containsPattern("consumer-group offsets: .*enc-orders/_meta/groups/\\d{20}\\.k-k1\\.json")
                .contains("created: orders-enc", "restored: 250 records into orders-enc", "groups: committed 6 offset(s) of 4 group(s)");
        assertThat(ownConfigs(target.admin(), "orders-enc")).isEqualTo(ORDERS_CONFIGS);
        Map<String, Map<Integer, Long>> expected = Map.of("billing", Map.of(0, 5L), "audit", Map.of(0, 150L, 1, 30L),
                "search", Map.of(0, 200L, 1, 50L), "live", Map.of(0, 10L));
        for (Map.Entry<String, Map<Integer, Long>> g : expected.entrySet()) {
            assertThat(committed(g.getKey(), "orders-enc")).as(g.getKey()).isEqualTo(g.getValue());
        }
        for (String group : List.of("billing", "audit")) {
            Map<Integer, ConsumerRecord<byte[], byte[]>> first = firstRecords(group, "orders-enc", expected.get(group).keySet());
            expected.get(group).forEach((p, o) -> assertThat(new String(first.get(p).value(), StandardCharsets.UTF_8))
                    .isEqualTo("o-" + p + "-" + o));
        }
    }

    private static CliRun restore(RestoreOptions.PartitionHook hook, String... extra) {
        List<String> args = new ArrayList<>(List.of("restore", "--connector-config", config, "--bootstrap-servers",
                target.bootstrapServers(), "--progress", "none"));
        args.addAll(List.of(extra));
        return CliRun.runWithHook(hook, args.toArray(String[]::new));
    }

    private static Map<Integer, ConsumerRecord<byte[], byte[]>> firstRecords(String group, String topic, Set<Integer> partitions) {
        Map<Integer, ConsumerRecord<byte[], byte[]>> first = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> c = consumer(group)) {
            c.assign(partitions.stream().map(p -> tp(topic, p)).toList()); // the group's committed offsets position it
            long deadline = System.currentTimeMillis() + 30_000;
            while (!first.keySet().containsAll(partitions) && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> rec : c.poll(Duration.ofMillis(200))) {
                    first.putIfAbsent(rec.partition(), rec);
                }
            }
        }
        return first;
    }

    private static Map<Integer, Long> committed(String group, String topic) throws Exception {
        Map<Integer, Long> offsets = new TreeMap<>();
        Map<TopicPartition, OffsetAndMetadata> all = target.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);
        all.forEach((tp, o) -> {
            if (tp.topic().equals(topic) && o != null) {
                offsets.put(tp.partition(), o.offset());
            }
        });
        return offsets;
    }

    private static Map<String, String> ownConfigs(Admin admin, String topic) throws Exception {
        ConfigResource res = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = admin.describeConfigs(List.of(res)).all().get().get(res);
        Map<String, String> own = new TreeMap<>();
        for (ConfigEntry e : config.entries()) {
            if (e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG) {
                own.put(e.name(), e.value());
            }
        }
        return own;
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String group) {
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", target.bootstrapServers());
        if (group != null) {
            c.put("group.id", group);
        }
        c.put("enable.auto.commit", false);
        c.put("auto.offset.reset", "none"); // a group without a restored offset would fail, not silently start somewhere
        c.put("key.deserializer", ByteArrayDeserializer.class);
        c.put("value.deserializer", ByteArrayDeserializer.class);
        return new KafkaConsumer<>(c);
    }

    private static Map<String, Object> producerConfig(String bootstrap, String transactionalId) {
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", bootstrap);
        c.put("key.serializer", ByteArraySerializer.class);
        c.put("value.serializer", ByteArraySerializer.class);
        c.put("linger.ms", 5);
        if (transactionalId != null) {
            c.put("transactional.id", transactionalId);
        }
        return c;
    }

    private static void commit(Admin admin, String group, Map<TopicPartition, Long> offsets) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
        offsets.forEach((tp, o) -> m.put(tp, new OffsetAndMetadata(o)));
        admin.alterConsumerGroupOffsets(group, m).all().get(30, TimeUnit.SECONDS);
    }

    private static long chainNext(String name, int partition) {
        FilesystemStore store = new FilesystemStore(root, name);
        return store.list(partition).stream().map(ObjectName::parse).flatMap(Optional::stream).mapToLong(o -> o.to() + 1).max().orElse(0);
    }

    private static MetaSnapshots encMeta() throws Exception {
        return new MetaSnapshots(new FilesystemStore(root, "enc-orders"), ObjectEncryption.readOnly(KeyRing.load(keys)));
    }

    private static String connectorJson(String name, Map<String, String> c) throws Exception {
        Path file = dir.resolve(name + ".json");
        StringBuilder json = new StringBuilder("{\"name\":\"" + name + "\",\"config\":{");
        c.forEach((k, v) -> json.append('"').append(k).append("\":\"").append(v).append("\","));
        json.setLength(json.length() - 1);
        Files.writeString(file, json.append("}}").toString());
        return file.toString();
    }

    private static MetaSnapshots meta(String name) {
        return new MetaSnapshots(new FilesystemStore(root, name), ObjectEncryption.none());
    }

    private static String userGroup(long committed) {
        return String.format("u-%02d", committed);
    }

    private static TopicPartition tp(String topic, int p) {
        return new TopicPartition(topic, p);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
