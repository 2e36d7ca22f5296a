package dev.mirrorv3.connect.blob;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * One daemon thread for a task's periodic passes (the source-lag refresh, the metadata snapshots), which must never
 * fail the task: a pass that fails is logged at its first failure only, and again when one succeeds, and is tried
 * again at its next interval.
 */
final class BackgroundTimer implements AutoCloseable {
    private final ScheduledExecutorService executor;

    /** A pass that may fail. */
    interface Pass {
        void run() throws Exception;
    }

    BackgroundTimer(String threadName) {
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code pass} every {@code intervalMs}, the first time one interval from now. */
    void every(long intervalMs, Runnable pass) {
        executor.scheduleWithFixedDelay(pass, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    /** Runs {@code pass} as soon as the thread is free, unless the timer is closed. */
    void soon(Runnable pass) {
        if (!executor.isShutdown()) {
            executor.execute(pass);
        }
    }

    /** Interrupts a running pass and waits for it to end, at most 5 s. */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether one kind of pass is failing: the first failure of a streak is logged, and its end. */
    static final class Streak {
        private final Logger log;
        private final String recovered;
        private boolean failing;

        /** @param recovered logged (info) when a pass succeeds after a failed one */
        Streak(Logger log, String recovered) {
            this.log = log;
            this.recovered = recovered;
        }

        /** Runs {@code pass}; {@code firstFailure} logs its failure unless the previous pass failed too. */
        void run(Pass pass, Consumer<Exception> firstFailure, Object... recoveredArgs) {
            try {
                pass.run();
                if (failing) {
                    log.info(recovered, recoveredArgs);
                    failing = false;
                }
            } catch (Exception e) {
                if (!failing) {
                    firstFailure.accept(e);
                    failing = true;
                }
            }
        }
    }
}
