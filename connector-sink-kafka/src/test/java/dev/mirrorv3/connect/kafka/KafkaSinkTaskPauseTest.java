package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.connect.kafka.MirrorPositions.Pair;
import dev.mirrorv3.connect.kafka.MirrorPositions.Position;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.testsupport.sink.SinkTaskPauseContract;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Kafka sink's task against a context that keeps paused partitions as Connect does: the kit's
 * {@link SinkTaskPauseContract} (its positioning fails on demand), the records that flowed meanwhile delivered, and
 * what only a sink with a destination recovery does: a partition paused during a recovery is resumed by whichever path
 * positions it later, and an idle poll with the heartbeat off does not busy-loop. A real broker holds the source and
 * destination topics; the destination producer is a {@link MockProducer} so that a delivery can fail in a unit test.
 */
class KafkaSinkTaskPauseTest extends SinkTaskPauseContract<KafkaSinkTaskPauseTest.FaultyTask> {
    private static final String COPY = "pause-copy";

    /** Whether the mock destination producer acknowledges each record at once. */
    private boolean autoComplete = true;

    @BeforeAll
    static void createTopics() {
        broker.createTopic(TOPIC, 2, Map.of());
        broker.createTopic(COPY, 2, Map.of());
    }

    @Override
    protected Map<String, String> sinkConfig() {
        Map<String, String> config = KafkaSinkTestSupport.sinkConfig(TOPIC, broker.bootstrapServers(), broker.bootstrapServers());
        config.put("destination.topic", COPY);
        config.put("heartbeat.interval.ms", "600000");
        return config;
    }

    @Override
    protected FaultyTask newTask() {
        return new FaultyTask(clock, autoComplete);
    }

    @Override
    protected void failNextOpens(int n) {
        task.failNextResolves.set(n);
    }

    @Override
    protected int failedOpens() {
        return task.failedResolves();
    }

    @Override
    protected void assertFlowedWhileOpensWereRetried(long records) {
        assertThat(task.producer.history()).hasSize((int) records);
    }

    @Test
    void anIdlePollWithTheHeartbeatOffEndsByTheInitialBackoffNotAtOnce() {
        start(Map.of("heartbeat.interval.ms", "0"));
        context.assign(task, P0);
        context.takeTimeout();
        clock.advance(5);
        task.put(List.of());
        assertThat(context.takeTimeout()).as("no busy loop of 1 ms polls when the heartbeat is off").isEqualTo(100L);
    }

    @Test
    void aRebalanceDuringARecoveryResumesThePartitionsItOpensAgain() {
        startRecoveryOfBothPartitions();
        assertThat(context.consumerPaused()).as("paused by the recovery").containsExactlyInAnyOrder(P0, P1);

        context.revoke(task, P0, P1); // Connect pauses them again before the next open()
        context.assign(task, P0, P1);
        assertThat(context.consumerPaused()).as("positioned again: fetched").isEmpty();
    }

    @Test
    void aPartitionOpenedDuringARecoveryWaitsForItsEnd() {
        startRecoveryOfBothPartitions();

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
    /** A task of both partitions whose destination producer acknowledges nothing until one delivery fails: it recovers. */
    private void startRecoveryOfBothPartitions() {
        autoComplete = false;
        start(Map.of());
        context.assign(task, P0, P1);
        task.put(records(P0, 0, 3));
        task.producer.errorNext(new TimeoutException("injected: destination unreachable"));
        task.put(List.of());
    }

    /** The Kafka sink with positioning that fails on demand and a mock destination producer. */
    static final class FaultyTask extends KafkaSinkTask {
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
