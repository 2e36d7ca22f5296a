package dev.mirrorv3.kafka;

/**
 * When a task logs its heartbeat lines (heartbeat.interval.ms; 0 turns them off): first one interval after the start,
 * then one interval after each. Connect-free: the task passes its clock's time.
 */
public final class HeartbeatSchedule {
    private final long intervalMs;
    private long nextMs;

    public HeartbeatSchedule(long intervalMs, long startMs) {
        this.intervalMs = intervalMs;
        this.nextMs = startMs + intervalMs;
    }

    /** True when the heartbeat is due at {@code now}; the next one is then due one interval later. */
    public boolean due(long now) {
        if (intervalMs <= 0 || now < nextMs) {
            return false;
        }
        nextMs = now + intervalMs;
        return true;
    }

    /** Milliseconds until the next heartbeat ({@code Long.MAX_VALUE} when it is off). */
    public long msUntil(long now) {
        return intervalMs > 0 ? nextMs - now : Long.MAX_VALUE;
    }
}
