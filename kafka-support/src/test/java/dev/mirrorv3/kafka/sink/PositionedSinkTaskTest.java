package dev.mirrorv3.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.kafka.FailureNote;
import dev.mirrorv3.kafka.FailureVerdict;
import dev.mirrorv3.kafka.PartitionFailures;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.PositionException;
import dev.mirrorv3.testsupport.MutableClock;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sink task skeleton with a fake task whose positions come from a map and whose resolving fails on demand, against
 * a fake context that keeps what the task asked of Connect (pauses, seeks, poll timeouts) and a hand-moved clock.
 */
class PositionedSinkTaskTest {
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    private final MutableClock clock = new MutableClock();
    private final FakeContext context = new FakeContext();
    private FakeTask task;

    @BeforeEach
    void start() {
        startWithHeartbeat(0);
    }

    private void startWithHeartbeat(long heartbeatMs) {
        task = new FakeTask(clock);
        task.initialize(context);
        task.startPositioning(100, 400, heartbeatMs);
        task.positions.put(P0, 10L);
        task.positions.put(P1, 20L);
    }

    /** Connect's next put, an empty batch, {@code ms} after the last: what a poll that ends by a timeout hands the task. */
    private void putAfter(long ms) {
        clock.advance(ms);
        task.put(List.of());
    }

    @Test
    void aPartitionWhosePositionCannotBeResolvedIsPausedRetriedWithBackoffAndResumed() {
        task.failures.add(new TimeoutException("injected: unreachable"));
        task.failures.add(new TimeoutException("injected: unreachable"));
        task.open(List.of(P0));
        assertThat(context.paused).as("paused while its position is retried").containsExactly(P0);
        assertThat(context.timeouts.getLast()).as("the next poll ends by the retry").isEqualTo(100L);
        assertThat(task.retried).isEqualTo(1);
        assertThat(task.retryPauses().count()).isEqualTo(1);

        putAfter(99);
        assertThat(task.resolves).as("no retry before its backoff").isEqualTo(1);
        assertThat(context.timeouts.getLast()).as("the poll ends by the retry").isEqualTo(1L);

        putAfter(1);
        assertThat(task.resolves).isEqualTo(2);
        assertThat(task.retried).isEqualTo(2);
        assertThat(context.paused).containsExactly(P0);

        putAfter(199);
        assertThat(task.resolves).as("the backoff doubles").isEqualTo(2);

        putAfter(1);
        assertThat(task.resolves).isEqualTo(3);
        assertThat(context.offsets).as("positioned: the consumer seeks there").isEqualTo(Map.of(P0, 10L));
        assertThat(context.paused).as("and fetches again").isEmpty();
        assertThat(task.retryPauses().count()).isZero();
        assertThat(task.preCommit(Map.of(P0, new OffsetAndMetadata(99)))).isEqualTo(Map.of(P0, healthy(10)));
    }

    @Test
    void aSeekRequestedFromPutIsNotUndoneByTheRestOfThatBatch() {
        task.open(List.of(P0));
        task.failures.add(new TimeoutException("injected: unreachable"));
        task.open(List.of(P1));
        clock.advance(100);

        task.put(List.of(record(P0, 10), record(P1, 0), record(P1, 1))); // P1's records were fetched before its seek
        assertThat(context.offsets.get(P1)).isEqualTo(20L);
        assertThat(task.written).as("P1's records predate the seek").containsExactly(P0 + "@10");

        task.put(List.of(record(P1, 20)));
        assertThat(task.written).as("the next batch is after the seek").containsExactly(P0 + "@10", P1 + "@20");
        assertThat(task.preCommit(Map.of(P0, new OffsetAndMetadata(0), P1, new OffsetAndMetadata(0))))
                .isEqualTo(Map.of(P0, healthy(11), P1, healthy(21)));
    }

    @Test
    void aFatalFailureOfOpenPausesThePartitionAndFailsTheNextPut() {
        task.failures.add(new IllegalStateException("injected: the chain of t-0 is broken at offset 7"));
        task.open(List.of(P0));
        assertThat(context.paused).as("not fetched from the group's offset").containsExactly(P0);
        assertThat(context.timeouts.getLast()).as("the next poll returns at once").isEqualTo(1L);

        assertThatThrownBy(() -> task.put(List.of(record(P0, 0)))).isInstanceOf(ConnectException.class)
                .hasMessageContaining("the chain of t-0 is broken at offset 7");
        assertThat(task.written).isEmpty();
        assertThatThrownBy(() -> task.put(List.of())).as("and every later one").isInstanceOf(ConnectException.class);
    }

    @Test
    void aFailureRecordedByAnotherThreadFailsTheNextPutAndClose() {
        task.open(List.of(P0));
        task.fatalFailure().record(new IllegalStateException("injected: the destination stored a record at the wrong offset"));
        assertThatThrownBy(() -> task.put(List.of(record(P0, 10)))).hasMessageContaining("at the wrong offset");
        assertThatThrownBy(() -> task.close(List.of(P0))).hasMessageContaining("at the wrong offset");
        assertThat(task.closed).as("closed all the same").containsExactly(P0);
    }

    @Test
    void closeForgetsPendingPartitionsSoThatNoRetryPositionsThem() {
        task.failures.add(new TimeoutException("injected: unreachable"));
        task.open(List.of(P0));
        task.close(List.of(P0));
        assertThat(task.retryPauses().count()).isZero();

        putAfter(100);
        assertThat(task.resolves).as("a closed partition is not retried").isEqualTo(1);
        assertThat(context.offsets).isEmpty();
    }

    @Test
    void everyPollEndsWithinTheInitialBackoffWhenTheHeartbeatIsOff() {
        task.open(List.of(P0));
        putAfter(5);
        assertThat(context.timeouts.getLast()).isEqualTo(100L);
    }

    @Test
    void theHeartbeatRunsOnItsIntervalAndBoundsThePoll() {
        startWithHeartbeat(50);
        task.open(List.of(P0));
        putAfter(49);
        assertThat(task.heartbeats).isZero();
        assertThat(context.timeouts.getLast()).isEqualTo(1L);
        putAfter(1);
        assertThat(task.heartbeats).isEqualTo(1);
        assertThat(context.timeouts.getLast()).isEqualTo(50L);
    }

    @Test
    void aPartitionWhosePositionTheTaskCannotTellYetStaysPendingWhileTheOthersAreResumed() {
        task.positions.remove(P1);
        task.failures.add(new TimeoutException("injected: unreachable"));
        task.open(List.of(P0, P1));
        assertThat(context.paused).containsExactlyInAnyOrder(P0, P1);

        putAfter(100);
        assertThat(context.offsets).isEqualTo(Map.of(P0, 10L));
        assertThat(context.paused).as("P0 is positioned and fetches; P1 stays pending and paused").containsExactly(P1);
        assertThat(task.preCommit(Map.of(P0, new OffsetAndMetadata(50), P1, new OffsetAndMetadata(50))))
                .as("a pending partition has no durable offset: Connect's consumer position is never committed")
                .isEqualTo(Map.of(P0, healthy(10)));

        task.positions.put(P1, 20L);
        task.open(List.of(P1)); // a rebalance gives it again: no wait for the backoff
        assertThat(context.offsets).isEqualTo(Map.of(P0, 10L, P1, 20L));
        assertThat(context.paused).isEmpty();
        assertThat(task.retryPauses().count()).isZero();
    }

    @Test
    void aPartitionTheTaskDoesNotPositionStaysPausedAndIsNeverResolved() {
        task.skipped.add(P1);
        task.open(List.of(P0, P1));
        assertThat(task.resolved).containsExactly(P0);
        assertThat(context.paused).as("paused by the task for good, not for a retry").containsExactly(P1);
        assertThat(task.retryPauses().count()).isZero();
    }

    @Test
    void partitionsPositionedWhileTheTaskHoldsThemStayPausedUntilItResumesThem() {
        task.hold = true;
        task.open(List.of(P0));
        assertThat(context.offsets).isEqualTo(Map.of(P0, 10L));
        assertThat(context.paused).as("records fetched now would be dropped").containsExactly(P0);
        assertThat(task.retryPauses().count()).as("counted as paused for a retry").isEqualTo(1);

        task.hold = false;
        task.retryPauses().resume(List.of(P0));
        assertThat(context.paused).isEmpty();
    }

    @Test
    void aRecoveringTaskUsesPutForItsRecoveryAndNeitherPositionsNorWrites() {
        task.failures.add(new TimeoutException("injected: unreachable"));
        task.open(List.of(P0));
        task.recovering = true;
        clock.advance(100);
        task.put(List.of(record(P0, 10)));
        assertThat(task.recoverySteps).isEqualTo(1);
        assertThat(task.resolves).as("no positioning during a recovery").isEqualTo(1);
        assertThat(task.written).isEmpty();

        task.recovering = false;
        task.put(List.of(record(P0, 10)));
        assertThat(task.resolves).isEqualTo(2);
        assertThat(task.written).as("positioned from this put(): its record predates the seek").isEmpty();
    }

    @Test
    void theRepositionedGuardLastsOneBatchAlsoWhenWritingItFails() {
        task.failures.add(new TimeoutException("injected: unreachable"));
        task.open(List.of(P0));
        clock.advance(100);
        task.writeFailure = new RetriableException("injected: the store is away");
        assertThatThrownBy(() -> task.put(List.of(record(P0, 3)))).isInstanceOf(RetriableException.class);

        task.put(List.of(record(P0, 10))); // Connect re-delivers from the seek
        assertThat(task.written).as("the guard did not outlive its batch").containsExactly(P0 + "@10");
    }

    @Test
    void aFatalFailureOfAPositioningRetryFailsThatPutAndEveryLaterOne() {
        task.failures.add(new TimeoutException("injected: unreachable"));
        task.failures.add(new IllegalStateException("injected: t-0's position 10 is below the source's log start 12"));
        task.open(List.of(P0));
        clock.advance(100);
        assertThatThrownBy(() -> task.put(List.of())).isInstanceOf(ConnectException.class)
                .isNotInstanceOf(RetriableException.class).hasMessageContaining("below the source's log start 12");
        assertThatThrownBy(() -> task.put(List.of())).hasMessageContaining("below the source's log start 12");
        assertThat(task.resolves).as("not retried").isEqualTo(2);
    }

    @Test
    void aFatalFailureRecordedByTheTaskWhileWritingFailsItOnceAndWithTheFirstCause() {
        task.open(List.of(P0));
        task.writeFailure = task.fatalFailure().fail(new IllegalStateException("injected: first"));
        task.fatalFailure().record(new IllegalStateException("injected: second"));
        assertThatThrownBy(() -> task.put(List.of(record(P0, 10)))).hasMessageContaining("first");
        assertThatThrownBy(() -> task.put(List.of())).hasMessageContaining("first");
    }


    // --- partition failure isolation -----------------------------------------------------------------------------------

    private static final TopicPartition Q0 = new TopicPartition("u", 0);

    private final List<String> listened = new ArrayList<>();

    private void isolating(FailureVerdict.Isolation mode) {
        task.startIsolation(mode, 400, "c", new PartitionFailures.Listener() {
            @Override
            public void failed(TopicPartition tp) {
                listened.add("failed " + tp);
            }

            @Override
            public void cleared(TopicPartition tp) {
                listened.add("cleared " + tp);
            }
        });
    }

    private void failsAtOpen(TopicPartition tp, RuntimeException... failures) {
        task.partitionFailures.put(tp, new ArrayDeque<>(List.of(failures)));
    }

    private static RuntimeException missingKey() {
        try {
            KeyRing.empty("keys dir /keys").requireKeysFor("/backups/t/1",
                    List.of(new ObjectName(0, 9, EnvelopeFormat.PARQUET, "k2")));
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("no missing key");
    }

    @Test
    void aPartitionThatFailsToOpenIsIsolatedWhileTheOthersArePositionedAndItStaysFailedUntilAnOperatorActs() {
        isolating(FailureVerdict.Isolation.PARTITION);
        failsAtOpen(P1, new PositionException("injected: lost position for t-1: the backup ends at next offset 5"));
        task.open(List.of(P0, P1));
        assertThat(context.offsets).as("the other partition is positioned").isEqualTo(Map.of(P0, 10L));
        assertThat(context.paused).as("only the failed one is paused").containsExactly(P1);
        assertThat(listened).containsExactly("failed " + P1);
        assertThat(task.failedCount()).isEqualTo(1);

        task.put(List.of(record(P0, 10), record(P1, 7)));
        assertThat(task.written).as("the task goes on, the failed partition's records are not written").containsExactly(P0 + "@10");
        Map<TopicPartition, OffsetAndMetadata> committed = task.preCommit(Map.of(P0, new OffsetAndMetadata(11),
                P1, new OffsetAndMetadata(5)));
        assertThat(committed.get(P0)).isEqualTo(healthy(11));
        assertThat(committed.get(P1).offset()).as("never past where it was assigned").isEqualTo(5);
        assertThat(FailureNote.failure(committed.get(P1).metadata())).get().asString()
                .startsWith("partition FAILED since ").contains("needs an operator", "lost position for t-1");

        putAfter(3_600_000);
        assertThat(task.resolved).as("never retried by the task itself").containsExactly(P0, P1);
        assertThat(context.paused).containsExactly(P1);

        task.close(List.of(P1));
        assertThat(listened).containsExactly("failed " + P1, "cleared " + P1);
        task.open(List.of(P1)); // assigned again (a rebalance, or a restart): opened and checked anew
        assertThat(context.offsets).containsEntry(P1, 20L);
        assertThat(context.paused).isEmpty();
        assertThat(task.failedCount()).isZero();
    }

    @Test
    void aConditionThatClearsByItselfIsOpenedAgainAfterABackoffThatDoubles() {
        isolating(FailureVerdict.Isolation.PARTITION);
        failsAtOpen(P1, missingKey(), missingKey());
        task.open(List.of(P0, P1));
        assertThat(context.paused).containsExactly(P1);
        putAfter(60);
        assertThat(context.timeouts.getLast()).as("the poll ends by its retry").isEqualTo(40L);

        putAfter(39);
        assertThat(task.resolved).as("not before its backoff").containsExactly(P0, P1);
        putAfter(1);
        assertThat(task.resolved).as("opened again, and fails again").containsExactly(P0, P1, P1);
        assertThat(context.paused).containsExactly(P1);

        putAfter(199);
        assertThat(task.resolved).as("the backoff doubled").hasSize(3);
        putAfter(1);
        assertThat(task.resolved).hasSize(4);
        assertThat(context.offsets).as("the key appeared: positioned").containsEntry(P1, 20L);
        assertThat(context.paused).isEmpty();
        assertThat(listened).containsExactly("failed " + P1, "cleared " + P1);
        assertThat(task.preCommit(Map.of(P1, new OffsetAndMetadata(20)))).isEqualTo(Map.of(P1, healthy(20)));
    }

    @Test
    void aRecordThatCannotBeConvertedIsolatesItsPartitionDroppingWhatItHeldAndTheDurableOffsetStays() {
        isolating(FailureVerdict.Isolation.PARTITION);
        task.open(List.of(P0, P1));
        task.badRecords.add(P1 + "@22");
        task.put(List.of(record(P0, 10), record(P1, 20), record(P1, 21), record(P1, 22), record(P1, 23), record(P0, 11)));
        assertThat(task.written).containsExactly(P0 + "@10", P1 + "@20", P1 + "@21", P0 + "@11");
        assertThat(task.dropped).containsExactly(P1);
        assertThat(context.paused).containsExactly(P1);
        OffsetAndMetadata p1 = task.preCommit(Map.of(P1, new OffsetAndMetadata(24))).get(P1);
        assertThat(p1.offset()).as("what was durable when it failed").isEqualTo(22);
        assertThat(p1.metadata()).contains("offset 22 cannot be converted");
    }

    @Test
    void aRecreatedTopicIsolatesEveryPartitionOfThatTopicOnly() {
        isolating(FailureVerdict.Isolation.PARTITION);
        task.positions.put(Q0, 30L);
        task.open(List.of(P0, Q0));
        failsAtOpen(P1, PositionException.ofTopic("t", "injected: source topic t was deleted and created again"));
        task.open(List.of(P1));
        assertThat(task.dropped).as("the positioned partition of t is dropped too").containsExactly(P0);
        assertThat(context.paused).containsExactlyInAnyOrder(P0, P1);
        assertThat(listened).containsExactlyInAnyOrder("failed " + P0, "failed " + P1);
        task.put(List.of(record(Q0, 30), record(P0, 10)));
        assertThat(task.written).as("the other topic goes on").containsExactly(Q0 + "@30");
    }

    @Test
    void withPartitionFailureTaskAFailureOfOnePartitionFailsTheTaskAsBefore() {
        isolating(FailureVerdict.Isolation.TASK);
        failsAtOpen(P1, new PositionException("injected: lost position for t-1"));
        task.open(List.of(P0, P1));
        assertThatThrownBy(() -> task.put(List.of(record(P0, 10)))).isInstanceOf(ConnectException.class)
                .hasMessageContaining("lost position for t-1");
        assertThat(listened).isEmpty();
    }

    @Test
    void aFailureOutsideAnyPartitionsConditionFailsTheTaskEvenWhenIsolating() {
        isolating(FailureVerdict.Isolation.PARTITION);
        failsAtOpen(P1, new IllegalStateException("injected: a bug"));
        task.open(List.of(P0, P1));
        assertThatThrownBy(() -> task.put(List.of())).isInstanceOf(ConnectException.class).hasMessageContaining("a bug");
    }

    private static OffsetAndMetadata healthy(long offset) {
        return new OffsetAndMetadata(offset, FailureNote.HEALTHY);
    }

    private static SinkRecord record(TopicPartition tp, long offset) {
        return new SinkRecord(tp.topic(), tp.partition(), Schema.OPTIONAL_BYTES_SCHEMA, null, Schema.OPTIONAL_BYTES_SCHEMA, null, offset);
    }

    /** Positions from a map; resolving throws the queued failures first. Writing appends "tp@offset" and advances the durable offset. */
    private static final class FakeTask extends PositionedSinkTask<Long> {
        final Map<TopicPartition, Long> positions = new HashMap<>();
        final Deque<RuntimeException> failures = new ArrayDeque<>();
        final Map<TopicPartition, Long> durable = new HashMap<>();
        final List<String> written = new ArrayList<>();
        final List<TopicPartition> closed = new ArrayList<>();
        final List<TopicPartition> resolved = new ArrayList<>();
        final Set<TopicPartition> skipped = new HashSet<>();
        final Map<TopicPartition, Deque<RuntimeException>> partitionFailures = new HashMap<>();
        final Set<String> badRecords = new HashSet<>();
        final List<TopicPartition> dropped = new ArrayList<>();
        boolean hold;
        boolean recovering;
        RuntimeException writeFailure;
        int recoverySteps;
        int resolves;
        int retried;
        int heartbeats;

        FakeTask(Clock clock) {
            super(clock);
        }

        @Override
        public String version() {
            return "test";
        }

        @Override
        public void start(Map<String, String> props) {
        }

        @Override
        public void stop() {
        }

        @Override
        protected PerPartition<Long> resolve(List<TopicPartition> partitions) {
            resolves++;
            resolved.addAll(partitions);
            if (!failures.isEmpty()) {
                throw failures.poll();
            }
            PerPartition<Long> out = new PerPartition<>();
            for (TopicPartition tp : partitions) {
                Deque<RuntimeException> own = partitionFailures.get(tp);
                if (own != null && !own.isEmpty()) {
                    out.fail(tp, own.poll());
                } else if (positions.containsKey(tp)) {
                    out.put(tp, positions.get(tp));
                }
            }
            return out;
        }

        @Override
        protected OptionalLong dropPartition(TopicPartition tp) {
            dropped.add(tp);
            Long d = durable.remove(tp);
            return d == null ? OptionalLong.empty() : OptionalLong.of(d);
        }

        @Override
        protected long positioned(TopicPartition tp, Long position) {
            durable.put(tp, position);
            return position;
        }

        @Override
        protected void write(Collection<SinkRecord> records) {
            if (writeFailure != null) {
                RuntimeException e = writeFailure;
                writeFailure = null;
                throw e;
            }
            for (SinkRecord r : records) {
                TopicPartition tp = new TopicPartition(r.topic(), r.kafkaPartition());
                if (durable.containsKey(tp) && badRecords.contains(tp + "@" + r.kafkaOffset())) {
                    isolate(tp, new DataException("injected: record at " + tp + " offset " + r.kafkaOffset() + " cannot be converted"));
                    continue;
                }
                if (durable.containsKey(tp) && !repositioned(tp) && r.kafkaOffset() >= durable.get(tp)) {
                    written.add(tp + "@" + r.kafkaOffset());
                    durable.put(tp, r.kafkaOffset() + 1);
                }
            }
            long now = clock.millis();
            heartbeatIfDue(now);
            pollWithin(msUntilHeartbeat(now));
        }

        @Override
        protected OptionalLong durableNext(TopicPartition tp) {
            return durable.containsKey(tp) ? OptionalLong.of(durable.get(tp)) : OptionalLong.empty();
        }

        @Override
        protected void closePositioned(Collection<TopicPartition> partitions) {
            partitions.forEach(durable::remove);
            closed.addAll(partitions);
        }

        @Override
        protected void heartbeat() {
            heartbeats++;
        }

        @Override
        protected void retried() {
            retried++;
        }

        @Override
        protected Collection<TopicPartition> toPosition(Collection<TopicPartition> assigned) {
            List<TopicPartition> others = assigned.stream().filter(skipped::contains).toList();
            context.pause(others.toArray(new TopicPartition[0]));
            return assigned.stream().filter(tp -> !skipped.contains(tp)).toList();
        }

        @Override
        protected boolean holdPositioned() {
            return hold;
        }

        @Override
        protected boolean continueRecovery() {
            if (recovering) {
                recoverySteps++;
            }
            return recovering;
        }
    }

    /** Keeps what the task asks of Connect; pause and resume as the consumer sees them. */
    private static final class FakeContext implements SinkTaskContext {
        final Set<TopicPartition> paused = new HashSet<>();
        final Map<TopicPartition, Long> offsets = new HashMap<>();
        final Deque<Long> timeouts = new ArrayDeque<>();

        @Override
        public Map<String, String> configs() {
            return Map.of();
        }

        @Override
        public void offset(Map<TopicPartition, Long> offsets) {
            this.offsets.putAll(offsets);
        }

        @Override
        public void offset(TopicPartition tp, long offset) {
            offset(Map.of(tp, offset));
        }

        @Override
        public void timeout(long timeoutMs) {
            timeouts.add(timeoutMs);
        }

        @Override
        public Set<TopicPartition> assignment() {
            return Set.of();
        }

        @Override
        public void pause(TopicPartition... partitions) {
            paused.addAll(List.of(partitions));
        }

        @Override
        public void resume(TopicPartition... partitions) {
            List.of(partitions).forEach(paused::remove);
        }

        @Override
        public void requestCommit() {
        }

        @Override
        public PluginMetrics pluginMetrics() {
            return null;
        }
    }
}
