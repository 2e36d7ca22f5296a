package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.GroupSnapshot.CommittedOffset;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.kafka.groups.GroupSelection;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.MutableClock;
import dev.mirrorv3.testsupport.TestConsumers;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The blob sink's metadata snapshots against a real broker: topic configs, thousands of groups, exclude wins, two
 * connectors sharing a destination, a topic deleted and created again.
 */
class MetaSnapshotterIT {
    private static final int GROUPS = 2_000;
    private static KafkaTestBroker broker;

    @TempDir
    Path root;
    /** The destination of the source topic "orders" most tests snapshot, and its snapshots read back unencrypted. */
    private FilesystemStore store;
    private MetaSnapshots meta;

    @BeforeAll
    static void start() throws Exception {
        broker = KafkaTestBroker.start();
        broker.createTopic("orders", 3, Map.of("cleanup.policy", "compact", "max.message.bytes", "200000"));
        broker.createTopic("other", 1, Map.of());
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers(),
                "key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer",
                "value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer"))) {
            for (int i = 0; i < 30; i++) {
                p.send(new ProducerRecord<>("orders", i % 3, ("k" + i).getBytes(), new byte[] {(byte) i}));
            }
            p.send(new ProducerRecord<>("other", 0, "k".getBytes(), new byte[1]));
        }
        // app-0000..app-1999 at different offsets, plus the connector's own group; every commit in flight at once.
        List<KafkaFuture<Void>> commits = new ArrayList<>();
        for (int g = 0; g < GROUPS; g++) {
            commits.add(broker.admin().alterConsumerGroupOffsets(group(g), Map.of(new TopicPartition("orders", g % 3),
                    new OffsetAndMetadata(g % 10, "m" + g), new TopicPartition("other", 0), new OffsetAndMetadata(1))).all());
        }
        commits.add(broker.admin().alterConsumerGroupOffsets("connect-blob", Map.of(new TopicPartition("orders", 0),
                new OffsetAndMetadata(7))).all());
        for (KafkaFuture<Void> f : commits) {
            f.get(60, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @BeforeEach
    void ordersDestination() {
        store = new FilesystemStore(root, "orders");
        meta = new MetaSnapshots(store, ObjectEncryption.none());
    }

    private static Admin newAdmin() {
        return Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()));
    }

    private static String group(int g) {
        return String.format("app-%04d", g);
    }

    private MetaSnapshotter snapshotter(Admin admin, FilesystemStore store, String include, String exclude) {
        MetaSnapshotter s = new MetaSnapshotter(admin, t -> store, ObjectEncryption.none(),
                GroupSelection.of(include, exclude, List.of("connect-blob")), Duration.ofSeconds(30), Clock.systemUTC(), e -> { });
        for (int p = 0; p < 3; p++) {
            s.durableOffsets().durable(new TopicPartition("orders", p), 10L + p);
        }
        return s;
    }

    @Test
    void topicMetadataHoldsTheTopicsOwnConfigsAndIsWrittenOnlyWhenItChanged() throws Exception {
        try (Admin admin = newAdmin();
                MetaSnapshotter s = snapshotter(admin, store, ".*", "")) {
            assertThat(s.snapshotTopics()).hasSize(1);
            TopicSnapshot t = meta.newestTopic().orElseThrow().snapshot();
            assertThat(t.partitions()).isEqualTo(3);
            assertThat(t.replicationFactor()).isEqualTo(1);
            assertThat(t.topicId()).isEqualTo(admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders")
                    .topicId().toString());
            assertThat(t.configs()).isEqualTo(Map.of("cleanup.policy", "compact", "max.message.bytes", "200000"));
            assertThat(s.snapshotTopics()).as("nothing changed").isEmpty();

            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, "orders"), List.of(
                    new AlterConfigOp(new ConfigEntry("retention.ms", "604800001"), AlterConfigOp.OpType.SET)))).all().get();
            // The alter returns before every broker's metadata holds the new config: the snapshot follows once it is seen.
            assertThat(Awaitility.await("the changed config seen").atMost(Duration.ofSeconds(30))
                    .until(s::snapshotTopics, taken -> !taken.isEmpty())).hasSize(1);
            assertThat(meta.newestTopic().orElseThrow().snapshot().configs()).containsEntry("retention.ms", "604800001");
        }
        // A restarted task reads the newest snapshot back instead of writing the same again.
        try (Admin admin = newAdmin();
                MetaSnapshotter s = snapshotter(admin, store, ".*", "")) {
            assertThat(s.snapshotTopics()).isEmpty();
        }
    }

    /** The newest snapshot's id is the backup's identity: a topic of the same name with another id never replaces it. */
    @Test
    void aTopicWithAnotherIdThanTheBackupsIsNotSnapshottedAndFailsTheTask() throws Exception {
        meta.writeTopic(new TopicSnapshot(1_000, "orders", "an-older-topic-id", 3, 1, Map.of()));
        List<RuntimeException> failures = new ArrayList<>();
        try (Admin admin = newAdmin();
                MetaSnapshotter s = new MetaSnapshotter(admin, t -> store, ObjectEncryption.none(), GroupSelection.of(".*", "",
                        List.of()), Duration.ofSeconds(30), Clock.systemUTC(), failures::add)) {
            s.durableOffsets().durable(new TopicPartition("orders", 1), 10);
            assertThat(s.snapshotTopics()).as("nothing written").isEmpty();
        }
        assertThat(meta.newestTopic().orElseThrow().snapshot().topicId()).isEqualTo("an-older-topic-id");
        assertThat(failures).singleElement().extracting(Throwable::getMessage).asString()
                .contains("source topic orders was deleted and created again while it was backed up",
                        "the backup holds the topic with id an-older-topic-id", "new destination.name", store.location(1));
    }

    @Test
    void twoThousandGroupsAreSnapshottedInABoundedNumberOfRequestsAndExcludeWins() throws Exception {
        try (Admin admin = newAdmin();
                MetaSnapshotter s = snapshotter(admin, store, "app-.*|connect-blob", "app-1.*")) {
            admin.describeCluster().nodes().get(); // connected: the count below is the snapshot's alone
            double before = requests(admin);
            assertThat(s.snapshotGroups()).hasSize(1);
            double requests = requests(admin) - before;
            // One ListGroups, batched FindCoordinator and OffsetFetch calls (500 groups each): not 2,000 requests.
            assertThat(requests).as("admin requests for one snapshot of %d groups", GROUPS).isBetween(1.0, 20.0);
            assertThat(s.offsetCalls()).isEqualTo(2); // 1,000 selected groups, 500 per call

            GroupSnapshot g = meta.newestGroups().orElseThrow().snapshot();
            assertThat(g.groups()).hasSize(GROUPS / 2).allSatisfy((id, offsets) -> assertThat(id).startsWith("app-0"));
            assertThat(g.groups()).doesNotContainKey("connect-blob"); // the connector's own group, although included
            assertThat(g.groups().get(group(17))).as("only the backed-up topic's partitions")
                    .isEqualTo(Map.of(17 % 3, new CommittedOffset(17 % 10, "m17")));
            assertThat(g.chainNextOffsets()).isEqualTo(Map.of(0, 10L, 1, 11L, 2, 12L));

            assertThat(s.snapshotGroups()).as("no group moved").isEmpty();
            admin.alterConsumerGroupOffsets(group(5), Map.of(new TopicPartition("orders", 2), new OffsetAndMetadata(9))).all().get();
            assertThat(s.snapshotGroups()).hasSize(1);
            assertThat(meta.newestGroups().orElseThrow().snapshot().groups().get(group(5)))
                    .isEqualTo(Map.of(2, new CommittedOffset(9, "")));
        }
    }

    /**
     * A task stopping closes its partitions one by one while the snapshot thread runs; and two connectors may share a
     * destination with {@code partitions=}: neither may leave a newest snapshot without a partition an earlier one had.
     */
    @Test
    void aPartitionClosedBetweenSnapshotsOrOwnedByAnotherConnectorKeepsItsOffsetsInTheNewest() throws Exception {
        try (Admin admin = newAdmin();
                MetaSnapshotter a = snapshotter(admin, store, "carry-.*", "")) {
            commit(admin, "carry-a", Map.of(0, 3L, 1, 4L, 2, 5L));
            assertThat(a.snapshotGroups()).hasSize(1);

            a.durableOffsets().closed(new TopicPartition("orders", 2)); // its final flush done, the task goes on closing the others
            commit(admin, "carry-a", Map.of(0, 6L));
            assertThat(a.snapshotGroups()).as("carry-a moved on 0").hasSize(1);
            GroupSnapshot newest = meta.newestGroups().orElseThrow().snapshot();
            assertThat(newest.chainNextOffsets()).as("partition 2 closed, carried forward").isEqualTo(Map.of(0, 10L, 1, 11L, 2, 12L));
            assertThat(newest.groups().get("carry-a")).isEqualTo(offsets(Map.of(0, 6L, 1, 4L, 2, 5L)));

            // Another connector backs up partition 2 into the same destination (partitions=2), with its own snapshotter.
            try (MetaSnapshotter b = new MetaSnapshotter(admin, t -> store, ObjectEncryption.none(),
                    GroupSelection.of("carry-.*", "", List.of()), Duration.ofSeconds(30), Clock.systemUTC(), e -> { })) {
                b.durableOffsets().durable(new TopicPartition("orders", 2), 20);
                commit(admin, "carry-a", Map.of(2, 7L));
                Thread.sleep(2); // snapshots are named by their millisecond
                assertThat(b.snapshotGroups()).hasSize(1);
                newest = meta.newestGroups().orElseThrow().snapshot();
                assertThat(newest.chainNextOffsets()).isEqualTo(Map.of(0, 10L, 1, 11L, 2, 20L));
                assertThat(newest.groups().get("carry-a")).isEqualTo(offsets(Map.of(0, 6L, 1, 4L, 2, 7L)));
            }
            // The first one writes next: it merges with the newest stored snapshot, not only with its own last one.
            commit(admin, "carry-a", Map.of(0, 8L));
            Thread.sleep(2);
            assertThat(a.snapshotGroups()).hasSize(1);
            newest = meta.newestGroups().orElseThrow().snapshot();
            assertThat(newest.chainNextOffsets()).isEqualTo(Map.of(0, 10L, 1, 11L, 2, 20L));
            assertThat(newest.groups().get("carry-a")).isEqualTo(offsets(Map.of(0, 8L, 1, 4L, 2, 7L)));

            a.durableOffsets().closed(new TopicPartition("orders", 0));
            a.durableOffsets().closed(new TopicPartition("orders", 1));
            assertThat(a.snapshotGroups()).as("nothing open: nothing written").isEmpty();
        }
    }

    /**
     * Two connectors share a destination with {@code partitions=} (A backs up 0 and 1, B 2), each merging the other's
     * partitions into its snapshots. B's snapshot can be the newest and still carry A's older offsets: its clock is
     * ahead of A's, or it read the store before A's commit landed and committed after it. The newest snapshot must get
     * A's newest offsets again although A's groups did not move since A's own last write.
     */
    @Test
    void theNewestSnapshotHoldsEveryConnectorsNewestOffsetsAfterAnotherOneCarriedOlderOnes() throws Exception {
        Faults race = new Faults();
        MutableClock clockA = new MutableClock();
        MutableClock clockB = new MutableClock();
        clockB.advance(60_000); // B's worker's clock a minute ahead of A's
        try (Admin admin = newAdmin();
                MetaSnapshotter a = new MetaSnapshotter(admin, t -> store, ObjectEncryption.none(), GroupSelection.of("stale-.*", "",
                        List.of()), Duration.ofSeconds(30), clockA, e -> { });
                MetaSnapshotter b = new MetaSnapshotter(admin, t -> new FaultInjectingStore(store, race), ObjectEncryption.none(),
                        GroupSelection.of("stale-.*", "", List.of()), Duration.ofSeconds(30), clockB, e -> { })) {
            a.durableOffsets().durable(new TopicPartition("orders", 0), 10);
            a.durableOffsets().durable(new TopicPartition("orders", 1), 11);
            b.durableOffsets().durable(new TopicPartition("orders", 2), 12);
            commit(admin, "stale-g", Map.of(0, 3L, 1, 4L, 2, 5L));
            assertThat(a.snapshotGroups()).hasSize(1);
            assertThat(b.snapshotGroups()).hasSize(1);
            assertThat(newestOffsets(meta, "stale-g")).isEqualTo(offsets(Map.of(0, 3L, 1, 4L, 2, 5L)));

            // A's group moves on 0: A writes, and B's snapshot, named a minute later with A's 3 on 0, must not stay the newest.
            commit(admin, "stale-g", Map.of(0, 6L));
            clockA.advance(1_000);
            a.snapshotGroups();
            clockA.advance(1_000);
            a.snapshotGroups(); // A's groups did not move since
            assertThat(newestOffsets(meta, "stale-g")).as("the newest after a writer whose clock is behind")
                    .isEqualTo(offsets(Map.of(0, 6L, 1, 4L, 2, 5L)));

            // B reads the store, A writes its group's move on 0 meanwhile, then B's snapshot lands with A's older offset.
            commit(admin, "stale-g", Map.of(0, 8L, 2, 9L));
            race.beforeNextSnapshotWrite.set(() -> {
                try {
                    assertThat(a.snapshotGroups()).hasSize(1);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            clockA.advance(1_000);
            clockB.advance(1_000);
            assertThat(b.snapshotGroups()).hasSize(1);
            assertThat(race.beforeNextSnapshotWrite.get()).as("premise: A wrote while B's write was in flight").isNull();
            assertThat(newestOffsets(meta, "stale-g")).as("premise: the newest, B's, carries A's older offset on 0")
                    .isEqualTo(offsets(Map.of(0, 6L, 1, 4L, 2, 9L)));
            clockA.advance(1_000);
            a.snapshotGroups(); // A's groups did not move since its own last write
            assertThat(newestOffsets(meta, "stale-g")).isEqualTo(offsets(Map.of(0, 8L, 1, 4L, 2, 9L)));
            clockA.advance(1_000);
            clockB.advance(1_000);
            assertThat(a.snapshotGroups()).as("nothing moved").isEmpty();
            assertThat(b.snapshotGroups()).as("nothing moved").isEmpty();
        }
    }

    /**
     * The source topic deleted and created again under a running backup: while it is gone its groups' offsets are gone
     * too, and afterwards the groups' offsets are the new topic's. Neither may become the backup's newest group
     * snapshot: it keeps the old topic's positions, recorded with the old topic's id.
     */
    @Test
    void aTopicDeletedAndCreatedAgainNeitherDropsNorReplacesTheBackupsGroupPositions() throws Exception {
        String topic = "reborn";
        broker.createTopic(topic, 2, Map.of());
        FilesystemStore rebornStore = new FilesystemStore(root, topic);
        MetaSnapshots rebornMeta = new MetaSnapshots(rebornStore, ObjectEncryption.none());
        MetaName good;
        String oldId;
        try (Admin admin = newAdmin();
                MetaSnapshotter s = new MetaSnapshotter(admin, t -> rebornStore, ObjectEncryption.none(), GroupSelection.of("reborn-.*", "",
                        List.of()), Duration.ofSeconds(30), Clock.systemUTC(), e -> { })) {
            oldId = topicId(admin, topic);
            rebornMeta.writeTopic(new TopicSnapshot(1_000, topic, oldId, 2, 1, Map.of())); // recorded when the task opened the partitions
            s.durableOffsets().durable(new TopicPartition(topic, 0), 50);
            s.durableOffsets().durable(new TopicPartition(topic, 1), 10);
            commit(admin, "reborn-app", topic, Map.of(0, 40L, 1, 7L));
            assertThat(s.snapshotGroups()).hasSize(1);
            good = rebornMeta.groupNames().get(0);

            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            Awaitility.await("the group's offsets went with the topic").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> TestConsumers.committed(admin, "reborn-app", topic).isEmpty()
                            && !admin.listTopics().names().get().contains(topic));
            assertThat(s.snapshotGroups()).as("the topic is gone: its groups are not dropped from the newest snapshot").isEmpty();

            Awaitility.await("the topic created again").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> {
                        broker.createTopic(topic, 2, Map.of());
                        return true;
                    });
            assertThat(topicId(admin, topic)).as("premise: another topic of the same name").isNotEqualTo(oldId);
            commit(admin, "reborn-app", topic, Map.of(0, 3L));
            assertThat(TestConsumers.committed(admin, "reborn-app", topic)).as("premise").isEqualTo(Map.of(0, 3L));
            assertThat(s.snapshotGroups()).as("the new topic's positions are not the backup's").isEmpty();
        }
        assertThat(rebornMeta.groupNames()).containsExactly(good);
        assertThat(rebornMeta.newestGroups().orElseThrow().snapshot().groups())
                .isEqualTo(Map.of("reborn-app", offsets(Map.of(0, 40L, 1, 7L))));
        assertThat(json(rebornStore, good).path("topic_id").asText()).as("recorded with the topic they belong to").isEqualTo(oldId);
    }

    /** The topic's id, once the broker's metadata holds the topic (right after its creation it may not yet). */
    private static String topicId(Admin admin, String topic) {
        return Awaitility.await(topic + " described").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).topicId()
                        .toString(), id -> true);
    }

    private static Map<Integer, CommittedOffset> newestOffsets(MetaSnapshots rebornMeta, String group) {
        return rebornMeta.newestGroups().orElseThrow().snapshot().groups().get(group);
    }

    /** A group snapshot's JSON as stored. */
    private static JsonNode json(FilesystemStore rebornStore, MetaName name) throws Exception {
        return new ObjectMapper().readTree(rebornStore.readBeside(MetaSnapshots.GROUPS_DIR, name.fileName()));
    }

    private static void commit(Admin admin, String group, String topic, Map<Integer, Long> offsets) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> o = new java.util.HashMap<>();
        offsets.forEach((p, c) -> o.put(new TopicPartition(topic, p), new OffsetAndMetadata(c)));
        admin.alterConsumerGroupOffsets(group, o).all().get(30, TimeUnit.SECONDS);
    }

    private static void commit(Admin admin, String group, Map<Integer, Long> offsets) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> o = new java.util.HashMap<>();
        offsets.forEach((p, c) -> o.put(new TopicPartition("orders", p), new OffsetAndMetadata(c)));
        admin.alterConsumerGroupOffsets(group, o).all().get(30, TimeUnit.SECONDS);
    }

    private static Map<Integer, CommittedOffset> offsets(Map<Integer, Long> offsets) {
        Map<Integer, CommittedOffset> o = new java.util.TreeMap<>();
        offsets.forEach((p, c) -> o.put(p, new CommittedOffset(c, "")));
        return o;
    }

    @Test
    void snapshotsAreEncryptedLikeTheChainWithTheKeyIdInTheirName() throws Exception {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (i + 7);
        }
        KeyRing ring = KeyRing.of("test keys", Map.of("k1", key));
        try (Admin admin = newAdmin();
                MetaSnapshotter s = new MetaSnapshotter(admin, t -> store, new ObjectEncryption(ring, "k1"),
                        GroupSelection.of("app-000.*", "", List.of()), Duration.ofSeconds(30), Clock.systemUTC(), e -> { })) {
            s.durableOffsets().durable(new TopicPartition("orders", 0), 10);
            String topicName = s.snapshotTopics().get(0).fileName();
            String groupsName = s.snapshotGroups().get(0).fileName();
            assertThat(topicName).endsWith(".k-k1.json");
            assertThat(groupsName).endsWith(".k-k1.json");
            byte[] stored = java.nio.file.Files.readAllBytes(root.resolve("orders/_meta/groups").resolve(groupsName));
            assertThat(new String(stored, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain("app-0003");
        }
        MetaSnapshots reader = new MetaSnapshots(store, ObjectEncryption.readOnly(ring));
        assertThat(reader.newestTopic().orElseThrow().snapshot().partitions()).isEqualTo(3);
        assertThat(reader.newestGroups().orElseThrow().snapshot().groups()).containsKey("app-0003");
    }

    private static double requests(Admin admin) {
        double total = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : admin.metrics().entrySet()) {
            if (e.getKey().name().equals("request-total") && e.getKey().group().equals("admin-client-metrics")) {
                total += (double) e.getValue().metricValue();
            }
        }
        return total;
    }
}
