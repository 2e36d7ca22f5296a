package dev.mirrorv3.chain;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Reads run on other threads (objects read ahead, manifests read at once), taken back with the read's own failure. */
public final class FutureReads {
    private FutureReads() {
    }

    /**
     * A read's result, or its failure as the read threw it (not wrapped).
     *
     * @param what what is read, for the message when the wait is interrupted
     */
    public static <T> T take(Future<T> f, String what) {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for " + what);
        }
    }
}
