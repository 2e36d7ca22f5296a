package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.connect.kafka.MirrorPositions.Pair;
import dev.mirrorv3.connect.kafka.MirrorPositions.Position;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.MutableClock;
import dev.mirrorv3.testsupport.RebalancingSinkTaskContext;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The task against a context that keeps paused partitions as Connect does (re-paused after every rebalance until the
 * task resumes them): a partition paused while its positioning is retried, or during a recovery, is resumed by
 * whichever path positions it later; open retries back off to the maximum, each one starting when its delay is over.
 * A real broker holds the source and destination topics; positioning fails on demand, and the destination producer
 * is a {@link MockProducer} so that a delivery can fail in a unit test.
 */
class KafkaSinkTaskPauseTest {
    private static final String TOPIC = "pause";
    private static final String COPY = "pause-copy";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

    private static KafkaTestBroker broker;

    private final MutableClock clock = new MutableClock();
    private RebalancingSinkTaskContext context;
    private FaultyTask task;

    @BeforeAll
    static void startBroker() {
        broker = KafkaTestBroker.start();
        broker.createTopic(TOPIC, 2, Map.of());
        broker.createTopic(COPY, 2, Map.of());
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @AfterEach
    void stopTask() {
        if (task != null) {
            task.stop();
        }
        if (context != null) {
            context.close();
        }
    }

    private void start(boolean autoComplete) {
        start(autoComplete, Map.of());
    }

    private void start(boolean autoComplete, Map<String, String> extra) {
        Map<String, String> config = KafkaSinkTestSupport.sinkConfig(TOPIC, broker.bootstrapServers(), broker.bootstrapServers());
        config.put("name", "pause-test");
        config.put("destination.topic", COPY);
        config.put("retry.backoff.initial.ms", "100");
        config.put("retry.backoff.max.ms", "800");
        config.put("heartbeat.interval.ms", "600000");
        config.putAll(extra);
        context = new RebalancingSinkTaskContext(config);
        task = new FaultyTask(clock, autoComplete);
        task.initialize(context);
        task.start(config);
    }

    @Test
    void aPartitionPausedByAFailedOpenIsResumedWhenARebalanceOpensItAgain() {
        start(true);
        task.failNextResolves.set(1);
        context.assign(task, P0, P1);
        assertThat(context.consumerPaused()).as("paused while positioning is retried").containsExactlyInAnyOrder(P0, P1);

        context.revoke(task, P0, P1); // before the retry; Connect pauses them again before the next open()
        context.assign(task, P0, P1);
        assertThat(context.takeOffsets()).as("positioned at the destination's high watermarks").isEqualTo(Map.of(P0, 0L, P1, 0L));
        assertThat(context.consumerPaused()).as("positioned partitions are fetched again").isEmpty();
    }

    @Test
    void aPendingPartitionIsResumedWhenTheOpenOfAnotherOnePositionsIt() {
        start(true);
        task.failNextResolves.set(1);
        context.assign(task, P0);
        assertThat(context.consumerPaused()).containsExactly(P0);

        context.assign(task, P1); // a cooperative rebalance adds P1 while P0 waits for its retry: both are positioned now
        assertThat(context.takeOffsets()).isEqualTo(Map.of(P0, 0L, P1, 0L));
        assertThat(context.consumerPaused()).isEmpty();
    }

    @Test
    void aFailedOpenAsksForAPollThatEndsByTheFirstRetry() {
        start(true);
        context.takeTimeout();
        task.failNextResolves.set(1);
        context.assign(task, P0);
        assertThat(context.takeTimeout()).isBetween(1L, 100L);
    }

    @Test
    void everyPollEndsWithinTheInitialBackoffSoThatAnOpenFailingInItIsRetriedPromptly() {
        start(true);
        assertThat(context.takeTimeout()).as("the first poll, which runs the first open()").isBetween(1L, 100L);
        context.assign(task, P0);
        task.put(List.of());
        assertThat(context.takeTimeout()).as("an idle poll").isBetween(1L, 100L);
    }

    @Test
    void anIdlePollWithTheHeartbeatOffEndsByTheInitialBackoffNotAtOnce() {
        start(true, Map.of("heartbeat.interval.ms", "0"));
        context.assign(task, P0);
        context.takeTimeout();
        clock.advance(5);
        task.put(List.of());
        assertThat(context.takeTimeout()).as("no busy loop of 1 ms polls when the heartbeat is off").isEqualTo(100L);
    }

    @Test
    void theMetricCountsThePartitionsPausedForARetry() {
        start(true);
        task.failNextResolves.set(1);
        context.assign(task, P0, P1);
        assertThat(context.metric("partitions-paused-for-retry", Map.of("mirror", "pause-test"))).isEqualTo(2L);
        clock.advance(100);
        task.put(List.of());
        assertThat(context.metric("partitions-paused-for-retry", Map.of("mirror", "pause-test"))).isEqualTo(0L);
    }

    @Test
    void openRetriesBackOffToTheMaximumWhileOtherPartitionsFlowAndEachStartsOnTime() {
        start(true);
        context.assign(task, P0);
        task.failNextResolves.set(1_000);
        context.assign(task, P1);

        long offset = 0;
        int attempts = 1;
        for (long delay : new long[] {100, 200, 400, 800, 800, 800}) {
            clock.advance(delay - 1);
            task.put(records(P0, offset, 5)); // P0 flows meanwhile
            offset += 5;
            assertThat(task.failedResolves()).as("no retry before %d ms", delay).isEqualTo(attempts);
            assertThat(context.takeTimeout()).as("the poll ends by the next retry").isBetween(1L, 1L);

            clock.advance(1);
            task.put(List.of());
            attempts++;
            assertThat(task.failedResolves()).as("the retry after %d ms", delay).isEqualTo(attempts);
            assertThat(context.consumerPaused()).containsExactly(P1);
        }
        task.failNextResolves.set(0);
        clock.advance(800);
        task.put(List.of());
        assertThat(context.consumerPaused()).as("resumed once positioned").isEmpty();
        assertThat(task.producer.history()).hasSize((int) offset);
    }

    @Test
    void aRebalanceDuringARecoveryResumesThePartitionsItOpensAgain() {
        start(false);
        context.assign(task, P0, P1);
        startRecovery();
        assertThat(context.consumerPaused()).as("paused by the recovery").containsExactlyInAnyOrder(P0, P1);

        context.revoke(task, P0, P1); // Connect pauses them again before the next open()
        context.assign(task, P0, P1);
        assertThat(context.consumerPaused()).as("positioned again: fetched").isEmpty();
    }

    @Test
    void aPartitionOpenedDuringARecoveryWaitsForItsEnd() {
        start(false);
        context.assign(task, P0, P1);
        startRecovery();

        context.revoke(task, P1);
        context.assign(task, P1);
        assertThat(context.consumerPaused()).as("records fetched now would be dropped by the recovery").containsExactlyInAnyOrder(P0, P1);
        assertThat(context.metric("partitions-paused-for-retry", Map.of("mirror", "pause-test"))).isEqualTo(2L);

        clock.advance(100);
        task.put(List.of()); // after its backoff the recovery reads the destination's high watermarks ...
        assertThat(context.consumerPaused()).as("still recovering: records were lost in flight").containsExactlyInAnyOrder(P0, P1);
        clock.advance(DestinationRecovery.SETTLE_MS);
        task.put(List.of()); // ... and again: they have not moved, so it continues from them
        assertThat(context.consumerPaused()).as("the recovery is over").isEmpty();
        assertThat(context.metric("partitions-paused-for-retry", Map.of("mirror", "pause-test"))).isEqualTo(0L);
    }

    /** The first of three records in flight fails with a transient error: the next put() starts the recovery. */
    private void startRecovery() {
        task.put(records(P0, 0, 3));
        task.producer.errorNext(new TimeoutException("injected: destination unreachable"));
        task.put(List.of());
    }

    private static List<SinkRecord> records(TopicPartition tp, long from, int n) {
        List<SinkRecord> out = new ArrayList<>();
        for (long o = from; o < from + n; o++) {
            out.add(new SinkRecord(tp.topic(), tp.partition(), Schema.OPTIONAL_BYTES_SCHEMA, null, Schema.OPTIONAL_BYTES_SCHEMA,
                    new byte[] {(byte) o}, o));
        }
        return out;
    }

    /** The Kafka sink with positioning that fails on demand and a mock destination producer. */
    private static final class FaultyTask extends KafkaSinkTask {
        final AtomicInteger failNextResolves = new AtomicInteger();
        private final AtomicInteger failed = new AtomicInteger();
        private final boolean autoComplete;
        MockProducer<byte[], byte[]> producer;

        FaultyTask(Clock clock, boolean autoComplete) {
            super(clock);
            this.autoComplete = autoComplete;
        }

        int failedResolves() {
            return failed.get();
        }

        @Override
        protected Producer<byte[], byte[]> createProducer(Map<String, Object> producerConfig) {
            producer = new MockProducer<>(autoComplete, null, new ByteArraySerializer(), new ByteArraySerializer());
            return producer;
        }

        @Override
        protected PerPartition<Position> resolvePositions(List<Pair> pairs) {
            if (failNextResolves.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                failed.incrementAndGet();
                throw new TimeoutException("injected: destination unreachable");
            }
            return super.resolvePositions(pairs);
        }
    }
}
