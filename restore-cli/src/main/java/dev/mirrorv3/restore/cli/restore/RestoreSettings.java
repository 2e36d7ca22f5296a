package dev.mirrorv3.restore.cli.restore;

import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.restore.cli.ProgressPrinter;
import java.time.Duration;

/**
 * One restore's settings as the command line gives them: what both kinds of run ({@link ChainRestoreRun},
 * {@link SnapshotRestoreRun}) and {@link DisasterRecovery} take.
 *
 * @param topic --topic; null with --verify-only or --dry-run, where the backed-up topic's name stands in
 * @param timeout --timeout-ms: of one query to the target cluster
 * @param partition --partition; null for all of the backup's
 */
record RestoreSettings(OffsetMode offsets, String topic, Duration timeout, boolean verifyOnly, Integer partition, long chainStart,
        boolean acceptRetention, boolean acceptLogAppendTime, String originalOffsetHeader, ProgressPrinter.Mode progress,
        DisasterRecoveryOptions dr) {
}
