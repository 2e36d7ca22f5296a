package dev.mirrorv3.kafka.groupsync;

import java.util.List;

/**
 * A connector's group sync with what it runs on (its admin clients, a store), which the connector owns: closing it
 * stops the sync, then removes its series, then closes the rest in the order given.
 *
 * @param closers close what the sync runs on, after the sync has stopped
 */
public record RunningGroupSync(GroupOffsetSync sync, GroupSyncMetrics metrics, List<Runnable> closers) implements AutoCloseable {
    /** Starts {@code sync}, every {@code intervalMs} (groups.interval.ms), its series registered on {@code metrics}. */
    public static RunningGroupSync start(GroupOffsetSync sync, GroupSyncMetrics metrics, long intervalMs, Runnable... closers) {
        sync.start(intervalMs);
        return new RunningGroupSync(sync, metrics, List.of(closers));
    }

    @Override
    public void close() {
        sync.close();
        metrics.close();
        closers.forEach(Runnable::run);
    }
}
