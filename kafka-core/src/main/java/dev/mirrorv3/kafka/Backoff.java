package dev.mirrorv3.kafka;

/**
 * Exponential backoff for transient failures: 1 s (configurable) doubling to a maximum; {@link #reset()} on success.
 * Not a sleep: callers hand {@link #next()} to Connect ({@code context.timeout}) or a scheduler.
 */
public final class Backoff {
    private final long initialMs;
    private final long maxMs;
    private long currentMs;
    private long attempts;

    public Backoff(long initialMs, long maxMs) {
        if (initialMs <= 0 || maxMs < initialMs) {
            throw new IllegalArgumentException("backoff needs 0 < initial <= max, got " + initialMs + ", " + maxMs);
        }
        this.initialMs = initialMs;
        this.maxMs = maxMs;
        this.currentMs = initialMs;
    }

    /** The delay before the next attempt; each call doubles the following one up to the maximum. */
    public long next() {
        long d = currentMs;
        currentMs = Math.min(maxMs, currentMs * 2);
        attempts++;
        return d;
    }

    public long attempts() {
        return attempts;
    }

    public void reset() {
        currentMs = initialMs;
        attempts = 0;
    }
}
