package dev.mirrorv3.connect.blob;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;

/**
 * When each open partition's chain is checked (chain.check.interval.ms; the objects after its newest manifest listed and
 * one manifest probed, docs/blob-sink.md, "Chain manifests"): every interval, each partition that committed an object
 * since its last check, between its commits. An idle partition costs no store request between its
 * flushes: nothing of ours changed its chain, and its next flush checks the tail first (docs/blob-sink.md, "Back up a
 * topic"); one that writes is listed again within an interval of its commit. Task thread only.
 */
final class PeriodicChainChecks {
    private final long intervalMs;
    private long nextMs;
    /** Partitions whose check is due and waits for their running commit. */
    private final Set<TopicPartition> due = new HashSet<>();
    /** Partitions that committed an object since their last check. */
    private final Set<TopicPartition> wrote = new HashSet<>();

    PeriodicChainChecks(long intervalMs, long nowMs) {
        this.intervalMs = intervalMs;
        this.nextMs = nowMs + intervalMs;
    }

    /** The partition committed an object. */
    void wrote(TopicPartition tp) {
        wrote.add(tp);
    }

    /** Forgets a partition that closed or was dropped. */
    void forget(TopicPartition tp) {
        due.remove(tp);
        wrote.remove(tp);
    }

    /**
     * Runs {@code check} for each partition whose check is due and that {@code ready} says is between its commits (a
     * partition that is not ready stays due).
     */
    void runDue(long nowMs, Predicate<TopicPartition> ready, java.util.function.Consumer<TopicPartition> check) {
        if (nowMs >= nextMs) {
            due.addAll(wrote);
            wrote.clear();
            nextMs = nowMs + intervalMs;
        }
        due.removeIf(tp -> {
            if (!ready.test(tp)) {
                return false;
            }
            check.accept(tp);
            return true;
        });
    }

    /** Milliseconds until the next interval starts. */
    long msUntilNext(long nowMs) {
        return nextMs - nowMs;
    }
}
