package dev.mirrorv3.kafka;

/**
 * The retry of one partition (or one batch of partitions) after a failure: {@link Failures} classifies it, a transient
 * one takes the next {@link Backoff} delay, counts in the task's restarts and hands the delay to the caller, which
 * pauses the partition that long and logs its line; the next success resets the backoff. A fatal failure is left to the
 * caller to throw, with its own words. Connect-free: the caller says how it pauses (a sink's {@code context.pause}, a
 * source's next attempt time) and what it counts.
 */
public final class PartitionRetry {
    private final Backoff backoff;
    private final Runnable count;
    private final RuntimeFailureKinds runtime;

    /** What the caller does for one retry: pause for {@code delayMs} and log {@code cause} with the attempt. */
    @FunctionalInterface
    public interface Pause {
        void pause(long delayMs, long attempt, String cause);
    }

    /** A retry where no runtime's own exceptions occur; {@code count} counts one transient failure. */
    public PartitionRetry(long initialMs, long maxMs, Runnable count) {
        this(initialMs, maxMs, count, RuntimeFailureKinds.NONE);
    }

    /**
     * @param count counts one transient failure (the task's restarts series)
     * @param runtime what the runtime's own exceptions mean (a Connect task's: kafka-support's ConnectFailures)
     */
    public PartitionRetry(long initialMs, long maxMs, Runnable count, RuntimeFailureKinds runtime) {
        this.backoff = new Backoff(initialMs, maxMs);
        this.count = count;
        this.runtime = runtime;
    }

    /**
     * Returns false when {@code e} is not transient (the caller fails); otherwise backs off, counts, calls {@code pause}
     * and returns true.
     */
    public boolean retry(RuntimeException e, Pause pause) {
        if (!Failures.isTransient(e, runtime)) {
            return false;
        }
        long delay = backoff.next();
        count.run();
        pause.pause(delay, backoff.attempts(), Failures.describe(e));
        return true;
    }

    /** The partition worked: the next failure backs off from the initial delay again. */
    public void succeeded() {
        backoff.reset();
    }
}
