package dev.mirrorv3.restore.cli.prune;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
        assertThat(Files.list(root.resolve("orders-backup/0")).count()).as("a dry run removes nothing").isEqualTo(4);

        Path report = dir.resolve("prune.json");
        Path metrics = dir.resolve("prune.prom");
        CliRun run = CliRun.run("prune", "--connector-config", config.toString(), "--before", before(250), "--report",
                report.toString(), "--metrics-file", metrics.toString());
        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode json = new ObjectMapper().readTree(report.toFile());
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
