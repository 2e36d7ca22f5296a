package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.sink.SinkTaskPauseContract;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The blob sink's task against a context that keeps paused partitions as Connect does: the kit's
 * {@link SinkTaskPauseContract} (its opens fail on a list of the store), and what only a sink with a commit pipeline
 * does: a partition outside the setting partitions stays paused, polls end promptly while a commit runs, a record
 * waiting for room re-issues the commit due for its retry, and the periodic chain check waits for a partition's
 * commits. A real source broker and a real filesystem store with injected faults.
 */
class BlobSinkTaskPauseTest extends SinkTaskPauseContract<BlobSinkTask> {
    private static final TopicPartition P2 = new TopicPartition(TOPIC, 2);

    @TempDir
    Path root;

    private final Faults faults = new Faults();
    private int armedListFailures;

    @BeforeAll
    static void createTopic() {
        broker.createTopic(TOPIC, 3, Map.of());
    }

    @Override
    protected Map<String, String> sinkConfig() {
        return BlobSinkTestSupport.handDrivenTaskConfig(TOPIC, root, broker.bootstrapServers());
    }

    @Override
    protected BlobSinkTask newTask() {
        return new FaultInjectingTask(clock, faults);
    }

    @Override
    protected void failNextOpens(int n) {
        armedListFailures = n;
        faults.failNextLists.set(n);
    }

    @Override
    protected int failedOpens() {
        return armedListFailures - faults.failNextLists.get();
    }

    @Test
    void partitionsNotBackedUpStayPausedWhileTheOthersAreResumed() {
        start(Map.of("partitions", "0,1"));
        failNextOpens(1);
        context.assign(task, P0, P1, P2);
        assertThat(context.consumerPaused()).containsExactlyInAnyOrder(P0, P1, P2);

        context.revoke(task, P0, P1, P2);
        context.assign(task, P0, P1, P2);
        assertThat(context.consumerPaused()).as("only the partition outside the setting partitions").containsExactly(P2);
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
