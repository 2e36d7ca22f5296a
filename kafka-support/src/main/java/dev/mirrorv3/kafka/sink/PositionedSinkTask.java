package dev.mirrorv3.kafka.sink;

import dev.mirrorv3.kafka.FailureNote;
import dev.mirrorv3.kafka.FailureVerdict;
import dev.mirrorv3.kafka.GroupOffsetSeeder;
import dev.mirrorv3.kafka.HeartbeatSchedule;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.PartitionFailures;
import dev.mirrorv3.kafka.PartitionRetry;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.RetryPauses;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The skeleton of a sink whose destination is the position: {@code open()} resolves where each partition continues and
 * seeks the consumer there, {@code preCommit} reports only durable offsets. A partition whose position cannot be
 * resolved yet (a transient failure) stays pending and paused, and is retried with its own backoff from a later
 * {@code put()} or {@code open()}; whichever path positions it resumes it (see {@link RetryPauses}). A position
 * resolved from {@code put()} seeks the consumer, so the rest of that batch predates the seek and is skipped
 * ({@link #repositioned}). A failure that fails the task is recorded and thrown from the next {@code put()}: Connect
 * keeps an exception from {@code open()} until its consumer's poll returns, and that poll would fetch from the group's
 * offset first. A partition's own failure ({@link FailureVerdict}) isolates it instead ({@link #isolate},
 * {@link PartitionIsolation}; its note in {@code preCommit}'s metadata: {@link FailureNote}). A subclass says how to
 * resolve a position, how to write records, what is durable and how it drops a partition.
 *
 * @param <P> what resolving a partition's position gives the subclass (a writer, a position)
 */
public abstract class PositionedSinkTask<P> extends SinkTask {
    private static final Logger log = LoggerFactory.getLogger(PositionedSinkTask.class);

    protected final Clock clock;
    private final Set<TopicPartition> pending = new LinkedHashSet<>();
    private final Set<TopicPartition> repositioned = new HashSet<>();
    private final FatalFailure fatal = new FatalFailure();
    private RetryPauses retryPauses;
    /** Positioning retries back off on their own: records flowing for the other partitions say nothing about them. */
    private PartitionRetry positionRetry;
    private long pollCapMs = Long.MAX_VALUE;
    private HeartbeatSchedule heartbeats = new HeartbeatSchedule(0, 0);
    private long nextPositionAttemptMs;
    private PartitionIsolation isolation;

    protected PositionedSinkTask(Clock clock) {
        this.clock = clock;
        this.isolation = PartitionIsolation.none(clock, log);
    }

    @Override
    public void initialize(SinkTaskContext context) {
        super.initialize(context);
        retryPauses = new RetryPauses(context::pause, context::resume);
    }

    /**
     * Called from {@code start()}: positioning retries back off from {@code retryBackoffInitialMs} to
     * {@code retryBackoffMaxMs}, every poll ends within {@code retryBackoffInitialMs} (a rebalance runs inside a poll, and
     * a transient failure of the open() it calls is retried only after that poll), and {@link #heartbeat()} runs every
     * {@code heartbeatIntervalMs} (0: never).
     */
    protected final void startPositioning(long retryBackoffInitialMs, long retryBackoffMaxMs, long heartbeatIntervalMs) {
        positionRetry = new PartitionRetry(retryBackoffInitialMs, Math.max(retryBackoffInitialMs, retryBackoffMaxMs), this::retried,
                ConnectFailures.KINDS);
        pollCapMs = retryBackoffInitialMs;
        heartbeats = new HeartbeatSchedule(heartbeatIntervalMs, clock.millis());
    }

    /**
     * Called from {@code start()} after {@link #startPositioning}: how a partition's failure is isolated (partition.failure,
     * partition.retry.max.ms); {@code listener} hears when a partition fails and clears (the metrics).
     */
    protected final void startIsolation(FailureVerdict.Isolation mode, long retryMaxMs, String connectorName,
                                        PartitionFailures.Listener listener) {
        isolation = new PartitionIsolation(mode, new PartitionFailures(clock, Math.min(pollCapMs, retryMaxMs), retryMaxMs,
                "POST /connectors/" + connectorName + "/restart?includeTasks=true restarts the connector's tasks, which open and"
                        + " check their partitions again (docs/operations.md, \"A failed partition\")", log, listener));
    }

    /**
     * Commits the group's offsets where the chain or destination continues, before the consumer first joins the group
     * (Connect subscribes lazily, on the first poll); the connector restarts the tasks when a topic grows, so that new
     * partitions are seeded here too. A failure fails the task with what to do.
     */
    protected final void seedGroupOffsets(LogOffsets source, Map<String, String> props, String connectorName, Duration timeout,
                                          String timeoutSetting) {
        try {
            GroupOffsetSeeder.seedForSinkTask(source.admin(), source, props, connectorName, timeout, timeoutSetting);
        } catch (GroupOffsetSeeder.GroupSeedingException e) {
            throw new ConnectException(e.getMessage(), e);
        }
    }

    // --- what a subclass says -----------------------------------------------------------------------------------------

    /**
     * Where the partitions continue, for those it can tell, and why each other one cannot; a transient failure (thrown)
     * leaves them all pending.
     */
    protected abstract PerPartition<? extends P> resolve(List<TopicPartition> partitions);

    /** Takes a resolved partition into use; returns the source offset to seek to. */
    protected abstract long positioned(TopicPartition tp, P position);

    /** Writes a batch; {@link #repositioned(TopicPartition)} says which partitions' records predate a seek. */
    protected abstract void write(Collection<SinkRecord> records);

    /** The next offset durable at the destination, if the partition is positioned. */
    protected abstract OptionalLong durableNext(TopicPartition tp);

    /** Gives up partitions: flushes or drains what is theirs. A failure that fails the task is recorded with {@link #fatal}. */
    protected abstract void closePositioned(Collection<TopicPartition> partitions);

    /**
     * Drops a positioned partition that failed: forgets its writer and what it holds (its buffered bytes given back),
     * and returns the next offset durable at its destination.
     */
    protected abstract OptionalLong dropPartition(TopicPartition tp);

    /** Logs the heartbeat line of each partition. */
    protected abstract void heartbeat();

    /** Counts a transient failure (the restarts metric). */
    protected abstract void retried();

    /** The assigned partitions this task positions; it may pause the others for good. */
    protected Collection<TopicPartition> toPosition(Collection<TopicPartition> assigned) {
        return assigned;
    }

    /** Called after partitions were positioned. */
    protected void afterPositioned(Collection<TopicPartition> partitions) {
    }

    /** True while records fetched now would be dropped: positioned partitions stay paused until the task resumes them. */
    protected boolean holdPositioned() {
        return false;
    }

    /** Lets a recovering task use this {@code put()} for its recovery instead; returns true when it did. */
    protected boolean continueRecovery() {
        return false;
    }

    // --- the Connect calls --------------------------------------------------------------------------------------------

    @Override
    public final void open(Collection<TopicPartition> partitions) {
        Collection<TopicPartition> mine = toPosition(partitions);
        isolation.assigned(mine);
        pending.addAll(mine);
        nextPositionAttemptMs = 0;
        try {
            positionPending(false);
        } catch (RuntimeException e) {
            // Pause instead of throwing (that poll would fail with a bare OffsetOutOfRangeException on a lost position),
            // and fail from the next put(), which the next poll returns at once.
            context.pause(mine.toArray(new TopicPartition[0]));
            fatal.record(e);
            context.timeout(1);
        }
    }

    @Override
    public final void put(Collection<SinkRecord> records) {
        fatal.throwIfSet();
        if (continueRecovery()) {
            return;
        }
        if (pending.addAll(isolation.dueForRetry(clock.millis()))) { // still paused: positioned anew, every check runs again
            nextPositionAttemptMs = 0;
        }
        try {
            positionPending(true);
            write(records);
        } finally {
            repositioned.clear();
        }
    }

    @Override
    public final Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        Map<TopicPartition, OffsetAndMetadata> durable = new HashMap<>();
        currentOffsets.forEach((tp, current) -> isolation.offset(tp, current, durableNext(tp)).ifPresent(o -> durable.put(tp, o)));
        return durable;
    }

    @Override
    public final void close(Collection<TopicPartition> partitions) {
        try {
            closePositioned(partitions);
        } finally {
            retryPauses.closed(partitions);
            pending.removeAll(partitions);
            isolation.closed(partitions);
        }
        fatal.throwIfSet();
    }

    /**
     * Positions the pending partitions and resumes them, whichever path calls it: Connect pauses again after a
     * rebalance what we paused before, even if it was closed in between. A transient failure leaves them paused and
     * pending for a later put().
     */
    private void positionPending(boolean fromPut) {
        if (pending.isEmpty() || clock.millis() < nextPositionAttemptMs) {
            return;
        }
        List<TopicPartition> batch = List.copyOf(pending);
        PerPartition<? extends P> resolved;
        try {
            resolved = resolve(batch);
        } catch (RuntimeException e) {
            boolean retrying = positionRetry.retry(e, (delay, attempt, cause) -> {
                nextPositionAttemptMs = clock.millis() + delay;
                retryPauses.pause(batch);
                context.timeout(delay);
                log.warn("cannot position {} yet: paused, retrying in {} ms (attempt {}): {}", batch, delay, attempt, cause);
            });
            if (!retrying) {
                throw fatal(e);
            }
            return;
        }
        positionRetry.succeeded();
        resolved.failures().forEach(this::isolate);
        List<TopicPartition> done = new ArrayList<>();
        for (TopicPartition tp : batch) {
            P position = resolved.results().get(tp);
            if (position == null || !pending.contains(tp)) {
                continue; // not resolved, or isolated with its topic
            }
            long next = positioned(tp, position);
            pending.remove(tp);
            isolation.positioned(tp);
            context.offset(tp, next);
            if (fromPut) {
                repositioned.add(tp); // the rest of this batch predates the seek
            }
            done.add(tp);
        }
        if (!done.isEmpty()) {
            afterPositioned(done);
        }
        if (holdPositioned()) {
            retryPauses.pause(done);
            return;
        }
        List<TopicPartition> retriedNow = retryPauses.resume(done);
        if (!retriedNow.isEmpty()) {
            log.info("positioned {} after a retry: resumed", retriedNow);
        }
    }

    // --- for the subclass ---------------------------------------------------------------------------------------------

    /**
     * A non-transient failure while working on {@code tp} (docs/design.md section 8): a partition's (or its topic's)
     * isolates it: paused, dropped ({@link #dropPartition}), recorded as failed; anything else, or the store refusing
     * every partition, is thrown as the task's. From the task thread, outside a loop over partitions.
     */
    protected final void isolate(TopicPartition tp, RuntimeException e) {
        FailureVerdict verdict = isolation.verdict(e);
        if (verdict.kind() == FailureVerdict.Kind.TRANSIENT) {
            throw e;
        }
        if (!verdict.isolates()) {
            throw fatal(e);
        }
        for (TopicPartition a : isolation.affected(tp, verdict, pending::contains)) {
            OptionalLong durable = pending.remove(a) ? OptionalLong.empty() : dropPartition(a);
            context.pause(a);
            retryPauses.closed(List.of(a)); // paused for its failure now, not for a retry
            isolation.fail(a, verdict, e, durable);
        }
        isolation.escalation(verdict, e).ifPresent(f -> {
            throw fatal(f);
        });
    }

    /** Whether {@code e} would isolate its partition rather than fail the task. */
    protected final boolean isolates(RuntimeException e) {
        return isolation.verdict(e).isolates();
    }

    /** How many partitions are failed now. */
    protected final int failedCount() {
        return isolation.count();
    }

    /** True when the partition was positioned from this {@code put()}: its records in this batch predate the seek. */
    protected final boolean repositioned(TopicPartition tp) {
        return repositioned.contains(tp);
    }

    /** Runs {@link #heartbeat()} when it is due. */
    protected final void heartbeatIfDue(long now) {
        if (heartbeats.due(now)) {
            heartbeat();
        }
    }

    /** Milliseconds until the next heartbeat ({@code Long.MAX_VALUE} when it is off). */
    protected final long msUntilHeartbeat(long now) {
        return heartbeats.msUntil(now);
    }

    /**
     * Asks Connect for the next poll within {@code delayMs}, by the next positioning retry, and never later than
     * retry.backoff.initial.ms.
     */
    protected final void pollWithin(long delayMs) {
        long delay = Math.min(delayMs, pollCapMs);
        if (!pending.isEmpty()) {
            delay = Math.min(delay, nextPositionAttemptMs - clock.millis());
        }
        delay = Math.min(delay, isolation.msUntilNextRetry(clock.millis()));
        context.timeout(Math.max(1, delay));
    }

    /** Records {@code e} as the failure of the task and returns it to throw (a {@link ConnectException} Connect does not retry). */
    protected final ConnectException fatal(RuntimeException e) {
        return fatal.fail(e);
    }

    /** The task's failure, for threads other than the task's (a producer's callbacks) and for loops that stop at it. */
    protected final FatalFailure fatalFailure() {
        return fatal;
    }

    /** The partitions paused for a retry, for a subclass that pauses some itself (a recovery) and for the metric. */
    protected final RetryPauses retryPauses() {
        return retryPauses;
    }
}
