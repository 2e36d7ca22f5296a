package dev.mirrorv3.quickstart;

/**
 * The one check of the tools' command lines (the quickstart's, the torture suite's and the benches' mains): a wrong
 * number of arguments prints {@code usage: <the usage line>} to standard error and exits with status 2.
 */
public final class Usage {
    private Usage() {
    }

    /** Exactly {@code count} arguments, or the usage and exit 2. */
    public static void exactly(String[] args, int count, String usage) {
        if (args.length != count) {
            exit(usage);
        }
    }

    /** At least {@code count} arguments (the rest optional), or the usage and exit 2. */
    public static void atLeast(String[] args, int count, String usage) {
        if (args.length < count) {
            exit(usage);
        }
    }

    /** Prints the usage and exits with status 2, for a command line that is wrong in another way. */
    public static void exit(String usage) {
        System.err.println("usage: " + usage);
        System.exit(2);
    }
}
