package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.GroupSnapshot.CommittedOffset;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.restore.cli.decrypt.DecryptTest;
import dev.mirrorv3.restore.cli.report.ReportMarkdown;
import dev.mirrorv3.restore.cli.report.RestoreReport;
import dev.mirrorv3.testsupport.TestConsumers;
import dev.mirrorv3.testsupport.TestRecords;
import dev.mirrorv3.testsupport.TestRecords.PartitionContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Point-in-time restores into a real broker (one per class): only the prefix is sent, and the report is the evidence. */
class PointInTimeRestoreIT extends RestoreIntoBrokerBase {
    private static String iso(long offset) {
        return Instant.ofEpochMilli(TestBackups.BASE_TS + offset).toString();
    }

    @Test
    void timestampCutOfTwoPartitionsWithPreserveSendsOnlyThePrefixAndReportsWhatTheVerifyRunSaw() throws Exception {
        List<BackupRecord> p0 = new ArrayList<>();
        for (BackupRecord r : TestBackups.records("orders", 0, 0, 2999, o -> true)) { // a late-stamped record at 1700
            long ts = r.offset() == 1700 ? TestBackups.BASE_TS + 86_400_000L : r.timestampMs();
            p0.add(new BackupRecord(r.topic(), 0, r.offset(), ts, r.timestampType(), r.key(), r.value(), r.headers()));
        }
        List<BackupRecord> p1 = TestBackups.records("orders", 1, 0, 1999, o -> true);
        TestBackups.write(root(), "orders-backup", 0, 0, p0, 1000);
        TestBackups.write(root(), "orders-backup", 1, 0, p1, 800);
        String config = TestBackups.connectorJson(dir, "orders-backup", "orders", root()).toString();
        Path verifyReport = dir.resolve("verify.json");
        CliRun verify = CliRun.run("restore", "--connector-config", config, "--offsets", "preserve", "--verify-only",
                "--until-timestamp", iso(1800), "--report", verifyReport.toString(), "--progress", "none");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(highWatermarkOrMissing("orders-pitr")).as("verify-only writes nothing").isNull();

        broker.createTopic("orders-pitr", 2, Map.of("retention.ms", "-1"));
        Path drillReport = dir.resolve("drill.json");
        CliRun r = CliRun.run("restore", "--connector-config", config, "--offsets", "preserve", "--bootstrap-servers",
                broker.bootstrapServers(), "--topic", "orders-pitr", "--until-timestamp", iso(1800), "--report",
                drillReport.toString(), "--progress", "plain");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("up to offset 1699", "first excluded: offset 1700", "up to offset 1800", "first excluded: offset 1801",
                "restored: 3501 records into orders-pitr");
        assertPrefix("orders-pitr", 0, p0.subList(0, 1700), false);
        assertPrefix("orders-pitr", 1, p1.subList(0, 1801), false);

        PointInTimeRestoreTest.assertValid(drillReport);
        JsonNode drill = RestoreReport.read(drillReport);
        assertThat(drill.path("mode").asText()).isEqualTo("restore");
        assertThat(drill.path("target").path("topic").asText()).isEqualTo("orders-pitr");
        assertThat(drill.path("partitions").get(0).path("targetHighWatermarkBefore").asLong()).isZero();
        assertThat(drill.path("partitions").get(0).path("targetHighWatermarkAfter").asLong()).isEqualTo(1700);
        assertThat(drill.path("partitions").get(1).path("targetHighWatermarkAfter").asLong()).isEqualTo(1801);
        assertThat(drill.path("durationsMs").path("restore").asLong()).isPositive();
        CliRun compare = CliRun.run("compare-report", verifyReport.toString(), drillReport.toString());
        assertThat(compare.exitCode()).as(compare.toString()).isZero();
    }

    @Test
    void offsetCutOfAnEncryptedChainWithRenumber() throws Exception {
        Path keys = Files.createDirectories(dir.resolve("keys"));
        Files.writeString(keys.resolve("k1"), Base64.getEncoder().encodeToString(DecryptTest.K1));
        EnvelopeCodec encrypted = EnvelopeCodecs.forSettings(TestBackups.SETTINGS, new ObjectEncryption(KeyRing.load(keys), "k1"));
        List<BackupRecord> records = TestBackups.records("states", 0, 0, 1499, o -> o % 7 != 3); // holes; every object ends on a record
        FilesystemStore store = new FilesystemStore(root(), "states-backup");
        for (int from = 0; from < 1500; from += 500) {
            int f = from;
            List<BackupRecord> batch = records.stream().filter(x -> x.offset() >= f && x.offset() < f + 500).toList();
            ObjectName name = new ObjectName(from, batch.get(batch.size() - 1).offset(), TestBackups.SETTINGS.format(), "k1");
            store.create(0, name.fileName(), encrypted.encode(batch));
        }
        String config = TestBackups.connectorJson(dir, "states-backup", "states", root()).toString();
        broker.createTopic("states-pitr", 1, Map.of("retention.ms", "-1"));
        CliRun r = CliRun.run("restore", "--connector-config", config, "--keys-dir", keys.toString(), "--offsets", "renumber",
                "--bootstrap-servers", broker.bootstrapServers(), "--topic", "states-pitr", "--until-offset", "0:777",
                "--progress", "none");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<BackupRecord> prefix = records.stream().filter(x -> x.offset() <= 777).toList();
        assertThat(r.out()).contains("offsets: 0-777\nrecords: " + prefix.size() + "\n");
        assertPrefix("states-pitr", 0, prefix, true);
    }

    /**
     * Group snapshots before and after the cut: the one taken at or before it is used (timestamp cut: its time; offset
     * cut: the backup had not passed the cut when it was taken), and every offset is clamped to the restored prefix.
     */
    @Test
    void groupOffsetsComeFromTheSnapshotAtOrBeforeTheCutClampedToThePrefixInBothModes() throws Exception {
        TestBackups.write(root(), "pay-backup", 0, 0, TestBackups.records("pay", 0, 0, 1999, o -> true), 500);
        List<BackupRecord> compacted = TestBackups.records("pay", 0, 0, 1999, o -> o % 10 != 3);
        TestBackups.write(root(), "payc-backup", 0, 0, compacted, 500);
        for (String name : List.of("pay-backup", "payc-backup")) {
            MetaSnapshots meta = new MetaSnapshots(new FilesystemStore(root(), name), ObjectEncryption.none());
            meta.writeGroups(new GroupSnapshot(TestBackups.BASE_TS + 900, "pay", Map.of(0, 800L),
                    Map.of("g-early", Map.of(0, new CommittedOffset(600, "")), "g-ahead", Map.of(0, new CommittedOffset(1400, "m")))));
            meta.writeGroups(new GroupSnapshot(TestBackups.BASE_TS + 1500, "pay", Map.of(0, 1500L),
                    Map.of("g-early", Map.of(0, new CommittedOffset(1450, "")), "g-late", Map.of(0, new CommittedOffset(1300, "")))));
        }
        String before = MetaSnapshots.GROUPS_DIR + "/" + new MetaName(TestBackups.BASE_TS + 900, null).fileName();

        // Preserve, timestamp cut at 1000: the snapshot of 900 (the one of 1500 is after the cut), g-ahead clamped to 1001.
        String pay = TestBackups.connectorJson(dir, "pay-backup", "pay", root()).toString();
        broker.createTopic("pay-pitr", 1, Map.of("retention.ms", "-1"));
        CliRun r = restoreInto(pay, "preserve", "pay-pitr", "--until-timestamp", iso(1000), "--groups", "g-.*");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains(before, "the newest taken at or before the cut " + iso(1000), "1 newer snapshot(s) ignored")
                .containsPattern("g-early +0 +600 +600 +no").containsPattern("g-ahead +0 +1400 +1001 +to high watermark")
                .doesNotContain("g-late");
        assertThat(TestConsumers.committed(broker.admin(), "g-early", "pay-pitr")).isEqualTo(Map.of(0, 600L));
        assertThat(TestConsumers.committed(broker.admin(), "g-ahead", "pay-pitr")).isEqualTo(Map.of(0, 1001L));
        assertThat(TestConsumers.committed(broker.admin(), "g-late", "pay-pitr")).isEmpty();

        // Renumber, offset cut at 1000 (the snapshot of 1500 had the backup at 1500, past it): translated through the prefix.
        String payc = TestBackups.connectorJson(dir, "payc-backup", "pay", root()).toString();
        broker.createTopic("payc-pitr", 1, Map.of("retention.ms", "-1"));
        Path report = dir.resolve("payc.json");
        CliRun c = restoreInto(payc, "renumber", "payc-pitr", "--until-offset", "0:1000", "--groups", "g-.*", "--report",
                report.toString());
        assertThat(c.exitCode()).as(c.toString()).isZero();
        long prefix = compacted.stream().filter(x -> x.offset() <= 1000).count();
        long early = compacted.stream().filter(x -> x.offset() < 600).count();
        assertThat(c.out()).contains(before, "the backup had not passed the cut").doesNotContain("g-late")
                .containsPattern("g-ahead +0 +1400 +" + prefix + " +to high watermark");
        assertThat(TestConsumers.committed(broker.admin(), "g-early", "payc-pitr")).isEqualTo(Map.of(0, early));
        assertThat(TestConsumers.committed(broker.admin(), "g-ahead", "payc-pitr")).isEqualTo(Map.of(0, prefix));
        PointInTimeRestoreTest.assertValid(report);
        JsonNode groups = RestoreReport.read(report).path("groupOffsets");
        assertThat(groups).hasSize(2);
        assertThat(groups.get(0).path("group").asText()).isEqualTo("g-ahead");
        assertThat(groups.get(0).path("offset").asLong()).isEqualTo(prefix);
        assertThat(groups.get(0).path("backedUpOffset").asLong()).isEqualTo(1400);
        assertThat(groups.get(1).path("offset").asLong()).isEqualTo(early);
        assertThat(RestoreReport.read(report).path("groupSnapshot").asText()).endsWith(before);

        // A cut before every snapshot: refused before anything is produced.
        broker.createTopic("pay-early", 1, Map.of("retention.ms", "-1"));
        CliRun none = restoreInto(pay, "preserve", "pay-early", "--until-offset", "0:500", "--groups", ".*");
        assertThat(none.exitCode()).as(none.toString()).isEqualTo(1);
        assertThat(none.err()).contains("no consumer-group snapshot", "restore without --groups");
        assertThat(highWatermarkOrMissing("pay-early")).isZero();
    }

    /**
     * The newest group snapshot lacks a partition (taken while the backup had it closed, by a version that did not carry
     * it forward): restore commits nothing for the groups there and says so, in its output and in the report.
     */
    @Test
    void aRestoredPartitionOnWhichASelectedGroupHasNoOffsetIsNamedInTheOutputAndTheReport() throws Exception {
        for (int p = 0; p < 2; p++) {
            TestBackups.write(root(), "two-backup", p, 0, TestBackups.records("two", p, 0, 99, o -> true), 50);
        }
        MetaSnapshots meta = new MetaSnapshots(new FilesystemStore(root(), "two-backup"), ObjectEncryption.none());
        meta.writeGroups(new GroupSnapshot(TestBackups.BASE_TS + 50, "two", Map.of(0, 100L),
                Map.of("g-both", Map.of(0, new CommittedOffset(40, "")), "g-zero", Map.of(0, new CommittedOffset(60, "")))));
        String config = TestBackups.connectorJson(dir, "two-backup", "two", root()).toString();
        String warning = "warning: partition 1: no offset of group(s) [g-both, g-zero] in " + root().resolve("two-backup")
                + "/" + MetaSnapshots.GROUPS_DIR + "/" + new MetaName(TestBackups.BASE_TS + 50, null).fileName()
                + " (the snapshot does not cover the partition: taken while the backup did not have it open); nothing is committed"
                + " for them there, so their consumers start from auto.offset.reset";

        CliRun dry = CliRun.run("restore", "--connector-config", config, "--offsets", "preserve", "--groups", "g-.*", "--dry-run",
                "--progress", "none");
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.out()).contains(warning).doesNotContain("warning: partition 0");

        broker.createTopic("two-restored", 2, Map.of("retention.ms", "-1"));
        Path report = dir.resolve("two.json");
        CliRun r = restoreInto(config, "preserve", "two-restored", "--groups", "g-.*", "--report", report.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains(warning, "groups: committed 2 offset(s) of 2 group(s)");
        assertThat(TestConsumers.committed(broker.admin(), "g-both", "two-restored")).isEqualTo(Map.of(0, 40L));
        PointInTimeRestoreTest.assertValid(report);
        JsonNode without = RestoreReport.read(report).path("groupsWithoutOffset");
        assertThat(without).hasSize(2);
        assertThat(without.get(0).path("group").asText()).isEqualTo("g-both");
        assertThat(without.get(0).path("partition").asInt()).isEqualTo(1);
        assertThat(without.get(1).path("group").asText()).isEqualTo("g-zero");
        assertThat(ReportMarkdown.render(RestoreReport.JSON.treeToValue(RestoreReport.read(report), RestoreReport.class)))
                .contains("g-both on partition 1; g-zero on partition 1.");
    }

    private static Long highWatermarkOrMissing(String topic) throws Exception {
        if (!broker.admin().listTopics().names().get().contains(topic)) {
            return null;
        }
        return TestRecords.readToEnd(broker.bootstrapServers(), new TopicPartition(topic, 0), Duration.ofSeconds(30)).highWatermark();
    }

    /** The whole partition read back to its high watermark: exactly the prefix, nothing after the cut. */
    private static void assertPrefix(String topic, int partition, List<BackupRecord> expected, boolean renumber) {
        PartitionContent content = TestRecords.readToEnd(broker.bootstrapServers(), new TopicPartition(topic, partition),
                Duration.ofSeconds(60));
        assertThat(content.highWatermark()).as("high watermark of %s-%d", topic, partition)
                .isEqualTo(renumber ? expected.size() : expected.get(expected.size() - 1).offset() + 1);
        List<ConsumerRecord<byte[], byte[]>> got = content.records();
        assertThat(got).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(got.get(i).offset()).isEqualTo(renumber ? i : expected.get(i).offset());
            assertThat(got.get(i).value()).as("value at %d", expected.get(i).offset()).isEqualTo(expected.get(i).value());
            assertThat(got.get(i).timestamp()).isEqualTo(expected.get(i).timestampMs());
        }
    }
}
