package dev.mirrorv3.restore.cli.restore;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.restore.cli.Backup;
import dev.mirrorv3.restore.cli.ExitCodes;
import dev.mirrorv3.restore.cli.TargetOptions;
import dev.mirrorv3.restore.cli.report.ReportOptions;
import dev.mirrorv3.restore.cli.report.RestoreEvidence;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;

/**
 * What a restore run works with, a chain's ({@link ChainRestoreRun}) or a compaction=log backup's
 * ({@link SnapshotRestoreRun}): the backup, the settings, the target cluster, the evidence's options, the output and the
 * one clock of a restore (the evidence's times, the retention checks, the wait for a created topic).
 */
record RestoreRun(Backup backup, RestoreSettings settings, TargetOptions target, ReportOptions report, PrintWriter out,
        PrintWriter err, Clock clock) {

    /** The topic restored into: --topic, else (--verify-only, --dry-run) the backed-up topic's name. */
    String targetTopic() {
        return settings.topic() != null ? settings.topic() : backup.sourceTopic();
    }

    /** --partition, else every partition directory of the backup; none is an error that names where it looked. */
    List<Integer> partitions(Store store) {
        List<Integer> partitions = settings.partition() != null ? List.of(settings.partition()) : store.partitions();
        if (partitions.isEmpty()) {
            throw new ChainException(store.location(0).replaceAll("/0$", "") + " holds no partition directories: no backup of "
                    + backup.sourceTopic() + " there (check filesystem.root and destination.name)");
        }
        return partitions;
    }

    /** The evidence of this run, started now. */
    RestoreEvidence evidence(RestoreCut cut) {
        return new RestoreEvidence(new RestoreEvidence.Request(backup, settings.offsets().cliName(), cut, settings.verifyOnly()), clock);
    }

    DisasterRecovery recovery(Store store, RestoreCut cut) {
        return new DisasterRecovery(this, store, cut);
    }

    /** restore's admin client on the target ({@link TargetOptions#restoreAdminConfig}), as the target's offsets. */
    LogOffsets openTarget() {
        return new LogOffsets(Admin.create(target.restoreAdminConfig(settings.timeout())), settings.timeout());
    }

    /** The evidence of a run a check failed, written; the exit code. */
    int checkFailed(RestoreEvidence evidence) {
        report.write(evidence, err);
        return ExitCodes.CHECK_FAILED;
    }

    /** The evidence of a run whose checks passed, written; evidence that cannot be written fails the run. */
    int finish(RestoreEvidence evidence) {
        return report.write(evidence, err) ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }

    /** A restore that failed after the verify pass: its evidence says where, and is written before the failure goes on. */
    Exception failed(RestoreEvidence evidence, Exception e) {
        evidence.restoreFailed(targetTopic(), target.bootstrapServers, e);
        report.write(evidence, err);
        return e;
    }
}
