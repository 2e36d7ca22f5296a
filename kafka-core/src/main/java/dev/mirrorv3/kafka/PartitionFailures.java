package dev.mirrorv3.kafka;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;

/**
 * The partitions of a task that failed and are isolated (docs/design.md, "Failures: one classifier, with a scope"),
 * with why, since when, where their copy is durable and when one that clears by itself is tried again: after
 * retry.backoff.initial.ms, doubling up to partition.retry.max.ms, from the partition's own {@link Backoff}, which
 * only progress resets (a retry that re-opens the partition and fails again at its next write keeps backing off). One
 * that needs an operator is never retried here: a restart of the task retries it. Logs each failure once with what
 * to do; tells a {@link Listener} (the metrics) when a partition fails and when it is no longer failed. Connect-free:
 * the caller pauses, drops and re-opens. The task thread changes it; {@link #count()} is safe from a metrics thread.
 */
public final class PartitionFailures {
    /** What happens with a partition's failed state. */
    public interface Listener {
        void failed(TopicPartition tp);

        void cleared(TopicPartition tp);
    }

    /**
     * One isolated partition.
     *
     * @param durableNext the next offset durable at the destination when it failed, if known (what preCommit reports)
     * @param retryAtMs when it is re-opened, {@code Long.MAX_VALUE} when it waits for an operator or is being retried
     */
    public record Failure(FailureVerdict verdict, String reason, long sinceMs, OptionalLong durableNext, long retryAtMs) {
        /** The line {@code mirror-v3 status} shows ({@link FailureNote}). */
        public String note() {
            return FailureNote.failed(sinceMs, verdict.kind(), reason);
        }

        Failure retrying() {
            return new Failure(verdict, reason, sinceMs, durableNext, Long.MAX_VALUE);
        }
    }

    private final Clock clock;
    private final long initialMs;
    private final long maxMs;
    private final Logger log;
    private final String retryHint;
    private final Listener listener;
    private final Map<TopicPartition, Failure> failed = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Backoff> backoffs = new HashMap<>();
    /** Where each partition with a backoff stood when it last failed: progress past it resets the backoff. */
    private final Map<TopicPartition, Long> failedAt = new HashMap<>();

    /**
     * @param retryHint how an operator retries a partition of this task (a REST call naming the connector)
     * @param log the task's logger, so that the lines keep the category operators filter on
     */
    public PartitionFailures(Clock clock, long initialMs, long maxMs, String retryHint, Logger log, Listener listener) {
        this.clock = clock;
        this.initialMs = initialMs;
        this.maxMs = Math.max(initialMs, maxMs);
        this.retryHint = retryHint;
        this.log = log;
        this.listener = listener;
    }

    /** Records that {@code tp} failed for {@code e} (an isolating {@code verdict}) and logs what to do. */
    public Failure fail(TopicPartition tp, FailureVerdict verdict, RuntimeException e, OptionalLong durableNext) {
        long now = clock.millis();
        String reason = Failures.describe(e);
        String sentence = reason.endsWith(".") ? reason.substring(0, reason.length() - 1) : reason; // the lines add their own
        Failure f;
        if (verdict.kind() == FailureVerdict.Kind.CLEARS_BY_ITSELF) {
            Backoff backoff = backoffs.computeIfAbsent(tp, x -> new Backoff(initialMs, maxMs));
            long delay = backoff.next();
            failedAt.put(tp, durableNext.orElse(Long.MAX_VALUE));
            f = new Failure(verdict, reason, now, durableNext, now + delay);
            if (backoff.attempts() == 1) {
                log.warn("{} FAILED and is isolated (paused, its buffer dropped; the task and its other partitions go on): {}. This"
                        + " can clear by itself: the partition is opened again in {} ms, then with a backoff doubling up to {} ms",
                        tp, sentence, delay, maxMs);
            } else {
                log.info("{} still FAILED (attempt {}): {}; opened again in {} ms", tp, backoff.attempts(), reason, delay);
            }
        } else {
            f = new Failure(verdict, reason, now, durableNext, Long.MAX_VALUE);
            log.warn("{} FAILED and is isolated (paused, its buffer dropped; the task and its other partitions go on): {}. It stays"
                    + " failed until an operator fixes the cause and retries it: {}", tp, sentence, retryHint);
        }
        Failure before = failed.put(tp, f);
        if (before == null) {
            listener.failed(tp);
        }
        return f;
    }

    public boolean isFailed(TopicPartition tp) {
        return failed.containsKey(tp);
    }

    public Optional<Failure> failure(TopicPartition tp) {
        return Optional.ofNullable(failed.get(tp));
    }

    /** The partitions whose retry is due at {@code nowMs}; each is returned once, and counts as failed until it is positioned. */
    public List<TopicPartition> dueForRetry(long nowMs) {
        List<TopicPartition> due = new ArrayList<>();
        failed.forEach((tp, f) -> {
            if (f.retryAtMs() <= nowMs) {
                due.add(tp);
            }
        });
        due.forEach(tp -> failed.computeIfPresent(tp, (k, f) -> f.retrying()));
        return due;
    }

    /** Milliseconds until the next retry is due ({@code Long.MAX_VALUE} when none waits for one). */
    public long msUntilNextRetry(long nowMs) {
        long next = Long.MAX_VALUE;
        for (Failure f : failed.values()) {
            next = Math.min(next, f.retryAtMs());
        }
        return next == Long.MAX_VALUE ? next : Math.max(0, next - nowMs);
    }

    /** The partition was positioned again: it is no longer failed (its backoff stays until it makes progress). */
    public void positioned(TopicPartition tp) {
        Failure f = failed.remove(tp);
        if (f != null) {
            listener.cleared(tp);
            log.info("{} opened again after its failure ({}): resumed", tp, f.reason());
        }
    }

    /** The partition's copy is durable up to {@code durableNext}: past where it failed, its backoff starts over. */
    public void progressed(TopicPartition tp, long durableNext) {
        Long at = failedAt.get(tp);
        if (at != null && durableNext > at && !failed.containsKey(tp)) {
            backoffs.remove(tp);
            failedAt.remove(tp);
        }
    }

    /** The partitions closed (a rebalance, the task stops): a partition assigned again is opened and checked anew. */
    public void closed(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            backoffs.remove(tp);
            failedAt.remove(tp);
            if (failed.remove(tp) != null) {
                listener.cleared(tp);
            }
        }
    }

    /** Whether every one of {@code partitions} (at least one) failed because a store refused its requests. */
    public boolean allRefused(Collection<TopicPartition> partitions) {
        return !partitions.isEmpty() && partitions.stream().allMatch(tp -> {
            Failure f = failed.get(tp);
            return f != null && f.verdict().refused();
        });
    }

    /** How many partitions are failed now. */
    public int count() {
        return failed.size();
    }

    public Set<TopicPartition> partitions() {
        return Set.copyOf(failed.keySet());
    }
}
