package dev.mirrorv3.testsupport;

/** Stopping what a test resource started. */
public final class Closeables {
    private Closeables() {
    }

    /**
     * Closes the parts in the order given, each even when one before it failed, so that a failed stop leaks no broker
     * or thread into the next test class; nulls (parts never started) are skipped. The first failure is thrown, the
     * later ones suppressed in it.
     */
    public static void closeAll(String what, AutoCloseable... parts) {
        Exception first = null;
        for (AutoCloseable part : parts) {
            if (part == null) {
                continue;
            }
            try {
                part.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw new IllegalStateException("cannot stop " + what, first);
        }
    }
}
