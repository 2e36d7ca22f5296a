package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.restore.cli.report.RestoreReport;
import dev.mirrorv3.testsupport.TestConsumers;
import dev.mirrorv3.testsupport.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/**
 * Group restores from a backup whose destination also holds group snapshots of another topic of the same name (the
 * source topic deleted and created again): restore takes the newest snapshot of the backup's own topic (the id of its
 * newest {@code _meta/topic/} snapshot), skips the others, and says which groups it skipped and why.
 */
class GroupIncarnationRestoreIT extends RestoreIntoBrokerBase {
    private static final String OLD_ID = Uuid.randomUuid().toString();
    private static final String NEW_ID = Uuid.randomUuid().toString();

    /**
     * The backup of the old topic "reborn" (records 0-99, its id recorded), a group snapshot of it, and a newer one taken
     * after the topic was created again, with the new topic's id: as a version that did not tell them apart, or a
     * second connector sharing the destination, could leave it.
     */
    private String backup(String name) throws Exception {
        TestBackups.write(root(), name, 0, 0, TestBackups.records("reborn", 0, 0, 99, o -> true), 50);
        FilesystemStore store = new FilesystemStore(root(), name);
        recordTopicId(store);
        writeGroups(store, TestBackups.BASE_TS + 50, OLD_ID, "{\"g-kept\":{\"0\":{\"offset\":40,\"metadata\":\"\"}},"
                + "\"g-both\":{\"0\":{\"offset\":30,\"metadata\":\"\"}}}");
        writeGroups(store, TestBackups.BASE_TS + 90, NEW_ID, "{\"g-both\":{\"0\":{\"offset\":3,\"metadata\":\"\"}},"
                + "\"g-new\":{\"0\":{\"offset\":2,\"metadata\":\"\"}}}");
        return TestBackups.connectorJson(dir, name, "reborn", root()).toString();
    }

    /** The backup's topic id, as the blob sink records it when it opens the partitions. */
    private static void recordTopicId(FilesystemStore store) {
        TopicSnapshot topic = new TopicSnapshot(TestBackups.BASE_TS, "reborn", OLD_ID, 1, 1, Map.of());
        new MetaSnapshots(store, ObjectEncryption.none()).writeTopic(topic);
    }

    /** A group snapshot as stored: the JSON of _meta/groups/, with {@code topic_id} when {@code topicId} is not null. */
    private static void writeGroups(FilesystemStore store, long timeMs, String topicId, String groups) {
        String json = "{\"format_version\":1,\"kind\":\"groups\",\"time_ms\":" + timeMs + ",\"topic\":\"reborn\""
                + (topicId == null ? "" : ",\"topic_id\":\"" + topicId + "\"") + ",\"chain_next_offsets\":{\"0\":100},\"groups\":"
                + groups + "}";
        store.createBeside(MetaSnapshots.GROUPS_DIR, new MetaName(timeMs, null).fileName(), json.getBytes(StandardCharsets.UTF_8));
    }

    private String location(String backup, long timeMs) {
        return root().resolve(backup) + "/" + MetaSnapshots.GROUPS_DIR + "/" + new MetaName(timeMs, null).fileName();
    }

    @Test
    void theNewestSnapshotOfTheBackupsTopicIsRestoredAndTheSkippedGroupIsNamed() throws Exception {
        String config = backup("reborn-backup");
        String older = location("reborn-backup", TestBackups.BASE_TS + 50);
        String newer = location("reborn-backup", TestBackups.BASE_TS + 90);
        broker.createTopic("reborn-restored", 1, Map.of("retention.ms", "-1"));
        Path report = dir.resolve("reborn.json");

        CliRun r = restoreInto(config, "preserve", "reborn-restored", "--groups", "g-.*", "--report", report.toString());

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("consumer-group offsets: " + older,
                "skipped consumer-group snapshot " + newer + " (taken ", "it records topic id " + NEW_ID
                        + ", and the backup holds the topic with id " + OLD_ID,
                "warning: group g-new not restored: its offsets are only in snapshots of another topic named reborn (topic id "
                        + NEW_ID + ", newest " + newer + ")")
                .containsPattern("g-both +0 +30 +30 +no").containsPattern("g-kept +0 +40 +40 +no")
                .doesNotContainPattern("g-new +0");
        assertThat(TestConsumers.committed(broker.admin(), "g-both", "reborn-restored")).isEqualTo(Map.of(0, 30L));
        assertThat(TestConsumers.committed(broker.admin(), "g-kept", "reborn-restored")).isEqualTo(Map.of(0, 40L));
        assertThat(TestConsumers.committed(broker.admin(), "g-new", "reborn-restored")).isEmpty();
        PointInTimeRestoreTest.assertValid(report);
        JsonNode json = RestoreReport.read(report);
        assertThat(json.path("groupSnapshot").asText()).isEqualTo(older);
        assertThat(json.path("groupsSkipped")).hasSize(1);
        JsonNode skipped = json.path("groupsSkipped").get(0);
        assertThat(skipped.path("group").asText()).isEqualTo("g-new");
        assertThat(skipped.path("snapshot").asText()).isEqualTo(newer);
        assertThat(skipped.path("topicId").asText()).isEqualTo(NEW_ID);
        assertThat(skipped.path("reason").asText()).contains("another topic named reborn", OLD_ID);
    }

    @Test
    void groupsOfWhichNoneCanBeRestoredFailTheRestoreBeforeAnythingIsProduced() throws Exception {
        String config = backup("none-backup");
        broker.createTopic("none-restored", 1, Map.of("retention.ms", "-1"));
        Path report = dir.resolve("none.json");

        CliRun r = restoreInto(config, "preserve", "none-restored", "--groups", "g-new", "--report", report.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("none of the consumer groups --groups selects can be restored: [g-new]",
                "topic id " + NEW_ID, "the backup holds the topic with id " + OLD_ID, "restore without --groups");
        assertThat(TestRecords.readToEnd(broker.bootstrapServers(), new TopicPartition("none-restored", 0), Duration.ofSeconds(30))
                .highWatermark()).as("nothing produced").isZero();
        assertThat(TestConsumers.committed(broker.admin(), "g-new", "none-restored")).isEmpty();
        PointInTimeRestoreTest.assertValid(report);
        JsonNode json = RestoreReport.read(report);
        assertThat(json.path("result").asText()).isEqualTo("failed");
        assertThat(json.path("error").asText()).contains("none of the consumer groups");
        assertThat(json.path("groupsSkipped").get(0).path("group").asText()).isEqualTo("g-new");
    }

    /** A snapshot written before group snapshots recorded a topic id is restored as before, and restore says it cannot tell. */
    @Test
    void aSnapshotWithoutATopicIdIsStillRestored() throws Exception {
        TestBackups.write(root(), "legacy-backup", 0, 0, TestBackups.records("reborn", 0, 0, 99, o -> true), 50);
        FilesystemStore store = new FilesystemStore(root(), "legacy-backup");
        recordTopicId(store);
        writeGroups(store, TestBackups.BASE_TS + 50, null, "{\"g-old\":{\"0\":{\"offset\":40,\"metadata\":\"\"}}}");
        String config = TestBackups.connectorJson(dir, "legacy-backup", "reborn", root()).toString();
        broker.createTopic("legacy-restored", 1, Map.of("retention.ms", "-1"));

        CliRun r = restoreInto(config, "preserve", "legacy-restored", "--groups", "g-.*");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("note: " + location("legacy-backup", TestBackups.BASE_TS + 50) + " records no topic id");
        assertThat(TestConsumers.committed(broker.admin(), "g-old", "legacy-restored")).isEqualTo(Map.of(0, 40L));
    }

}
