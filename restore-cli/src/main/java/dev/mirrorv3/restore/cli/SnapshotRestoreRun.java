package dev.mirrorv3.restore.cli;

import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.snapshot.SnapshotChoice;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.restore.RestoreCheckException;
import dev.mirrorv3.kafka.restore.RestoreOptions;
import dev.mirrorv3.kafka.restore.RestoreResult;
import dev.mirrorv3.kafka.restore.RestoredPartition;
import dev.mirrorv3.kafka.restore.SnapshotRestorer;
import dev.mirrorv3.kafka.restore.TargetTopic;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * {@code mirror-v3 restore} of a compaction=log backup (the connector's {@code compaction} setting says so): the verify
 * pass checks each partition's chosen snapshot (the newest, or the newest at or before --until-offset/--until-timestamp;
 * with --verify-only, every snapshot), then the snapshot is produced in key order into the empty target. --offsets preserve is refused: a
 * snapshot has holes by construction.
 */
final class SnapshotRestoreRun {
    private final Backup backup;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Clock clock;

    SnapshotRestoreRun(Backup backup, PrintWriter out, PrintWriter err, Clock clock) {
        this.backup = backup;
        this.out = out;
        this.err = err;
        this.clock = clock;
    }

    /** Whether the connector writes snapshots (compaction=log) rather than a chain. */
    static boolean applies(Backup b) {
        return "log".equalsIgnoreCase(b.connector().settings().getOrDefault("compaction", "none").trim());
    }

    /**
     * Refuses what a snapshot cannot do ({@code --offsets preserve}), then the verify pass, {@code --create-topic} (also as a
     * {@code --dry-run}) and the restore. {@code --groups} is refused before this (RestoreCommand).
     *
     * @param c the command's options: the cut (per partition the newest snapshot at or before it, {@link SnapshotChoice}),
     *     the report (written also when a check fails), the disaster-recovery options
     */
    int run(RestoreCommand c) throws Exception {
        if (c.offsets == OffsetMode.PRESERVE) {
            err.println("error: " + SnapshotRestorer.PRESERVE_REFUSED);
            err.flush();
            return ExitCodes.CHECK_FAILED;
        }
        boolean verifyOnly = c.verifyOnly;
        ReportOptions report = c.report;
        String topic = c.topic != null ? c.topic : backup.sourceTopic();
        try (Store store = backup.openStore()) {
            List<Integer> partitions = c.partition != null ? List.of(c.partition) : store.partitions();
            if (partitions.isEmpty()) {
                throw new dev.mirrorv3.chain.ChainException(store.location(0).replaceAll("/0$", "") + " holds no partition directories:"
                        + " no backup of " + backup.sourceTopic() + " there (check filesystem.root and destination.name)");
            }
            RestoreCut restoreCut = c.cut.cut(partitions);
            RestoreEvidence evidence = new RestoreEvidence(backup, c.offsets.cliName(), restoreCut, verifyOnly, clock);
            long verifyStart = System.nanoTime();
            SnapshotRestorer restorer = new SnapshotRestorer(store, backup.envelope(), backup.sourceTopic(), backup.keys(),
                    Path.of(System.getProperty("java.io.tmpdir")));
            List<SnapshotRestorer.Verified> ok = new ArrayList<>();
            boolean failed = false;
            for (int p : partitions) {
                try {
                    SnapshotRestorer.Verified v = restorer.verify(p, restoreCut, verifyOnly, n -> { });
                    out.println("backup: " + v.location() + " (connector " + backup.connector().name() + ", destination "
                            + backup.destinationName() + ", compaction=log)");
                    out.println("source: " + backup.sourceTopic() + "/" + p);
                    out.println("snapshots: " + v.snapshots() + (verifyOnly ? " (all checked)" : ""));
                    out.println("snapshot: " + v.snapshot() + " (state up to offset " + v.snapshot().to() + "; " + v.reason() + ")");
                    out.println("keys: " + v.keys());
                    out.println();
                    ok.add(v);
                    evidence.verified(v);
                } catch (RuntimeException e) {
                    if (ExecutionExceptionHandler.exitCode(e) < 0) {
                        throw e;
                    }
                    err.println("error: partition " + p + ": " + Failures.describe(e));
                    evidence.failed(p, Failures.describe(e));
                    failed = true;
                }
            }
            evidence.verifyDuration(Duration.ofNanos(System.nanoTime() - verifyStart).toMillis());
            out.flush();
            err.flush();
            if (failed) {
                report.write(evidence, err);
                return ExitCodes.CHECK_FAILED;
            }
            DisasterRecovery recovery = new DisasterRecovery(c.dr, c.offsets, topic, Duration.ofMillis(c.timeoutMs), store, backup,
                    restoreCut, out, clock);
            if (!verifyOnly) {
                recovery.prepareTopic(ok.stream().map(RestoredPartition::of).toList(), c.acceptRetention, c.acceptLogAppendTime);
            }
            if (verifyOnly || c.dr.dryRun) {
                return report.write(evidence, err) ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
            }
            Map<String, Object> client = c.target.clientConfig();
            Map<String, Object> adminConfig = new LinkedHashMap<>(client);
            adminConfig.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "mirror-v3-restore-admin");
            adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) c.timeoutMs);
            adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(c.timeoutMs, Integer.MAX_VALUE));
            Duration timeout = Duration.ofMillis(c.timeoutMs);
            try (LogOffsets offsetsOfTarget = new LogOffsets(Admin.create(adminConfig), timeout)) {
                RestoreOptions options = new RestoreOptions(c.offsets, c.acceptRetention, true, c.originalOffsetHeader, clock, null);
                RestoreResult result;
                try {
                    recovery.beforeRecords(offsetsOfTarget, "target " + c.target.bootstrapServers);
                    TargetTopic t = TargetTopic.inspect(offsetsOfTarget.admin(), topic, timeout);
                    try {
                        restorer.preCheck(ok, offsetsOfTarget, t, options);
                    } catch (RestoreCheckException e) {
                        recovery.deleteCreated(offsetsOfTarget);
                        throw e;
                    }
                    result = restorer.restore(ok, offsetsOfTarget, t, client, options, n -> { });
                } catch (Exception e) {
                    evidence.restoreFailed(topic, c.target.bootstrapServers, e);
                    report.write(evidence, err);
                    throw e;
                }
                out.println("restored: " + result.records() + " records (one per key) into " + topic + " partitions "
                        + result.recordsPerPartition().keySet() + " (--offsets renumber, snapshots in key order) in "
                        + String.format(Locale.ROOT, "%.1f", result.elapsedMs() / 1000.0) + " s");
                out.flush();
                evidence.restored(topic, c.target.bootstrapServers, result);
                return report.write(evidence, err) ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
            }
        }
    }
}
