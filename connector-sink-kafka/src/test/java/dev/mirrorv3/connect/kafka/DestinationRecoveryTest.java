package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.connect.kafka.DestinationRecovery.State;
import dev.mirrorv3.connect.kafka.MirrorPositions.Pair;
import dev.mirrorv3.kafka.Backoff;
import dev.mirrorv3.kafka.sink.FatalFailure;
import dev.mirrorv3.testsupport.MutableClock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/**
 * The Kafka sink's recovery state machine, without Connect or a broker: each destination producer is a
 * {@link MockProducer} whose deliveries the test completes or fails, the destination's high watermarks are what the
 * test says they are, and time moves only by hand. Backoff 100 ms doubling to 800 ms.
 */
class DestinationRecoveryTest {
    private static final TopicPartition SOURCE = new TopicPartition("orders", 0);
    private static final TopicPartition DESTINATION = new TopicPartition("orders-copy", 0);

    private final MutableClock clock = new MutableClock();
    private final List<MockProducer<byte[], byte[]>> producers = new ArrayList<>();
    /** The destination's high watermarks as the next read returns them. */
    private final Map<TopicPartition, Long> destinationHwms = new HashMap<>();
    private final AtomicInteger failNextReads = new AtomicInteger();
    private final AtomicInteger reads = new AtomicInteger();
    private final Map<TopicPartition, Mirror> mirrors = new LinkedHashMap<>();
    private final RecordingControl control = new RecordingControl();
    private final FatalFailure fatal = new FatalFailure();
    private final DestinationRecovery recovery = new DestinationRecovery(this::newProducer, this::readHighWatermarks,
            mirrors::values, control, fatal, new DestinationRecovery.Settings(clock, new Backoff(100, 800), "destination:9092", 10_000,
            false));

    private Producer<byte[], byte[]> newProducer() {
        MockProducer<byte[], byte[]> p = new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        producers.add(p);
        return p;
    }

    private Map<TopicPartition, Long> readHighWatermarks(List<Pair> pairs) {
        reads.incrementAndGet();
        if (failNextReads.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new TimeoutException("injected: destination unreachable");
        }
        Map<TopicPartition, Long> out = new HashMap<>();
        pairs.forEach(p -> out.put(p.destination(), destinationHwms.get(p.destination())));
        return out;
    }

    private Mirror open(long next) {
        return open(SOURCE, DESTINATION, next);
    }

    private Mirror open(TopicPartition source, TopicPartition destination, long next) {
        Mirror m = new Mirror(source, destination, next, next);
        mirrors.put(source, m);
        return m;
    }

    /** Sends the mirror's next record as the task does: the expected offset moves on only when the send was accepted. */
    private boolean sendNext(Mirror m) {
        boolean sent = recovery.send(new ProducerRecord<>(DESTINATION.topic(), DESTINATION.partition(), null, new byte[] {1}), m,
                m.expected, 1);
        if (sent) {
            m.expected++;
        }
        return sent;
    }

    private MockProducer<byte[], byte[]> producer() {
        return producers.get(producers.size() - 1);
    }

    /** Three records in flight; the first is acknowledged at offset 0, the second fails transiently. */
    private Mirror failTheSecondOfThreeDeliveries() {
        Mirror m = open(0);
        sendNext(m);
        sendNext(m);
        sendNext(m);
        producer().completeNext();
        producer().errorNext(new TimeoutException("injected: request timed out"));
        return m;
    }

    /**
     * Partitions closed in the middle of a recovery (a rebalance while records are lost in flight): close waits until
     * the destination's high watermarks read the same twice, so a late append lands before the next owner positions, and
     * the aborted producer is not kept: partitions opened afterwards send through a fresh one.
     */
    @Test
    void closingDuringARecoverySettlesTheDestinationAndReplacesTheAbortedProducer() {
        Mirror m = failTheSecondOfThreeDeliveries();
        MockProducer<byte[], byte[]> aborted = producer();
        aborted.errorNext(new TimeoutException("failed by the abort"));
        destinationHwms.put(DESTINATION, 1L);
        recovery.start();
        assertThat(recovery.state()).isEqualTo(State.SETTLING);
        int before = reads.get();

        recovery.drain();
        assertThat(reads.get() - before).as("two reads a settle time apart before the partitions are given up").isEqualTo(2);
        mirrors.clear();
        recovery.abandon();

        Mirror reopened = open(1);
        assertThat(sendNext(reopened)).as("a partition opened afterwards sends").isTrue();
        assertThat(producer()).as("through a fresh producer").isNotSameAs(aborted);
        assertThat(producer().history()).hasSize(1);
        assertThat(m.failed).isTrue();
    }

    @Test
    void aFailedDeliveryAbortsTheProducerThenTheRecoverySettlesAndResumesAtTheDestinationsHighWatermark() {
        Mirror m = failTheSecondOfThreeDeliveries();
        MockProducer<byte[], byte[]> aborted = producer();
        assertThat(aborted.closed()).as("the first failed delivery aborts the producer").isTrue();
        assertThat(recovery.deliveryFailed()).isTrue();
        assertThat(sendNext(m)).as("nothing queued behind a failed record is sent").isFalse();
        assertThat(aborted.history()).hasSize(3);
        aborted.errorNext(new TimeoutException("failed by the abort")); // lost in flight: no second failure, nothing fatal
        assertThat(fatal.isSet()).isFalse();

        destinationHwms.put(DESTINATION, 1L);
        recovery.start();
        assertThat(recovery.state()).as("records were lost in flight").isEqualTo(State.SETTLING);
        assertThat(control.paused).containsExactly(SOURCE);
        assertThat(control.lastPoll).isEqualTo(DestinationRecovery.SETTLE_MS);

        clock.advance(DestinationRecovery.SETTLE_MS - 1);
        recovery.proceed();
        assertThat(reads.get()).as("no read before the settle time").isEqualTo(1);
        assertThat(control.lastPoll).isEqualTo(1);

        destinationHwms.put(DESTINATION, 2L); // a record lost in flight lands meanwhile
        clock.advance(1);
        recovery.proceed();
        assertThat(recovery.state()).as("the high watermark moved: settle again").isEqualTo(State.SETTLING);
        assertThat(control.rewinds).isEmpty();

        assertSettledAndRewoundTo(2L, "stable: rewound, and the settle wait was the wait");
        assertThat(m.expected).isEqualTo(2);
        assertThat(m.acked.get()).isEqualTo(2);
        assertThat(control.paused).isEmpty();
        assertThat(control.lastPoll).isEqualTo(DestinationRecovery.IN_FLIGHT_POLL_MS);
        assertThat(recovery.deliveryFailed()).isFalse();

        assertThat(sendNext(m)).isTrue();
        assertThat(producers).as("a fresh producer continues").hasSize(2);
        assertThat(producer().history()).hasSize(1);
        assertThat(aborted.history()).hasSize(3);
    }

    @Test
    void aSendRefusedAtOnceWithNothingLostRewindsAtOnceAndResumesAfterOneBackoff() {
        Mirror m = open(0);
        sendNext(m);
        producer().completeNext();
        producer().sendException = new TimeoutException("injected: buffer full");
        assertThat(sendNext(m)).isFalse();
        assertThat(m.expected).isEqualTo(1);

        destinationHwms.put(DESTINATION, 1L);
        recovery.start();
        assertThat(recovery.state()).isEqualTo(State.REWOUND);
        assertThat(control.rewinds).isEqualTo(Map.of(SOURCE, 1L));
        assertThat(control.lastPoll).isEqualTo(100);
        assertThat(control.retries).isEqualTo(1);

        clock.advance(99);
        recovery.proceed();
        assertThat(recovery.state()).as("the backoff is waited before resuming").isEqualTo(State.REWOUND);
        assertThat(control.paused).containsExactly(SOURCE);
        clock.advance(1);
        recovery.proceed();
        assertThat(recovery.state()).isEqualTo(State.FLOWING);
        assertThat(control.paused).isEmpty();
        assertThat(reads.get()).isEqualTo(1);
    }

    @Test
    void aFailedReadDuringTheSettleBacksOffAndTheSettleStartsAgain() {
        failTheSecondOfThreeDeliveries();
        destinationHwms.put(DESTINATION, 1L);
        recovery.start();
        assertThat(recovery.state()).isEqualTo(State.SETTLING);

        failNextReads.set(1);
        clock.advance(DestinationRecovery.SETTLE_MS);
        recovery.proceed();
        assertThat(recovery.state()).isEqualTo(State.BACKING_OFF);
        assertThat(control.lastPoll).isEqualTo(100);
        assertThat(control.retries).isEqualTo(1);

        clock.advance(100);
        recovery.proceed();
        assertThat(recovery.state()).as("two reads in a row must agree: the one before the failure does not count")
                .isEqualTo(State.SETTLING);
        assertThat(control.rewinds).isEmpty();

        assertSettledAndRewoundTo(1L, "a backoff was waited already: resumed at once");
        assertThat(control.retries).isEqualTo(1);
    }

    @Test
    void aSecondFailureWhileRecoveringDoublesTheBackoffUntilRecordsFlowAgain() {
        failTheSecondOfThreeDeliveries();
        destinationHwms.put(DESTINATION, 1L);
        failNextReads.set(2);
        recovery.start();
        assertThat(recovery.state()).isEqualTo(State.BACKING_OFF);
        assertThat(control.lastPoll).isEqualTo(100);

        clock.advance(100);
        recovery.proceed();
        assertThat(recovery.state()).isEqualTo(State.BACKING_OFF);
        assertThat(control.lastPoll).as("the second failure doubles the backoff").isEqualTo(200);
        assertThat(control.retries).isEqualTo(2);

        clock.advance(150);
        recovery.proceed();
        assertThat(control.lastPoll).as("the poll ends when the retry is due").isEqualTo(50);
        assertThat(reads.get()).isEqualTo(2);

        clock.advance(50);
        recovery.proceed(); // read once ...
        clock.advance(DestinationRecovery.SETTLE_MS);
        recovery.proceed(); // ... and once more: stable
        assertThat(recovery.state()).isEqualTo(State.FLOWING);

        Mirror m = mirrors.get(SOURCE);
        sendNext(m);
        producer().errorNext(new TimeoutException("injected: the destination is gone again"));
        failNextReads.set(1);
        recovery.start();
        assertThat(control.lastPoll).as("no record flowed since the last recovery: the backoff goes on doubling").isEqualTo(400);
        clock.advance(400);
        recovery.proceed();
        clock.advance(DestinationRecovery.SETTLE_MS);
        recovery.proceed();
        assertThat(recovery.state()).isEqualTo(State.FLOWING);

        recovery.recordsFlowed();
        sendNext(m);
        producer().errorNext(new TimeoutException("injected: once more"));
        failNextReads.set(1);
        recovery.start();
        assertThat(control.lastPoll).as("records flowed: the backoff starts again").isEqualTo(100);
    }

    @Test
    void closingDuringARecoveryWaitsForTheAbortedProducerInsteadOfFlushingIt() {
        failTheSecondOfThreeDeliveries();
        MockProducer<byte[], byte[]> aborted = producer();
        assertThatCode(recovery::drain).as("before the recovery started").doesNotThrowAnyException();

        destinationHwms.put(DESTINATION, 1L);
        recovery.start();
        assertThatCode(recovery::drain).as("while settling").doesNotThrowAnyException();
        mirrors.clear();
        recovery.abandon();
        assertThat(recovery.state()).isEqualTo(State.FLOWING);
        assertThat(recovery.deliveryFailed()).isFalse();
        assertThatCode(recovery::close).doesNotThrowAnyException();
        assertThat(aborted.closed()).isTrue();
    }

    @Test
    void closingWhileRecordsFlowFlushesThem() {
        Mirror m = open(0);
        sendNext(m);
        recovery.drain();
        assertThat(m.acked.get()).as("flushed: delivered and acknowledged").isEqualTo(1);
        assertThat(producer().closed()).isFalse();
    }

    @Test
    void aDestinationPastWhatWasSentFailsTheTaskNamingBothPositions() {
        failTheSecondOfThreeDeliveries();
        destinationHwms.put(DESTINATION, 5L);
        assertThatThrownBy(recovery::start).isInstanceOf(ConnectException.class)
                .hasMessageContaining("destination orders-copy-0 has high watermark 5")
                .hasMessageContaining("1 acknowledged and 3 sent for orders-0")
                .hasMessageContaining("delete it and create it again");
        assertThat(fatal.isSet()).isTrue();
        assertThat(control.rewinds).isEmpty();
    }

    @Test
    void aDeliveryAtAnotherOffsetFailsTheTaskAndAbortsTheProducer() {
        Mirror m = open(7);
        sendNext(m);
        producer().completeNext(); // the mock destination appends at 0: another writer, or a lost record
        assertThat(producer().closed()).isTrue();
        assertThatThrownBy(recovery::start).isInstanceOf(ConnectException.class)
                .hasMessageContaining("stored the record of orders-0 offset 7 at offset 0")
                .hasMessageContaining("another writer on the destination topic");
        assertThat(reads.get()).as("the destination is not read: the task fails").isZero();
    }

    // --- partition.failure=partition -------------------------------------------------------------------------------------

    private static final TopicPartition SOURCE1 = new TopicPartition("orders", 1);
    private static final TopicPartition DESTINATION1 = new TopicPartition("orders-copy", 1);

    private DestinationRecovery isolating() {
        return new DestinationRecovery(this::newProducer, this::readHighWatermarks, mirrors::values, control, fatal,
                new DestinationRecovery.Settings(clock, new Backoff(100, 800), "destination:9092", 10_000, true));
    }

    /**
     * Another producer wrote into one destination partition: the delivery that lands at the wrong offset aborts the one
     * shared producer (so nothing queued behind it lands anywhere, on any partition), and the recovery isolates that
     * partition, then settles and rewinds the others to their destination's high watermarks and goes on with a fresh
     * producer; the task does not fail.
     */
    @Test
    void aDeliveryAtAnotherOffsetIsolatesItsPartitionAndTheOthersGoOnThroughAFreshProducer() {
        DestinationRecovery isolating = isolating();
        Mirror m0 = open(7);
        Mirror m1 = open(SOURCE1, DESTINATION1, 3);
        for (Mirror m : List.of(m0, m1, m1)) {
            assertThat(isolating.send(new ProducerRecord<>(m.destination.topic(), m.destination.partition(), null, new byte[] {1}), m,
                    m.expected, 1)).isTrue();
            m.expected++;
        }
        MockProducer<byte[], byte[]> first = producer();
        first.completeNext(); // orders-0's record lands at 0, not 7: another writer
        assertThat(first.closed()).as("the shared producer is aborted at once").isTrue();
        first.errorNext(new TimeoutException("failed by the abort"));
        first.errorNext(new TimeoutException("failed by the abort"));
        assertThat(isolating.deliveryFailed()).as("the rest of the batch is not sent").isTrue();

        destinationHwms.put(DESTINATION1, 3L);
        isolating.start();
        assertThat(control.isolated).as("that partition only").containsOnlyKeys(SOURCE);
        assertThat(control.isolated.get(SOURCE)).contains("stored the record of orders-0 offset 7 at offset 0",
                "another writer on the destination topic");
        assertThat(fatal.isSet()).as("the task goes on").isFalse();
        assertThat(isolating.state()).as("orders-1 lost records in flight: it settles first").isEqualTo(State.SETTLING);
        clock.advance(DestinationRecovery.SETTLE_MS);
        isolating.proceed();
        clock.advance(800);
        isolating.proceed();
        assertThat(isolating.state()).isEqualTo(State.FLOWING);
        assertThat(control.rewinds).as("the others continue at their destination's high watermark").isEqualTo(Map.of(SOURCE1, 3L));
        assertThat(control.paused).as("resumed; the isolated one is the task's to keep paused").doesNotContain(SOURCE1);
        assertThat(isolating.send(new ProducerRecord<>(DESTINATION1.topic(), 1, null, new byte[] {1}), m1, 3, 1)).isTrue();
        assertThat(producer()).as("through a fresh producer").isNotSameAs(first);
    }

    @Test
    void aDestinationHighWatermarkThisTaskCannotExplainIsolatesThatPartitionAfterATransientFailure() {
        DestinationRecovery isolating = isolating();
        Mirror m0 = open(0);
        open(SOURCE1, DESTINATION1, 0);
        isolating.send(new ProducerRecord<>(DESTINATION.topic(), 0, null, new byte[] {1}), m0, 0, 1);
        m0.expected++;
        producer().errorNext(new TimeoutException("injected: request timed out"));
        destinationHwms.put(DESTINATION, 0L);
        destinationHwms.put(DESTINATION1, 4L); // orders-1 sent nothing, and its destination grew: another writer
        isolating.start();
        assertThat(control.isolated).containsOnlyKeys(SOURCE1);
        assertThat(control.isolated.get(SOURCE1)).contains("destination orders-copy-1 has high watermark 4",
                "0 acknowledged and 0 sent for orders-1");
        assertThat(fatal.isSet()).isFalse();
    }

    /** A settle time later the high watermark has not moved: the source is rewound to {@code offset} and records flow. */
    private void assertSettledAndRewoundTo(long offset, String why) {
        clock.advance(DestinationRecovery.SETTLE_MS);
        recovery.proceed();
        assertThat(recovery.state()).as(why).isEqualTo(State.FLOWING);
        assertThat(control.rewinds).isEqualTo(Map.of(SOURCE, offset));
    }

    /** The consumer as the recovery leaves it: the paused partitions, the rewinds, the last poll timeout, the isolated partitions. */
    private final class RecordingControl implements DestinationRecovery.Control {
        final Map<TopicPartition, String> isolated = new LinkedHashMap<>();
        final Set<TopicPartition> paused = new LinkedHashSet<>();
        final Map<TopicPartition, Long> rewinds = new HashMap<>();
        long lastPoll = -1;
        int retries;

        @Override
        public void pause(Collection<TopicPartition> sources) {
            paused.addAll(sources);
        }

        @Override
        public void resume(Collection<TopicPartition> sources) {
            paused.removeAll(sources);
        }

        @Override
        public void rewind(TopicPartition source, long offset) {
            rewinds.put(source, offset);
        }

        @Override
        public void pollWithin(long ms) {
            lastPoll = ms;
        }

        @Override
        public void retried() {
            retries++;
        }

        /** As the task does: the partition's mirror goes, it stays paused. */
        @Override
        public void isolate(TopicPartition source, RuntimeException failure) {
            isolated.put(source, failure.getMessage());
            mirrors.remove(source);
            paused.add(source);
        }
    }
}
