package dev.mirrorv3.connect.source;

import static dev.mirrorv3.connect.source.ChainSourceTestSupport.createTopic;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.highWatermark;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.records;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.sourceConfig;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.writeObject;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.GroupSnapshot.CommittedOffset;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.testsupport.ObservabilityFiles;
import dev.mirrorv3.testsupport.OneWorkerTestBase;
import dev.mirrorv3.testsupport.TestConsumers;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * groups.sync on the chain source: the groups of the backup's newest snapshot reach the standby, clamped to what has
 * been restored so far and to the standby's log start, never for a group active there, filtered by include/exclude; a
 * reset in a newer snapshot moves the standby back; a group missing from a newer snapshot (deleted) stays.
 */
class ChainSourceGroupSyncIT extends OneWorkerTestBase {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String TOPIC = "orders";
    private static final String BACKUP = "orders-backup";
    private static final String STANDBY = "orders-standby";
    private static final TopicPartition T0 = new TopicPartition(STANDBY, 0);
    private static final TopicPartition T1 = new TopicPartition(STANDBY, 1);

    @Test
    void snapshotGroupsReachTheStandbyClampedToWhatIsRestored() throws Exception {
        String name = "orders-follow";
        String bootstrap = cluster.bootstrapServers();
        createTopic(bootstrap, STANDBY, 2);
        long t1 = System.currentTimeMillis() - 10_000;
        try (Store store = new FilesystemStore(root, BACKUP);
             Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap));
             KafkaConsumer<byte[], byte[]> live = TestConsumers.activeMember(bootstrap, "live", T0, 3, WAIT)) {
            for (int p = 0; p < 2; p++) {
                writeObject(store, p, 0, 99, records(TOPIC, p, 0, 99, o -> true));
            }
            MetaSnapshots meta = new MetaSnapshots(store, ObjectEncryption.none());
            meta.writeGroups(snapshot(t1, Map.of(
                    "app-a", Map.of(0, at(40), 1, at(60)),
                    "app-b", Map.of(0, at(100), 1, at(100)),
                    "ahead", Map.of(0, at(150)),          // beyond what is restored: clamped, and follows the restore
                    "old", Map.of(1, at(5)),              // below the standby's log start after its retention
                    "excluded-x", Map.of(0, at(7)),       // include matches, exclude wins
                    "live", Map.of(0, at(50)))));         // active on the standby: its consumer owns it

            Map<String, String> config = syncingGroups(BACKUP, STANDBY, bootstrap);
            config.put("groups.exclude", "excluded-.*");
            cluster.deploy(name, config);
            Awaitility.await("both partitions restored").atMost(WAIT)
                    .until(() -> highWatermark(bootstrap, STANDBY, 0) == 100 && highWatermark(bootstrap, STANDBY, 1) == 100);
            admin.deleteRecords(Map.of(T1, RecordsToDelete.beforeOffset(20))).all().get(30, TimeUnit.SECONDS);

            awaitGroup(admin, "app-a", Map.of(T0, 40L, T1, 60L));
            awaitGroup(admin, "app-b", Map.of(T0, 100L, T1, 100L));
            awaitGroup(admin, "ahead", Map.of(T0, 100L));
            awaitGroup(admin, "old", Map.of(T1, 20L));
            assertThat(offsets(admin, "live")).as("a group active on the standby is never written").isEqualTo(Map.of(T0, 3L));
            assertThat(offsets(admin, "excluded-x")).as("exclude wins").isEmpty();
            cluster.awaitConnectorMetric(name, "groups-skipped", 1, WAIT);
            cluster.awaitConnectorMetric(name, "groups-synced", 4, WAIT);
            assertThat(cluster.connectorMetric(name, "groups-snapshot-timestamp-seconds")).isEqualTo(t1 / 1000);
            // What Prometheus gets through config/jmx-exporter.yaml (the connector's MBean, no task label).
            String scrape = ObservabilityFiles.scrape(ObservabilityFiles.exporter());
            // The group sync's series as the alerts and the dashboard use them (MirrorV3GroupSyncBehind).
            assertThat(ObservabilityFiles.assertScrapeServesTheQueries(scrape, ObservabilityFiles::groupSyncSeries))
                    .contains("mirror_v3_groups_sync_timestamp_seconds", "mirror_v3_groups_sync_interval_seconds");
            Map<String, Double> series = ObservabilityFiles.mirrorSeries(scrape);
            String mine = "{mirror=\"" + name + "\"}";
            assertThat(series).containsEntry("mirror_v3_groups_synced" + mine, 4.0).containsEntry("mirror_v3_groups_skipped" + mine, 1.0)
                    .containsEntry("mirror_v3_groups_snapshot_timestamp_seconds" + mine, (double) (t1 / 1000))
                    .as("groups.interval.ms, which MirrorV3GroupSyncBehind scales with")
                    .containsEntry("mirror_v3_groups_sync_interval_seconds" + mine, 0.3)
                    .containsKeys("mirror_v3_group_offsets_clamped" + mine, "mirror_v3_group_commits_total" + mine,
                            "mirror_v3_groups_sync_timestamp_seconds" + mine);

            // The backup grows: the clamped group follows what is restored, up to its snapshot position.
            writeObject(store, 0, 100, 199, records(TOPIC, 0, 100, 199, o -> true));
            awaitGroup(admin, "ahead", Map.of(T0, 150L));

            // A newer snapshot: app-a reset backwards, app-b deleted on the source.
            long t2 = t1 + 5_000;
            meta.writeGroups(snapshot(t2, Map.of(
                    "app-a", Map.of(0, at(10), 1, at(60)),
                    "ahead", Map.of(0, at(150)),
                    "old", Map.of(1, at(5)),
                    "excluded-x", Map.of(0, at(7)),
                    "live", Map.of(0, at(50)))));
            awaitGroup(admin, "app-a", Map.of(T0, 10L, T1, 60L));
            cluster.awaitConnectorMetric(name, "groups-snapshot-timestamp-seconds", t2 / 1000, WAIT);
            cluster.awaitConnectorMetric(name, "groups-synced", 3, WAIT);
            assertThat(offsets(admin, "app-b")).as("gone from the snapshot, kept on the standby").isEqualTo(Map.of(T0, 100L, T1, 100L));

            live.close();
            awaitGroup(admin, "live", Map.of(T0, 50L));
        }
        cluster.awaitRunning(name, WAIT);
        cluster.delete(name);
    }

    /**
     * A standby frozen at a cut (until.offset) syncs the groups of the newest snapshot taken before the backup passed
     * the cut, never a newer one, clamped to what it restored: the positions as they were at the cut.
     */
    @Test
    void aStandbyFrozenAtACutSyncsTheGroupsOfTheSnapshotAtOrBeforeIt() throws Exception {
        String name = "pit-follow";
        String bootstrap = cluster.bootstrapServers();
        TopicPartition tp = new TopicPartition("pit-standby", 0);
        createTopic(bootstrap, "pit-standby", 1);
        long t1 = System.currentTimeMillis() - 10_000;
        try (Store store = new FilesystemStore(root, "pit-backup");
             Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            writeObject(store, 0, 0, 99, records(TOPIC, 0, 0, 99, o -> true));
            MetaSnapshots meta = new MetaSnapshots(store, ObjectEncryption.none());
            // Taken when the backup ended at 50 (before the cut at 59), then at 100 (after it).
            meta.writeGroups(new GroupSnapshot(t1, TOPIC, Map.of(0, 50L), Map.of("g", Map.of(0, at(45)), "g-ahead", Map.of(0, at(80)))));
            meta.writeGroups(new GroupSnapshot(t1 + 5_000, TOPIC, Map.of(0, 100L),
                    Map.of("g", Map.of(0, at(90)), "g-late", Map.of(0, at(70)))));

            Map<String, String> config = syncingGroups("pit-backup", "pit-standby", bootstrap);
            config.put("until.offset", "0:59");
            cluster.deploy(name, config);
            Awaitility.await("the first group sync").atMost(WAIT).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .until(() -> cluster.connectorMetric(name, "groups-snapshot-timestamp-seconds") > 0);
            assertThat(cluster.connectorMetric(name, "groups-snapshot-timestamp-seconds")).as("the snapshot synced from")
                    .isEqualTo(t1 / 1000);
            Awaitility.await("restored up to the cut").atMost(WAIT).until(() -> highWatermark(bootstrap, "pit-standby", 0) == 60);
            awaitGroup(admin, "g", Map.of(tp, 45L));
            awaitGroup(admin, "g-ahead", Map.of(tp, 60L));
            assertThat(offsets(admin, "g-late")).as("only in the snapshot after the cut").isEmpty();
        }
        cluster.delete(name);
    }

    /**
     * A partition of the groups' snapshot that the standby does not have yet (the source topic grew, its backup has not
     * started and the standby topic was not grown) is skipped, alone: the other partitions and groups are synced, the
     * metric counts it.
     */
    @Test
    void aPartitionMissingOnTheStandbyIsSkippedAndTheRestSynced() throws Exception {
        String name = "grown-follow";
        String bootstrap = cluster.bootstrapServers();
        TopicPartition t0 = new TopicPartition("grown-standby", 0);
        createTopic(bootstrap, "grown-standby", 1);
        try (Store store = new FilesystemStore(root, "grown-backup");
             Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            writeObject(store, 0, 0, 99, records(TOPIC, 0, 0, 99, o -> true));
            new MetaSnapshots(store, ObjectEncryption.none()).writeGroups(new GroupSnapshot(System.currentTimeMillis() - 10_000, TOPIC,
                    Map.of(0, 100L, 1, 100L), Map.of("grown-a", Map.of(0, at(40), 1, at(60)), "grown-only-1", Map.of(1, at(10)))));
            Map<String, String> config = syncingGroups("grown-backup", "grown-standby", bootstrap);
            cluster.deploy(name, config);
            awaitGroup(admin, "grown-a", Map.of(t0, 40L)); // group ids of their own: the cluster is the class's
            cluster.awaitConnectorMetric(name, "group-partitions-missing", 1, WAIT);
            cluster.awaitConnectorMetric(name, "groups-synced", 1, WAIT);
            assertThat(offsets(admin, "grown-only-1")).as("its only partition is missing on the standby").isEmpty();
        }
        cluster.delete(name);
    }

    @Test
    void renumberIsRefused() {
        Map<String, String> config = sourceConfig(TOPIC, root, BACKUP, STANDBY, "renumber", cluster.bootstrapServers());
        config.put("groups.sync", "true");
        assertThat(ChainSourceTestSupport.errors(cluster.validate(ChainSourceConnector.class.getName(), config)).get("groups.sync"))
                .as("validate() errors of groups.sync").anySatisfy(m -> assertThat(m).contains("groups.sync=true needs offsets=preserve"));
    }

    /** A standby with preserved offsets that syncs the backup's groups every 300 ms. */
    private static Map<String, String> syncingGroups(String backup, String standby, String bootstrap) {
        Map<String, String> config = sourceConfig(TOPIC, root, backup, standby, "preserve", bootstrap);
        config.put("groups.sync", "true");
        config.put("groups.interval.ms", "300");
        return config;
    }

    private static CommittedOffset at(long offset) {
        return new CommittedOffset(offset, "m" + offset);
    }

    private static GroupSnapshot snapshot(long timeMs, Map<String, Map<Integer, CommittedOffset>> groups) {
        return new GroupSnapshot(timeMs, TOPIC, Map.of(0, 100L, 1, 100L), groups);
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, String group) throws Exception {
        Map<TopicPartition, Long> m = new HashMap<>();
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).forEach((tp, o) -> {
            if (o != null) {
                m.put(tp, o.offset());
            }
        });
        return m;
    }

    private static void awaitGroup(Admin admin, String group, Map<TopicPartition, Long> expected) {
        Awaitility.await("group " + group + " on the standby at " + expected).atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> offsets(admin, group).equals(expected));
    }
}
