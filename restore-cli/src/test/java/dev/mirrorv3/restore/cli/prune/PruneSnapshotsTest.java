package dev.mirrorv3.restore.cli.prune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mirror-v3 prune on a compaction=log backup on the filesystem: partition 0 has three snapshots (records stamped 1000,
 * 2000 and 3000 ms), partition 1 is idle with one snapshot of a record stamped 500 ms.
 */
class PruneSnapshotsTest {
    @TempDir
    Path dir;
    Path root;
    Path config;
    FilesystemStore store;
    List<ObjectName> p0 = new ArrayList<>();
    ObjectName idle;

    private static BackupRecord record(int partition, long offset, long timestampMs, String key, String value) {
        return new BackupRecord("kv", partition, offset, timestampMs, TimestampType.CREATE_TIME, key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8), List.of());
    }

    private SnapshotWriter writer(int partition) {
        return new SnapshotWriter(store, "kv", partition, new SnapshotWriter.Settings(TestBackups.SETTINGS,
                new ParquetCodec(TestBackups.SETTINGS), new SnapshotReader(store, TestBackups.SETTINGS, KeyRing.empty()),
                new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000), Clock.systemUTC(), 1 << 20),
                ChainHead.empty(store.location(partition)), 0, dir.resolve("spill-" + partition));
    }

    @BeforeEach
    void backup() throws Exception {
        root = Files.createDirectory(dir.resolve("backups"));
        store = new FilesystemStore(root, "kv-backup");
        SnapshotWriter w = writer(0);
        w.append(record(0, 0, 1_000, "k1", "v1"));
        w.append(record(0, 1, 1_000, "k2", "v2"));
        p0.add(w.flush(FlushTrigger.TIME).orElseThrow().name());
        w.append(record(0, 2, 2_000, "k2", null));
        p0.add(w.flush(FlushTrigger.TIME).orElseThrow().name());
        w.append(record(0, 3, 3_000, "k3", "v3"));
        p0.add(w.flush(FlushTrigger.TIME).orElseThrow().name());
        SnapshotWriter w1 = writer(1);
        w1.append(record(1, 0, 500, "k9", "v9"));
        idle = w1.flush(FlushTrigger.TIME).orElseThrow().name();
        config = dir.resolve("kv-backup.json");
        Files.writeString(config, Files.readString(TestBackups.connectorJson(dir, "kv-backup", "kv", root))
                .replace("\"tasks.max\"", "\"compaction\":\"log\",\"tasks.max\""));
    }

    List<String> names(int partition) throws Exception {
        try (var s = Files.list(root.resolve("kv-backup/" + partition))) {
            return s.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void removesTheSnapshotsOlderThanTheOneARestoreAtTheCutTakesNeverTheNewestNorAnIdlePartitionsOnlyOne() throws Exception {
        CliRun dry = CliRun.run("prune", "--connector-config", config.toString(), "--before", Instant.ofEpochMilli(2_500).toString(),
                "--dry-run");
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.out()).contains("would remove " + store.location(0) + "/" + p0.get(0) + " (");
        assertThat(names(0)).as("a dry run removes nothing").hasSize(3);

        Path report = dir.resolve("prune.json");
        CliRun run = CliRun.run("prune", "--connector-config", config.toString(), "--before", Instant.ofEpochMilli(2_500).toString(),
                "--report", report.toString());
        assertThat(run.exitCode()).as(run.toString()).isZero();
        var json = PruneReportSchema.checked(report);
        assertThat(json.get("kind").asText()).isEqualTo("snapshots");
        assertThat(json.at("/partitions/0/removed/0/object").asText()).isEqualTo(p0.get(0).fileName());
        assertThat(json.at("/partitions/1/removed")).isEmpty();
        assertThat(json.at("/partitions/1/kept_objects").asLong()).isEqualTo(1);
        assertThat(names(0)).as("the snapshot a restore at 2500 takes stays, and the newer").containsExactly(p0.get(1).fileName(),
                p0.get(2).fileName());
        assertThat(names(1)).as("an idle compacted partition keeps its only snapshot, however old").containsExactly(idle.fileName());
        CliRun atCut = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--until-timestamp", Instant.ofEpochMilli(2_500).toString(), "--progress", "none");
        assertThat(atCut.exitCode()).as(atCut.toString()).isZero();
        assertThat(atCut.out()).contains("snapshot: " + p0.get(1));

        CliRun late = CliRun.run("prune", "--connector-config", config.toString(), "--keep", "1d");
        assertThat(late.exitCode()).as(late.toString()).isZero();
        assertThat(names(0)).as("never the newest snapshot").containsExactly(p0.get(2).fileName());
        assertThat(names(1)).containsExactly(idle.fileName());
        CliRun newest = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--progress", "none");
        assertThat(newest.exitCode()).as(newest.toString()).isZero();
        assertThat(newest.out()).contains("snapshot: " + p0.get(2), "snapshot: " + idle);
    }
}
