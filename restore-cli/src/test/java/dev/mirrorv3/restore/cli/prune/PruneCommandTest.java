package dev.mirrorv3.restore.cli.prune;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mirror-v3 prune on a filesystem backup: offsets 0-399 in objects of 100, each record stamped BASE_TS + its offset. */
class PruneCommandTest {
    @TempDir
    Path dir;
    Path root;
    Path config;
    List<BackupRecord> records;
    List<ObjectName> objects;

    @BeforeEach
    void backup() throws Exception {
        root = Files.createDirectory(dir.resolve("backups"));
        records = TestBackups.records("orders", 0, 0, 399, o -> o % 7 != 3);
        objects = TestBackups.write(root, "orders-backup", 0, 0, records, 100);
        config = TestBackups.connectorJson(dir, "orders-backup", "orders", root);
    }

    String before(long offset) {
        return Instant.ofEpochMilli(TestBackups.BASE_TS + offset).toString();
    }

    @Test
    void removesTheOldObjectsAndARestoreThenHoldsTheRecordsFromTheNewStart() throws Exception {
        CliRun dry = CliRun.run("prune", "--connector-config", config.toString(), "--before", before(250), "--dry-run");
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.out()).contains("would remove ", objects.get(0) + " (", objects.get(1) + " (", " bytes)",
                "prune (dry run): 2 objects");
        Path dryReport = dir.resolve("dry.json");
        CliRun.run("prune", "--connector-config", config.toString(), "--before", before(250), "--dry-run", "--report",
                dryReport.toString());
        assertThat(PruneReportSchema.checked(dryReport).get("dry_run").asBoolean()).isTrue();
        assertThat(Files.list(root.resolve("orders-backup/0")).count()).as("a dry run removes nothing").isEqualTo(4);

        Path report = dir.resolve("prune.json");
        Path metrics = dir.resolve("prune.prom");
        CliRun run = CliRun.run("prune", "--connector-config", config.toString(), "--before", before(250), "--report",
                report.toString(), "--metrics-file", metrics.toString());
        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode json = PruneReportSchema.checked(report);
        JsonNode p0 = json.get("partitions").get(0);
        assertThat(p0.get("new_start").asLong()).isEqualTo(objects.get(2).from());
        assertThat(p0.get("removed")).hasSize(2);
        assertThat(p0.get("kept_objects").asLong()).isEqualTo(2);
        assertThat(Files.readString(metrics)).contains("mirror_v3_prune_removed_objects{connector=\"orders-backup\","
                + "topic=\"orders\",dry_run=\"false\"} 2", "mirror_v3_prune_kept_objects{", "} 2\n");

        FilesystemStore store = new FilesystemStore(root, "orders-backup");
        ChainReader reader = new ChainReader(store, EnvelopeSettings.parquetBytes());
        List<BackupRecord> left = new ArrayList<>();
        for (ObjectName o : reader.listChain(0, OptionalLong.empty()).objects()) {
            left.addAll(reader.read(0, o, "orders").records());
        }
        assertThat(left).as("the topic's records from the new start").containsExactlyElementsOf(
                records.stream().filter(r -> r.offset() >= objects.get(2).from()).toList());
        CliRun verify = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--progress", "none");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).contains("records: " + records.stream().filter(r -> r.offset() >= objects.get(2).from()).count());
    }

    @Test
    void removesTheOldMetaSnapshotsButTheOnesARestoreInTheKeptWindowTakesAndCountsThem() throws Exception {
        MetaSnapshots meta = new MetaSnapshots(new FilesystemStore(root, "orders-backup"), ObjectEncryption.none());
        for (long at : new long[] {0, 100, 300}) {
            meta.writeTopic(new TopicSnapshot(TestBackups.BASE_TS + at, "orders", "AbCdEfGhIjKlMnOpQrStUv", 1, 3, Map.of()));
        }
        for (long at : new long[] {50, 200, 390}) {
            meta.writeGroups(new GroupSnapshot(TestBackups.BASE_TS + at, "orders", "AbCdEfGhIjKlMnOpQrStUv", Map.of(0, at),
                    Map.of("billing", Map.of(0, new GroupSnapshot.CommittedOffset(at, "")))));
        }
        String metaDir = root.resolve("orders-backup/_meta") + "/";
        CliRun dry = CliRun.run("prune", "--connector-config", config.toString(), "--before", before(250), "--dry-run");
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.out()).contains("would remove " + metaDir + "topic/" + new MetaName(TestBackups.BASE_TS, null) + " (",
                "would remove " + metaDir + "groups/" + new MetaName(TestBackups.BASE_TS + 50, null) + " (",
                "_meta/: 2 snapshots (", "would be removed, 4 kept");
        assertThat(meta.topicNames()).as("a dry run removes nothing").hasSize(3);

        Path report = dir.resolve("prune.json");
        Path metrics = dir.resolve("prune.prom");
        CliRun run = CliRun.run("prune", "--connector-config", config.toString(), "--before", before(250), "--report",
                report.toString(), "--metrics-file", metrics.toString());
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(meta.topicNames()).extracting(n -> n.timeMs() - TestBackups.BASE_TS).as("the newest at or before the cut stays")
                .containsExactly(100L, 300L);
        assertThat(meta.groupNames()).extracting(n -> n.timeMs() - TestBackups.BASE_TS).containsExactly(200L, 390L);
        JsonNode json = PruneReportSchema.checked(report);
        assertThat(json.at("/meta/removed")).extracting(n -> n.get("dir").asText()).containsExactly("_meta/topic", "_meta/groups");
        assertThat(json.at("/meta/removed/0/bytes").asLong()).isPositive();
        assertThat(json.at("/meta/kept_objects").asLong()).isEqualTo(4);
        assertThat(Files.readString(metrics)).contains("mirror_v3_prune_meta_removed_objects{connector=\"orders-backup\","
                + "topic=\"orders\",dry_run=\"false\"} 2", "mirror_v3_prune_meta_kept_objects{", "} 4\n",
                "mirror_v3_prune_meta_locked_objects{");

        CliRun one = CliRun.run("prune", "--connector-config", config.toString(), "--keep", "1d", "--partition", "0", "--report",
                report.toString());
        assertThat(one.out()).as(one.toString()).contains("_meta/ left (--partition)");
        assertThat(meta.topicNames()).as("--partition leaves the backup's metadata").hasSize(2);
        assertThat(PruneReportSchema.checked(report).get("meta").isNull()).isTrue();
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(CliRun.run("prune", "--connector-config", config.toString()).exitCode()).isEqualTo(2);
        assertThat(CliRun.run("prune", "--connector-config", config.toString(), "--keep", "soon").err())
                .contains("--keep soon is not a duration");
        assertThat(PruneCommand.duration("30d")).hasDays(30);
        assertThat(PruneCommand.duration("P1D")).hasHours(24);
    }

    @Test
    void helpExplainsPrune() {
        CliRun r = CliRun.run("prune", "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("newest record's timestamp", "--dry-run", "--keep", "--before", "Object Lock", "recorded");
    }
}
