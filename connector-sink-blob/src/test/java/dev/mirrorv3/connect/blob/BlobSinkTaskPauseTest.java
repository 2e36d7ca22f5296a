package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.MutableClock;
import dev.mirrorv3.testsupport.RebalancingSinkTaskContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task against a context that keeps paused partitions as Connect does (re-paused after every rebalance until the
 * task resumes them): a partition paused while its open is retried is resumed by whichever path positions it later,
 * and open retries back off to the maximum, each one starting when its delay is over. A real source broker and a
 * real filesystem store with injected faults.
 */
class BlobSinkTaskPauseTest {
    private static final String TOPIC = "pause";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);
    private static final TopicPartition P2 = new TopicPartition(TOPIC, 2);

    private static KafkaTestBroker broker;

    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock();
    private final Faults faults = new Faults();
    private RebalancingSinkTaskContext context;
    private BlobSinkTask task;

    @BeforeAll
    static void startBroker() {
        broker = KafkaTestBroker.start();
        broker.createTopic(TOPIC, 3, Map.of());
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

    private void start(Map<String, String> extra) {
        Map<String, String> config = BlobSinkTestSupport.sinkConfig(TOPIC, root, broker.bootstrapServers());
        config.put("name", "pause-test");
        config.put("retry.backoff.initial.ms", "100");
        config.put("retry.backoff.max.ms", "800");
        config.put("flush.max.time.ms", "600000");
        config.put("chain.check.interval.ms", "600000");
        config.put("heartbeat.interval.ms", "0");
        config.put("source.lag.interval.ms", "0");
        config.putAll(extra);
        context = new RebalancingSinkTaskContext(config);
        task = new FaultInjectingTask(clock, faults);
        task.initialize(context);
        task.start(config);
    }

    @Test
    void aPartitionPausedByAFailedOpenIsResumedWhenARebalanceOpensItAgain() {
        start(Map.of());
        faults.failNextLists.set(1);
        context.assign(task, P0, P1);
        assertThat(context.consumerPaused()).as("paused while the open is retried").containsExactlyInAnyOrder(P0, P1);

        context.revoke(task, P0, P1); // before the retry; Connect pauses them again before the next open()
        context.assign(task, P0, P1);
        assertThat(context.takeOffsets()).as("positioned at the chains' ends").isEqualTo(Map.of(P0, 0L, P1, 0L));
        assertThat(context.consumerPaused()).as("positioned partitions are fetched again").isEmpty();
    }

    @Test
    void aPendingPartitionIsResumedWhenTheOpenOfAnotherOnePositionsIt() {
        start(Map.of());
        faults.failNextLists.set(1);
        context.assign(task, P0);
        assertThat(context.consumerPaused()).containsExactly(P0);

        context.assign(task, P1); // a cooperative rebalance adds P1 while P0 waits for its retry: both open now
        assertThat(context.takeOffsets()).isEqualTo(Map.of(P0, 0L, P1, 0L));
        assertThat(context.consumerPaused()).isEmpty();
    }

    @Test
    void partitionsNotBackedUpStayPausedWhileTheOthersAreResumed() {
        start(Map.of("partitions", "0,1"));
        faults.failNextLists.set(1);
        context.assign(task, P0, P1, P2);
        assertThat(context.consumerPaused()).containsExactlyInAnyOrder(P0, P1, P2);

        context.revoke(task, P0, P1, P2);
        context.assign(task, P0, P1, P2);
        assertThat(context.consumerPaused()).as("only the partition outside the setting partitions").containsExactly(P2);
    }

    @Test
    void aFailedOpenAsksForAPollThatEndsByTheFirstRetry() {
        start(Map.of());
        context.takeTimeout();
        faults.failNextLists.set(1);
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
    void whileACommitRunsEveryPollEndsWithinTenMillisecondsSoThatItsOutcomeCountsPromptly() throws Exception {
        start(Map.of("flush.max.records", "5", "flush.threads", "1"));
        context.assign(task, P0);
        task.put(List.of());
        context.takeTimeout();
        CountDownLatch release = new CountDownLatch(1);
        faults.blockNextCreate.set(release);
        task.put(records(P0, 0, 5)); // the size trigger starts a commit on the pipeline, which waits in its create
        assertThat(faults.blocked.await(10, TimeUnit.SECONDS)).as("the commit reached the store").isTrue();
        assertThat(context.takeTimeout()).as("a poll while the commit runs").isBetween(1L, 10L);

        release.countDown();
        assertThat(faults.blockedCreateDone.await(10, TimeUnit.SECONDS)).isTrue();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            task.put(List.of());
            return Long.valueOf(5).equals(context.metric("destination-offset-verified",
                    Map.of("mirror", "pause-test", "topic", TOPIC, "partition", "0")));
        });
        task.put(List.of());
        assertThat(context.takeTimeout()).as("an idle poll once the outcome is taken").isGreaterThan(10L);
    }

    @Test
    void theMetricCountsThePartitionsPausedForARetry() {
        start(Map.of());
        faults.failNextLists.set(1);
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
        faults.failNextLists.set(1_000);
        context.assign(task, P1);

        long offset = 0;
        int attempts = 1;
        for (long delay : new long[] {100, 200, 400, 800, 800, 800}) {
            clock.advance(delay - 1);
            task.put(records(P0, offset, 5)); // P0 flows meanwhile
            offset += 5;
            assertThat(openAttempts()).as("no retry before %d ms", delay).isEqualTo(attempts);
            assertThat(context.takeTimeout()).as("the poll ends by the next retry").isBetween(1L, 1L);

            clock.advance(1);
            task.put(List.of());
            attempts++;
            assertThat(openAttempts()).as("the retry after %d ms", delay).isEqualTo(attempts);
            assertThat(context.consumerPaused()).containsExactly(P1);
        }
        faults.failNextLists.set(0);
        clock.advance(800);
        task.put(List.of());
        assertThat(context.consumerPaused()).as("resumed once positioned").isEmpty();
    }

    @Test
    void aRecordWaitingForRoomReissuesTheCommitDueForItsRetry() {
        start(Map.of("flush.max.records", "5", "flush.threads", "1", "buffer.max.bytes", "1000"));
        context.assign(task, P0, P1);
        faults.failCreatesOf.put(0, true);
        task.put(records(P0, 0, 5, 100)); // the size trigger starts P0's commit, which fails transiently
        Awaitility.await("P0 paused for its retry").atMost(Duration.ofSeconds(10)).until(() -> {
            task.put(List.of());
            return context.consumerPaused().contains(P0);
        });
        faults.failCreatesOf.remove(0);
        clock.advance(100); // P0's retry is due

        // 600 bytes do not fit beside P0's 500 under the cap, and only P0's frozen commit can free room: the wait for
        // room re-issues it (the loop after the records, which would otherwise, is not reached before room is made).
        task.put(records(P1, 0, 1, 600));
        assertThat(faults.createsOf.get(0).get()).as("P0's commit, then its re-issue").isEqualTo(2);
        assertThat(context.metric("destination-offset-verified", Map.of("mirror", "pause-test", "topic", TOPIC, "partition", "0")))
                .as("P0's records durable").isEqualTo(5L);
        assertThat(context.consumerPaused()).as("P0 resumed after its retry").isEmpty();
    }

    private int openAttempts() {
        return 1_000 - faults.failNextLists.get();
    }

    private static List<SinkRecord> records(TopicPartition tp, long from, int n) {
        return records(tp, from, n, 1);
    }

    /** {@code n} records of {@code valueBytes} value bytes each (their payload bytes for buffer.max.bytes). */
    private static List<SinkRecord> records(TopicPartition tp, long from, int n, int valueBytes) {
        List<SinkRecord> out = new ArrayList<>();
        for (long o = from; o < from + n; o++) {
            byte[] value = new byte[valueBytes];
            Arrays.fill(value, (byte) o);
            out.add(new SinkRecord(tp.topic(), tp.partition(), Schema.OPTIONAL_BYTES_SCHEMA, null, Schema.OPTIONAL_BYTES_SCHEMA,
                    value, o));
        }
        return out;
    }

    @Test
    void thePeriodicChainCheckListsAPartitionOnlyBetweenItsCommits() throws Exception {
        start(Map.of("flush.max.records", "5", "flush.threads", "1", "chain.check.interval.ms", "1000"));
        context.assign(task, P0);
        task.put(List.of());
        CountDownLatch release = new CountDownLatch(1);
        faults.holdNextCreateOf.put(0, release);
        faults.listHeldCreates = true;
        task.put(records(P0, 0, 5)); // the size trigger starts a commit, held in its create
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> faults.heldCreates.containsKey(0));
        clock.advance(1000); // the chain check is due while the commit runs
        task.put(List.of());
        release.countDown();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> faults.heldCreateOutcomes.containsKey(0));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            task.put(List.of()); // the deferred check runs once the commit's outcome is taken
            return Long.valueOf(5).equals(context.metric("destination-offset-verified",
                    Map.of("mirror", "pause-test", "topic", TOPIC, "partition", "0")));
        });
        task.put(List.of());
    }

    @Test
    void thePeriodicChainCheckWaitsForAPartitionsCommitRetryInsteadOfFailingTheTaskOnTheSameOutage() {
        start(Map.of("flush.max.records", "5", "flush.threads", "1", "chain.check.interval.ms", "1000",
                "retry.backoff.initial.ms", "5000", "retry.backoff.max.ms", "5000"));
        context.assign(task, P0);
        faults.failCreatesOf.put(0, true);
        task.put(records(P0, 0, 5)); // the size trigger starts the commit, which fails transiently
        Awaitility.await("P0 paused for its retry").atMost(Duration.ofSeconds(10)).until(() -> {
            task.put(List.of());
            return context.consumerPaused().contains(P0);
        });
        clock.advance(1000); // the chain check is due, P0's retry is not
        faults.failNextLists.set(1); // the store is still away
        task.put(List.of());
        assertThat(faults.failNextLists.get()).as("P0 not listed while its commit waits for its retry").isEqualTo(1);

        faults.failCreatesOf.remove(0);
        faults.failNextLists.set(0);
        clock.advance(5000); // the retry is due: the commit, then the deferred check
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            task.put(List.of());
            return Long.valueOf(5).equals(context.metric("destination-offset-verified",
                    Map.of("mirror", "pause-test", "topic", TOPIC, "partition", "0")));
        });
    }
}
