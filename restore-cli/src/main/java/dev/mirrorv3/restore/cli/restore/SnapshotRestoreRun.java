package dev.mirrorv3.restore.cli.restore;

import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.snapshot.SnapshotChoice;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.restore.RestoreOptions;
import dev.mirrorv3.kafka.restore.RestoreResult;
import dev.mirrorv3.kafka.restore.RestoredPartition;
import dev.mirrorv3.kafka.restore.SnapshotRestorer;
import dev.mirrorv3.kafka.restore.TargetTopic;
import dev.mirrorv3.restore.cli.Backup;
import dev.mirrorv3.restore.cli.ExecutionExceptionHandler;
import dev.mirrorv3.restore.cli.ExitCodes;
import dev.mirrorv3.restore.cli.UsageException;
import dev.mirrorv3.restore.cli.report.RestoreEvidence;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code mirror-v3 restore} of a compaction=log backup (the connector's {@code compaction} setting says so): the verify
 * pass checks each partition's chosen snapshot (the newest, or the newest at or before --until-offset/--until-timestamp;
 * with --verify-only, every snapshot), then the snapshot is produced in key order into the empty target. --offsets preserve is refused: a
 * snapshot has holes by construction.
 */
final class SnapshotRestoreRun {
    /** Why --chain-start is refused on a snapshot backup. */
    static final String CHAIN_START_REFUSED = "--chain-start says where a chain starts whose oldest objects were removed, and %s"
            + " backs up with compaction=log: a series of snapshots, each a whole state of the topic, restored from the newest"
            + " snapshot (or the newest at or before --until-offset/--until-timestamp), so there is no chain start to give. Restore"
            + " without --chain-start. Nothing was written";

    private final RestoreRun run;

    SnapshotRestoreRun(RestoreRun run) {
        this.run = run;
    }

    /**
     * Refuses what a snapshot cannot do ({@code --groups}, {@code --offsets preserve}), then the verify pass,
     * {@code --create-topic} (also as a {@code --dry-run}) and the restore.
     *
     * @param cut per partition the newest snapshot at or before it ({@link SnapshotChoice})
     */
    int run(CutOptions cut) throws Exception {
        RestoreSettings s = run.settings();
        Backup backup = run.backup();
        if (s.dr().groups != null) {
            throw new UsageException("--groups cannot restore the consumer groups of " + backup.connector().name() + ": it backs up"
                    + " with compaction=log, and a snapshot is restored in key order at offsets 0, 1, 2, ..., so no offset of the"
                    + " restored topic stands for a backed-up group position. Restore without --groups, then set each group with"
                    + " kafka-consumer-groups.sh --reset-offsets --to-earliest (it reads the whole state again) or --to-latest."
                    + " Nothing was written");
        }
        if (s.offsets() == OffsetMode.PRESERVE) {
            run.err().println("error: " + SnapshotRestorer.PRESERVE_REFUSED);
            run.err().flush();
            return ExitCodes.CHECK_FAILED;
        }
        try (Store store = backup.openStore()) {
            List<Integer> partitions = run.partitions(store);
            RestoreCut restoreCut = cut.cut(partitions);
            RestoreEvidence evidence = run.evidence(restoreCut);
            SnapshotRestorer restorer = new SnapshotRestorer(store, backup.envelope(), backup.sourceTopic(), backup.keys(),
                    Path.of(System.getProperty("java.io.tmpdir")));
            Optional<List<SnapshotRestorer.Verified>> verified = verify(restorer, partitions, restoreCut, evidence);
            if (verified.isEmpty()) {
                return run.checkFailed(evidence);
            }
            DisasterRecovery recovery = run.recovery(store, restoreCut);
            if (!s.verifyOnly()) {
                recovery.prepareTopic(verified.get().stream().map(RestoredPartition::of).toList(), s.acceptRetention(),
                        s.acceptLogAppendTime());
            }
            if (s.verifyOnly() || s.dr().dryRun) {
                return run.finish(evidence);
            }
            try {
                produce(restorer, verified.get(), evidence, recovery);
            } catch (Exception e) {
                throw run.failed(evidence, e);
            }
            return run.finish(evidence);
        }
    }

    /**
     * The verify pass with its summary; the partitions' chosen snapshots, or empty when one failed (said on stderr and in
     * the evidence).
     */
    private Optional<List<SnapshotRestorer.Verified>> verify(SnapshotRestorer restorer, List<Integer> partitions, RestoreCut restoreCut,
            RestoreEvidence evidence) {
        Backup backup = run.backup();
        boolean verifyOnly = run.settings().verifyOnly();
        PrintWriter out = run.out();
        long verifyStart = System.nanoTime();
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
                run.err().println("error: partition " + p + ": " + Failures.describe(e));
                evidence.failed(p, Failures.describe(e));
                failed = true;
            }
        }
        evidence.verifyDuration(Duration.ofNanos(System.nanoTime() - verifyStart).toMillis());
        out.flush();
        run.err().flush();
        return failed ? Optional.empty() : Optional.of(ok);
    }

    private void produce(SnapshotRestorer restorer, List<SnapshotRestorer.Verified> ok, RestoreEvidence evidence,
            DisasterRecovery recovery) throws Exception {
        RestoreSettings s = run.settings();
        String topic = run.targetTopic();
        try (LogOffsets offsetsOfTarget = run.openTarget()) {
            RestoreOptions options = new RestoreOptions(s.offsets(), s.acceptRetention(), s.acceptLogAppendTime(), s.originalOffsetHeader(),
                    run.clock(), null);
            recovery.beforeRecords(offsetsOfTarget, "target " + run.target().bootstrapServers);
            TargetTopic t = recovery.checkBeforeRecords(offsetsOfTarget, () -> {
                TargetTopic inspected = TargetTopic.inspect(offsetsOfTarget.admin(), topic, s.timeout());
                restorer.preCheck(ok, offsetsOfTarget, inspected, options);
                return inspected;
            });
            RestoreResult result = restorer.restore(ok, offsetsOfTarget, t, run.target().clientConfig(), options, n -> { });
            run.out().println("restored: " + result.records() + " records (one per key) into " + topic + " partitions "
                    + result.recordsPerPartition().keySet() + " (--offsets renumber, snapshots in key order) in "
                    + String.format(Locale.ROOT, "%.1f", result.elapsedMs() / 1000.0) + " s");
            run.out().flush();
            evidence.restored(topic, run.target().bootstrapServers, result);
        }
    }
}
