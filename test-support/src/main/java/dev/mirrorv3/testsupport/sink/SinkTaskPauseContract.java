package dev.mirrorv3.testsupport.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.MutableClock;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkTask;
import org.junit.jupiter.api.Test;

/**
 * What every positioned sink task must do with the partitions it pauses, checked against each connector (each
 * subclasses this with its task and a way to make its opens fail): against a context that keeps paused partitions as
 * Connect does (re-paused after every rebalance until the task resumes them), a partition paused while its open
 * (positioning) is retried is resumed by whichever path positions it later, every poll ends by the next retry, and
 * open retries back off from retry.backoff.initial.ms (100) to retry.backoff.max.ms (800), each one starting when its
 * delay is over. A subclass creates {@link #TOPIC} with at least two partitions.
 */
public abstract class SinkTaskPauseContract<T extends SinkTask> extends SinkTaskHarness<T> {
    protected static final String TOPIC = "pause";
    protected static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    protected static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

    protected final MutableClock clock = new MutableClock();

    /** A valid config of the connector's task copying {@link #TOPIC}. */
    protected abstract Map<String, String> sinkConfig();

    /** A new task of the connector on {@link #clock}, whose opens fail as {@link #failNextOpens} arms. */
    protected abstract T newTask();

    /** The next {@code n} opens (positionings) of a partition fail transiently; 0 disarms. */
    protected abstract void failNextOpens(int n);

    /** How many of the opens armed by {@link #failNextOpens} have failed so far (a test arms them once). */
    protected abstract int failedOpens();

    /** After {@code records} records of P0 were put while P1's open was retried: what the connector wrote of them. */
    protected void assertFlowedWhileOpensWereRetried(long records) {
    }

    /** Starts a task named pause-test, retries backing off from 100 ms to 800 ms, with {@code extra} settings. */
    protected final void start(Map<String, String> extra) {
        Map<String, String> config = sinkConfig();
        config.put("name", "pause-test");
        config.put("retry.backoff.initial.ms", "100");
        config.put("retry.backoff.max.ms", "800");
        config.putAll(extra);
        start(newTask(), config);
    }

    @Test
    void aPartitionPausedByAFailedOpenIsResumedWhenARebalanceOpensItAgain() {
        start(Map.of());
        failNextOpens(1);
        context.assign(task, P0, P1);
        assertThat(context.consumerPaused()).as("paused while the open is retried").containsExactlyInAnyOrder(P0, P1);

        context.revoke(task, P0, P1); // before the retry; Connect pauses them again before the next open()
        context.assign(task, P0, P1);
        assertThat(context.takeOffsets()).as("positioned (at the chains' ends, at the destination's high watermarks)")
                .isEqualTo(Map.of(P0, 0L, P1, 0L));
        assertThat(context.consumerPaused()).as("positioned partitions are fetched again").isEmpty();
    }

    @Test
    void aPendingPartitionIsResumedWhenTheOpenOfAnotherOnePositionsIt() {
        start(Map.of());
        failNextOpens(1);
        context.assign(task, P0);
        assertThat(context.consumerPaused()).containsExactly(P0);

        context.assign(task, P1); // a cooperative rebalance adds P1 while P0 waits for its retry: both open now
        assertThat(context.takeOffsets()).isEqualTo(Map.of(P0, 0L, P1, 0L));
        assertThat(context.consumerPaused()).isEmpty();
    }

    @Test
    void aFailedOpenAsksForAPollThatEndsByTheFirstRetry() {
        start(Map.of());
        context.takeTimeout();
        failNextOpens(1);
        context.assign(task, P0);
        assertThat(context.takeTimeout()).isBetween(1L, 100L);
    }

    @Test
    void everyPollEndsWithinTheInitialBackoffSoThatAnOpenFailingInItIsRetriedPromptly() {
        start(Map.of());
        assertThat(context.takeTimeout()).as("the first poll, which runs the first open()").isBetween(1L, 100L);
        context.assign(task, P0);
        task.put(List.of());
        assertThat(context.takeTimeout()).as("an idle poll").isBetween(1L, 100L);
    }

    @Test
    void theMetricCountsThePartitionsPausedForARetry() {
        start(Map.of());
        failNextOpens(1);
        context.assign(task, P0, P1);
        assertThat(context.metric("partitions-paused-for-retry", Map.of("mirror", "pause-test"))).isEqualTo(2L);
        clock.advance(100);
        task.put(List.of());
        assertThat(context.metric("partitions-paused-for-retry", Map.of("mirror", "pause-test"))).isEqualTo(0L);
    }

    @Test
    void openRetriesBackOffToTheMaximumWhileOtherPartitionsFlowAndEachStartsOnTime() {
        start(Map.of());
        context.assign(task, P0);
        failNextOpens(1_000);
        context.assign(task, P1);

        long offset = 0;
        int attempts = 1;
        for (long delay : new long[] {100, 200, 400, 800, 800, 800}) {
            clock.advance(delay - 1);
            task.put(records(P0, offset, 5)); // P0 flows meanwhile
            offset += 5;
            assertThat(failedOpens()).as("no retry before %d ms", delay).isEqualTo(attempts);
            assertThat(context.takeTimeout()).as("the poll ends by the next retry").isBetween(1L, 1L);

            clock.advance(1);
            task.put(List.of());
            attempts++;
            assertThat(failedOpens()).as("the retry after %d ms", delay).isEqualTo(attempts);
            assertThat(context.consumerPaused()).containsExactly(P1);
        }
        failNextOpens(0);
        clock.advance(800);
        task.put(List.of());
        assertThat(context.consumerPaused()).as("resumed once positioned").isEmpty();
        assertFlowedWhileOpensWereRetried(offset);
    }
}
