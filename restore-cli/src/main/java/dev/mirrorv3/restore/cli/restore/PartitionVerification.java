package dev.mirrorv3.restore.cli.restore;

import dev.mirrorv3.chain.restore.VerifiedPartition;
import dev.mirrorv3.restore.cli.ExecutionExceptionHandler;

/** What the verify pass found for one partition of a chain backup: its chain checked, or the check failure. */
sealed interface PartitionVerification {

    int partition();

    /** The chain read and checked; whether it can be restored with the chosen --offsets is asked of it next. */
    record Passed(VerifiedPartition result) implements PartitionVerification {
        @Override
        public int partition() {
            return result.partition();
        }
    }

    /** A check failed (one the CLI reports with exit code 1, see {@link ExecutionExceptionHandler#exitCode}). */
    record Failed(int partition, Throwable cause) implements PartitionVerification {
    }
}
