package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
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
import dev.mirrorv3.restore.cli.report.RestoreReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.apache.parquet.hadoop.ParquetWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --until-timestamp} on a compaction=log backup: a delete stamped after the cut leaves no record in the snapshot
 * that took it, and must still keep that snapshot from being chosen (verify-only: no cluster).
 */
class SnapshotUntilTimestampTest {
    @TempDir
    Path dir;

    private static BackupRecord record(long offset, long timestampMs, String key, String value) {
        return new BackupRecord("kv", 0, offset, timestampMs, TimestampType.CREATE_TIME, key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8), List.of());
    }

    private Path config(Path root) throws Exception {
        Path config = dir.resolve("kv-backup.json");
        Files.writeString(config, Files.readString(TestBackups.connectorJson(dir, "kv-backup", "kv", root))
                .replace("\"tasks.max\"", "\"compaction\":\"log\",\"tasks.max\""));
        return config;
    }

    @Test
    void aSnapshotThatTookADeleteStampedAfterTheCutIsNotChosenSoTheDeletedKeyIsRestored() throws Exception {
        Path root = Files.createDirectory(dir.resolve("backups"));
        FilesystemStore store = new FilesystemStore(root, "kv-backup");
        SnapshotWriter w = new SnapshotWriter(store, "kv", 0, new SnapshotWriter.Settings(TestBackups.SETTINGS,
                new ParquetCodec(TestBackups.SETTINGS), new SnapshotReader(store, TestBackups.SETTINGS, KeyRing.empty()),
                new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000), Clock.systemUTC(), 1 << 20),
                ChainHead.empty(store.location(0)), 0, dir.resolve("spill"));
        w.append(record(0, 1_000, "k1", "v1"));
        w.append(record(1, 1_001, "k2", "v2"));
        ObjectName both = w.flush(FlushTrigger.TIME).orElseThrow().name();
        w.append(record(2, 2_000, "k2", null)); // k2 deleted at 2000: the next snapshot holds k1@1000 only
        ObjectName afterDelete = w.flush(FlushTrigger.TIME).orElseThrow().name();
        Path report = dir.resolve("verify.json");

        CliRun r = CliRun.run("restore", "--connector-config", config(root).toString(), "--offsets", "renumber", "--verify-only",
                "--until-timestamp", Instant.ofEpochMilli(1_500).toString(), "--report", report.toString(), "--progress", "none");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).as("k2 was live at 1500").contains("snapshot: " + both, "keys: 2",
                "the newer " + afterDelete + " took a record stamped 1970-01-01T00:00:02Z");
        assertThat(RestoreReport.read(report).at("/partitions/0/records").asLong()).isEqualTo(2);
    }

    @Test
    void aSnapshotWithoutTheRecordedStampsIsNotChosenForATimestampOnAGuess() throws Exception {
        Path root = Files.createDirectory(dir.resolve("backups"));
        FilesystemStore store = new FilesystemStore(root, "kv-backup");
        // As an earlier version wrote it: k1@1000 only, the stamps of what it took (a delete of k2 at 2000) not recorded.
        ObjectName old = ObjectName.plain(0, 2, EnvelopeFormat.PARQUET);
        Path file = dir.resolve("old.parquet");
        try (ParquetWriter<BackupRecord> out = new ParquetCodec(TestBackups.SETTINGS).openWriter(file, 1 << 20, SnapshotWriter.FOOTER)) {
            out.write(record(0, 1_000, "k1", "v1"));
        }
        store.create(0, old.fileName(), Files.readAllBytes(file));

        CliRun byTime = CliRun.run("restore", "--connector-config", config(root).toString(), "--offsets", "renumber", "--verify-only",
                "--until-timestamp", Instant.ofEpochMilli(1_500).toString(), "--progress", "none");
        assertThat(byTime.exitCode()).as(byTime.toString()).isEqualTo(1);
        assertThat(byTime.err()).contains(root.resolve("kv-backup/0") + "/" + old + " does not record the timestamps of the records"
                + " it took", "Restore with --until-offset");

        CliRun byOffset = CliRun.run("restore", "--connector-config", config(root).toString(), "--offsets", "renumber", "--verify-only",
                "--until-offset", "0:2", "--progress", "none");
        assertThat(byOffset.exitCode()).as("an offset bound needs no stamps: " + byOffset).isZero();
    }
}
