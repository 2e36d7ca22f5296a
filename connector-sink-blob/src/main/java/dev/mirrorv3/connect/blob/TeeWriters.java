package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.kafka.FailureVerdict;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task's write path over its destinations ({@link DestinationLane}): one, as a blob sink always had, or several (a
 * tee, docs/blob-sink.md, "Several destinations"), each record converted once and handed to every destination whose
 * writer takes it. What was keyed by partition is keyed by (partition, destination): each destination positions its
 * partitions on its own chains, and a partition is sought to the lowest of their positions, each destination skipping
 * what it holds; its durable offset is the lowest of theirs. A destination of a tee that cannot write a partition now
 * (its share of buffer.max.bytes full, a commit retried) is held back for it, and one whose partition failed (another
 * writer, a lost position) is dropped for it and opened again after partition.retry.max.ms; either catches up by
 * re-reading: the partition is sought back to its position once it can write again, the others skip what they hold.
 * With one destination every failure goes to the task as before. Task thread only.
 */
final class TeeWriters implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BlobSinkTask.class); // the task's log lines

    private final List<DestinationLane> lanes;
    private final Clock clock;
    private final FailureVerdict.Isolation isolation;
    private final long failedRetryMs;
    private final long transientRetryMs;
    /** Per destination (by index): partitions held back, to be let in and sought back once it can write. */
    private final List<Set<TopicPartition>> held;
    /** Per destination: partitions dropped for a failure of their own, with when to open them again. */
    private final List<Map<TopicPartition, Long>> dropped;
    /** Per destination: the durable next offset of a dropped partition (what preCommit may not pass). */
    private final List<Map<TopicPartition, Long>> floors;

    TeeWriters(List<DestinationLane> lanes, Clock clock, BlobSinkConfig config) {
        this.lanes = lanes;
        this.clock = clock;
        this.isolation = config.partitionFailure();
        this.failedRetryMs = config.partitionRetryMaxMs();
        this.transientRetryMs = config.retryBackoffMaxMs();
        this.held = lanes.stream().map(l -> (Set<TopicPartition>) ConcurrentHashMap.<TopicPartition>newKeySet()).toList();
        this.dropped = lanes.stream().map(l -> (Map<TopicPartition, Long>) new LinkedHashMap<TopicPartition, Long>()).toList();
        this.floors = lanes.stream().map(l -> (Map<TopicPartition, Long>) new ConcurrentHashMap<TopicPartition, Long>()).toList();
    }

    boolean tee() {
        return lanes.size() > 1;
    }

    /** Holds {@code tp} back in destination {@code lane} (its writer keeps what it holds). */
    void hold(int lane, TopicPartition tp) {
        if (held.get(lane).add(tp)) {
            log.warn("{} cannot take {} now (its share of buffer.max.bytes is full, or a commit is retried): held back, the other"
                    + " destinations go on; it catches up by re-reading from offset {}", lanes.get(lane).describe(), tp,
                    expectedNext(lane, tp).orElse(-1));
        }
    }

    /** Each destination's writer of the partitions, opened on its own chains; a partition opens if any destination does. */
    PerPartition<Map<Integer, BoundWriter<?>>> open(List<TopicPartition> partitions) {
        if (!tee()) {
            return lanes.get(0).positioner.open(partitions).map((tp, w) -> Map.of(0, w));
        }
        Map<TopicPartition, Map<Integer, BoundWriter<?>>> opened = new LinkedHashMap<>();
        Map<TopicPartition, RuntimeException> failed = new LinkedHashMap<>();
        for (int i = 0; i < lanes.size(); i++) {
            PerPartition<BoundWriter<?>> r;
            try {
                r = lanes.get(i).positioner.open(partitions);
            } catch (RuntimeException e) {
                r = new PerPartition<>(ConnectFailures.KINDS);
                for (TopicPartition tp : partitions) {
                    r.fail(tp, e);
                }
            }
            int lane = i;
            r.results().forEach((tp, w) -> opened.computeIfAbsent(tp, x -> new HashMap<>()).put(lane, w));
            r.failures().forEach((tp, e) -> {
                failed.putIfAbsent(tp, e);
                dropFor(lane, tp, e, OptionalLong.empty());
            });
        }
        PerPartition<Map<Integer, BoundWriter<?>>> result = new PerPartition<>(ConnectFailures.KINDS);
        for (TopicPartition tp : partitions) {
            if (opened.containsKey(tp)) {
                result.put(tp, opened.get(tp));
                continue;
            }
            forget(tp); // every destination failed: the partition's failure, retried as a partition's
            if (ConnectFailures.isTransient(failed.get(tp))) {
                partitions.forEach(this::forget);
                throw failed.get(tp); // all are positioned again after the task's backoff
            }
            result.fail(tp, failed.get(tp));
        }
        return result;
    }

    /** Takes a partition's writers into use; returns the lowest position, where the partition is sought. */
    long positioned(TopicPartition tp, Map<Integer, BoundWriter<?>> writers) {
        long lowest = Long.MAX_VALUE;
        for (Map.Entry<Integer, BoundWriter<?>> e : writers.entrySet()) {
            lowest = Math.min(lowest, joined(e.getKey(), tp, e.getValue()));
        }
        return lowest;
    }

    private long joined(int lane, TopicPartition tp, BoundWriter<?> w) {
        DestinationLane l = lanes.get(lane);
        long next = l.writers.open(w);
        dropped.get(lane).remove(tp);
        floors.get(lane).remove(tp);
        held.get(lane).remove(tp);
        if (tee()) {
            l.metrics.cleared(tp);
            l.metrics.destinationLag(tp, () -> lag(lane, tp));
        }
        return next;
    }

    /** How many offsets destination {@code lane}'s durable copy of {@code tp} trails the furthest one (for its gauge). */
    private long lag(int lane, TopicPartition tp) {
        long own = durable(lane, tp);
        long furthest = own;
        for (int i = 0; i < lanes.size(); i++) {
            furthest = Math.max(furthest, durable(i, tp));
        }
        return own < 0 ? 0 : furthest - own;
    }

    private long durable(int lane, TopicPartition tp) {
        long d = lanes.get(lane).background.durableOffsets().get(tp);
        return d >= 0 ? d : floors.get(lane).getOrDefault(tp, -1L);
    }

    /** Whether a destination takes the record at {@code offset}: open there, not held back, neither buffered nor durable. */
    boolean takes(TopicPartition tp, long offset) {
        for (int i = 0; i < lanes.size(); i++) {
            if (!held.get(i).contains(tp) && lanes.get(i).writers.takes(tp, offset)) {
                return true;
            }
        }
        return false;
    }

    /** Hands the record, converted once, to every destination that takes it. */
    void append(TopicPartition tp, BackupRecord record) {
        for (int i = 0; i < lanes.size(); i++) {
            DestinationLane l = lanes.get(i);
            if (!held.get(i).contains(tp) && l.writers.takes(tp, record.offset())) {
                l.writers.append(tp, record);
            }
        }
    }

    void takeFinished() {
        lanes.forEach(l -> l.writers.takeFinished());
    }

    /**
     * The failures of partitions for the task to isolate (or fail with): with one destination, its write path's; in a
     * tee, only a failure that does not isolate (it fails the task), a destination's own being dropped for it alone.
     */
    Map<TopicPartition, RuntimeException> takeFailures() {
        if (!tee()) {
            return lanes.get(0).writers.takeFailures();
        }
        Map<TopicPartition, RuntimeException> forTask = new LinkedHashMap<>();
        for (int i = 0; i < lanes.size(); i++) {
            for (Map.Entry<TopicPartition, RuntimeException> f : lanes.get(i).writers.takeFailures().entrySet()) {
                FailureVerdict v = ConnectFailures.verdict(f.getValue()).under(isolation);
                if (v.isolates() && v.topicWide().isEmpty()) {
                    dropFor(i, f.getKey(), f.getValue(), lanes.get(i).writers.drop(f.getKey()));
                } else {
                    forTask.putIfAbsent(f.getKey(), f.getValue());
                }
            }
        }
        return forTask;
    }

    /** Destination {@code lane} gives up {@code tp} for a failure of its own; it is opened again after a backoff. */
    private void dropFor(int lane, TopicPartition tp, RuntimeException e, OptionalLong durable) {
        FailureVerdict v = ConnectFailures.verdict(e);
        long delay = v.kind() == FailureVerdict.Kind.TRANSIENT ? transientRetryMs : failedRetryMs;
        dropped.get(lane).put(tp, clock.millis() + delay);
        held.get(lane).remove(tp);
        durable.ifPresent(d -> floors.get(lane).put(tp, d));
        DestinationLane l = lanes.get(lane);
        if (v.kind() != FailureVerdict.Kind.TRANSIENT) {
            l.metrics.failed(tp);
        }
        log.warn("{} failed for {}: {}; the other destinations go on, it is opened again in {} ms (or when the task restarts)",
                l.describe(), tp, Failures.describe(e), delay);
    }

    void flushDue(long now) {
        lanes.forEach(l -> l.writers.flushDue(now));
    }

    void checkChainsIfDue(long now) {
        lanes.forEach(l -> l.writers.checkChainsIfDue(now));
    }

    /**
     * The end of a put(): lets in the destinations held back that can write again (none of their commits retried, their
     * buffers at most half their share) and opens again those dropped whose retry is due; returns where each partition
     * one of them rejoined is to be sought (the lowest position of its destinations), so that it re-reads what it missed.
     */
    Map<TopicPartition, Long> catchUp(long now) {
        Map<TopicPartition, Long> seeks = new LinkedHashMap<>();
        for (int i = 0; i < lanes.size(); i++) {
            DestinationLane l = lanes.get(i);
            for (TopicPartition tp : List.copyOf(held.get(i))) {
                boolean noRetry = l.writers.writer(tp).map(w -> w.retryAt().isEmpty()).orElse(true);
                if (noRetry && l.writers.bufferedBytes() <= l.config.bufferMaxBytes() / 2) {
                    held.get(i).remove(tp);
                    seeks.put(tp, 0L);
                    log.info("{} can write {} again: it catches up from offset {}", l.describe(), tp,
                            expectedNext(i, tp).orElse(-1));
                }
            }
            List<TopicPartition> due = dropped.get(i).entrySet().stream().filter(e -> e.getValue() <= now)
                    .map(Map.Entry::getKey).toList();
            if (!due.isEmpty()) {
                reopen(i, due).forEach(tp -> seeks.put(tp, 0L));
            }
        }
        seeks.replaceAll((tp, x) -> lowestExpected(tp));
        seeks.values().removeIf(x -> x == Long.MAX_VALUE);
        return seeks;
    }

    private List<TopicPartition> reopen(int lane, List<TopicPartition> partitions) {
        DestinationLane l = lanes.get(lane);
        PerPartition<BoundWriter<?>> r;
        try {
            r = l.positioner.open(partitions);
        } catch (RuntimeException e) {
            partitions.forEach(tp -> dropFor(lane, tp, e, OptionalLong.empty()));
            return List.of();
        }
        r.failures().forEach((tp, e) -> dropFor(lane, tp, e, OptionalLong.empty()));
        r.results().forEach((tp, w) -> {
            joined(lane, tp, w);
            log.info("{} opened {} again: it catches up from offset {}", l.describe(), tp, w.writer().expectedNext());
        });
        return List.copyOf(r.results().keySet());
    }

    private long lowestExpected(TopicPartition tp) {
        long lowest = Long.MAX_VALUE;
        for (int i = 0; i < lanes.size(); i++) {
            OptionalLong e = expectedNext(i, tp);
            if (e.isPresent()) {
                lowest = Math.min(lowest, e.getAsLong());
            }
        }
        return lowest;
    }

    private OptionalLong expectedNext(int lane, TopicPartition tp) {
        return lanes.get(lane).writers.writer(tp).map(w -> OptionalLong.of(w.writer().expectedNext())).orElse(OptionalLong.empty());
    }

    long msUntilNextTimer(long now) {
        long delay = Long.MAX_VALUE;
        for (int i = 0; i < lanes.size(); i++) {
            delay = Math.min(delay, lanes.get(i).writers.msUntilNextTimer(now));
            if (!held.get(i).isEmpty()) {
                delay = Math.min(delay, 100); // look again soon whether it can write
            }
            for (long at : dropped.get(i).values()) {
                delay = Math.min(delay, Math.max(0, at - now));
            }
        }
        return delay;
    }

    void logHeartbeat() {
        lanes.forEach(l -> l.writers.logHeartbeat());
    }

    long bufferedBytes() {
        return lanes.stream().mapToLong(l -> l.writers.bufferedBytes()).sum();
    }

    /** The lowest durable next offset over the destinations that know one for {@code tp}. */
    OptionalLong durableNext(TopicPartition tp) {
        long lowest = Long.MAX_VALUE;
        for (int i = 0; i < lanes.size(); i++) {
            OptionalLong d = lanes.get(i).writers.durableNext(tp);
            Long floor = floors.get(i).get(tp);
            lowest = Math.min(lowest, d.isPresent() ? d.getAsLong() : floor == null ? Long.MAX_VALUE : floor);
        }
        return lowest == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(lowest);
    }

    /** Drops the partition from every destination (the task isolates it); the lowest durable next offset. */
    OptionalLong drop(TopicPartition tp) {
        long lowest = Long.MAX_VALUE;
        for (int i = 0; i < lanes.size(); i++) {
            OptionalLong d = lanes.get(i).writers.drop(tp); // also of a writer dropped already for its own failure
            Long floor = floors.get(i).get(tp);
            lowest = Math.min(lowest, d.isPresent() ? d.getAsLong() : floor == null ? Long.MAX_VALUE : floor);
        }
        forget(tp);
        return lowest == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(lowest);
    }

    /** Closes the partition in every destination; the first failure is thrown after all were tried. */
    void close(TopicPartition tp) {
        RuntimeException first = null;
        for (DestinationLane l : lanes) {
            try {
                l.writers.close(tp);
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        forget(tp);
        if (first != null) {
            throw first;
        }
    }

    private void forget(TopicPartition tp) {
        for (int i = 0; i < lanes.size(); i++) {
            held.get(i).remove(tp);
            dropped.get(i).remove(tp);
            floors.get(i).remove(tp);
            if (tee()) {
                lanes.get(i).metrics.cleared(tp);
            }
        }
    }

    /** The destinations' background passes learn that partitions were positioned. */
    void positioned() {
        lanes.forEach(l -> l.background.positioned());
    }

    @Override
    public void close() {
        lanes.forEach(DestinationLane::close);
    }
}
