package dev.mirrorv3.restore.cli;

/** The exit codes of every subcommand (docs/restore-cli.md, "Exit codes"). */
public final class ExitCodes {
    /** Everything checked and done. */
    public static final int OK = 0;
    /** A check failed: the backup, the target or a cluster (unreachable, not empty, a hole, a mismatch, ...). */
    public static final int CHECK_FAILED = 1;
    /** The command line or the connector config it names is wrong. */
    public static final int USAGE = 2;

    private ExitCodes() {
    }
}
