package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertBackupComplete;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.chain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.filesystem;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.flushAt;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.TestConsumers;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pipelined flush (docs/blob-sink.md, "Pipelined flush") on a real worker: commits of several partitions in flight
 * when a worker dies, a transient failure of one partition while the others commit, and a rebalance that closes some
 * partitions while the others' commits are running. Each chain is checked record by record against the topic.
 */
class BlobSinkPipelineIT extends BlobSinkTwoWorkerBase {

    @BeforeEach
    void twoWorkers() {
        while (cluster.connect().workers().size() < 2) {
            cluster.connect().addWorker(); // the crash test removes one
        }
    }

    /** The fault-injecting connector's config, four flush threads, objects cut as {@link BlobSinkTestSupport#flushAt} says. */
    private static Map<String, String> config(String topic, int flushMaxRecords, long flushMaxTimeMs) {
        Map<String, String> config = sinkConfig(FaultInjectingBlobSinkConnector.class.getName(), topic, root, cluster.bootstrapServers());
        config.put("flush.threads", "4");
        flushAt(config, flushMaxRecords, flushMaxTimeMs);
        ConnectorConfigs.evictingStuckTasks(config, 500);
        return config;
    }

    /** Creates the topic, and the faults its connector's tasks will meet. */
    private static Faults topicWithFaults(String topic, int partitions) {
        cluster.kafka().createTopic(topic, partitions);
        return Faults.forDestination(topic);
    }

    /** Each chain holds every record of the topic, nothing twice and without a gap. */
    private static void assertChainsComplete(String topic, int partitions) {
        assertBackupComplete(cluster, filesystem(root), topic, topic, partitions, WAIT);
    }

    /** The faults cost neither a record nor the task. */
    private static void assertChainsCompleteAndTaskRunning(String topic, int partitions) {
        assertChainsComplete(topic, partitions);
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
    }

    private static Map<Integer, Long> each(int partitions, long next) {
        Map<Integer, Long> m = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            m.put(p, next);
        }
        return m;
    }

    @Test
    void aWorkerKilledWithCommitsInFlightForSeveralPartitionsLeavesNoGapAndNoDuplicate() throws Exception {
        String topic = "pipecrash";
        Faults faults = topicWithFaults(topic, 4);
        Map<String, String> config = config(topic, 50, 600000);
        config.put("chain.check.interval.ms", "1000");
        produceVaried(cluster.bootstrapServers(), topic, 4, 100, 1);
        cluster.deploy(topic, config);
        awaitChainNext(cluster, root, topic, PARQUET, each(4, 100), WAIT);

        CountDownLatch release = new CountDownLatch(1);
        for (int p = 0; p < 3; p++) {
            faults.holdNextCreateOf.put(p, release);
        }
        produceVaried(cluster.bootstrapServers(), topic, 4, 50, 2);
        Awaitility.await("commits of partitions 0, 1 and 2 in flight at once").atMost(WAIT)
                .until(() -> faults.heldCreates.keySet().equals(Set.of(0, 1, 2)));
        awaitChainNext(cluster, root, topic, PARQUET, Map.of(3, 150L), WAIT); // partition 3 is not held up by them

        String workerId = cluster.connect().connectorStatus(topic).tasks().get(0).workerId();
        WorkerHandle running = cluster.connect().workers().stream()
                .filter(w -> workerId.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
        cluster.connect().removeWorker(running); // its task waits for the held commits and does not stop in time

        // The task restarts on the other worker, finds each chain's end (100 for the held ones) and writes 100-149 itself.
        awaitChainNext(cluster, root, topic, PARQUET, each(4, 150), WAIT);
        release.countDown();
        Awaitility.await("the zombie's late commits").atMost(WAIT).until(() -> faults.heldCreateOutcomes.size() == 3);
        for (int p = 0; p < 3; p++) {
            assertThat(faults.heldCreateOutcomes.get(p)).as("the zombie's late commit of partition " + p)
                    .contains("another writer created").contains(ObjectName.plain(100, 149, PARQUET.format()).fileName());
        }

        produceVaried(cluster.bootstrapServers(), topic, 4, 50, 3);
        awaitChainNext(cluster, root, topic, PARQUET, each(4, 200), WAIT);
        for (int p = 0; p < 4; p++) {
            assertThat(chain(root, topic, p, PARQUET).objects()).extracting(ObjectName::to).containsExactly(49L, 99L, 149L, 199L);
        }
        assertChainsCompleteAndTaskRunning(topic, 4);
        cluster.delete(topic);
    }

    @Test
    void aTransientFailureOfOnePartitionPausesItWhileTheOthersKeepCommitting() throws Exception {
        String topic = "pipeoutage";
        Faults faults = topicWithFaults(topic, 3);
        Map<String, String> config = config(topic, 20, 500);
        faults.failCreatesOf.put(0, true);
        cluster.deploy(topic, config);
        cluster.awaitRunning(topic, WAIT);
        for (int round = 0; round < 5; round++) { // records keep coming for every partition during the outage
            produceVaried(cluster.bootstrapServers(), topic, 3, 20, 10 + round);
            Thread.sleep(300);
        }
        awaitChainNext(cluster, root, topic, PARQUET, Map.of(1, 100L, 2, 100L), WAIT);
        assertThat(chain(root, topic, 0, PARQUET).objects()).as("partition 0 is still failing").isEmpty();
        AtomicInteger attempts = faults.createsOf.computeIfAbsent(0, p -> new AtomicInteger());
        Awaitility.await("partition 0's commit is retried").atMost(WAIT).until(() -> attempts.get() >= 3);
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");

        faults.failCreatesOf.put(0, false);
        produceVaried(cluster.bootstrapServers(), topic, 3, 20, 20);
        assertChainsCompleteAndTaskRunning(topic, 3);
        assertThat(faults.createThreads).as("commits run on the pool").isNotEmpty()
                .allMatch(t -> t.startsWith("mirror-v3-flush-" + topic + "-"));
        cluster.delete(topic);
    }

    @Test
    void zeroFlushThreadsCommitOnTheTaskThreadAndATransientFailureRetriesTheBatchAsBefore() {
        String topic = "pipezero";
        Faults faults = topicWithFaults(topic, 2);
        Map<String, String> config = config(topic, 30, 1000); // the time trigger sinkConfig sets
        config.put("flush.threads", "0");
        faults.failNextCreates.set(2);
        produceVaried(cluster.bootstrapServers(), topic, 2, 100, 40);
        cluster.deploy(topic, config);
        assertChainsComplete(topic, 2);
        assertThat(faults.failNextCreates.get()).as("both injected failures were hit").isZero();
        assertThat(faults.createThreads).as("every commit on the task thread").isNotEmpty()
                .noneMatch(t -> t.startsWith("mirror-v3-flush-"));
        for (int p = 0; p < 2; p++) {
            assertThat(chain(root, topic, p, PARQUET).objects()).extracting(ObjectName::to).startsWith(29L, 59L, 89L);
        }
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        cluster.delete(topic);
    }

    @Test
    void aRebalanceClosesSomePartitionsWhileTheOthersHaveCommitsInFlight() throws Exception {
        String topic = "piperebalance";
        Faults faults = topicWithFaults(topic, 4);
        Map<String, String> config = config(topic, 10, 600000);
        config.put("consumer.override.partition.assignment.strategy", CooperativeStickyAssignor.class.getName());
        cluster.deploy(topic, config);
        cluster.awaitRunning(topic, WAIT);
        Map<Integer, CountDownLatch> holds = new HashMap<>();
        for (int p = 0; p < 4; p++) {
            holds.put(p, new CountDownLatch(1));
            faults.holdNextCreateOf.put(p, holds.get(p));
        }
        produceVaried(cluster.bootstrapServers(), topic, 4, 10, 30);
        Awaitility.await("a commit of every partition in flight").atMost(WAIT).until(() -> faults.heldCreates.size() == 4);

        // A second member of the task's group makes Connect close (revoke) some of the task's partitions only.
        try (KafkaConsumer<byte[], byte[]> intruder = TestConsumers.intruder(cluster.bootstrapServers(), topic, "connect-" + topic,
                CooperativeStickyAssignor.class)) {
            AtomicReference<Set<Integer>> closing = new AtomicReference<>();
            Awaitility.await("the task closes some partitions").atMost(WAIT).until(() -> {
                intruder.poll(Duration.ofMillis(100));
                closing.set(faults.closeStarted.poll());
                return closing.get() != null;
            });
            Set<Integer> closed = closing.get();
            assertThat(closed).as("some partitions, not all").isNotEmpty().hasSizeLessThan(4);
            Thread.sleep(500);
            assertThat(faults.closeEnded).as("close() waits for the closed partitions' commits").isEmpty();
            closed.forEach(p -> holds.get(p).countDown());
            assertThat(faults.closeEnded.poll(30, TimeUnit.SECONDS)).isEqualTo(closed);
            Set<Integer> others = new TreeSet<>(Set.of(0, 1, 2, 3));
            others.removeAll(closed);
            assertThat(faults.heldCreates.keySet()).as("the other partitions' commits are still in flight").isEqualTo(others);
            for (int p : closed) {
                assertThat(chain(root, topic, p, PARQUET).objects()).as("partition " + p + " was written before it was given up")
                        .extracting(ObjectName::to).containsExactly(9L);
            }
            others.forEach(p -> holds.get(p).countDown());
            awaitChainNext(cluster, root, topic, PARQUET, each(4, 10), WAIT);
            for (int i = 0; i < 20; i++) {
                intruder.poll(Duration.ofMillis(100)); // stays a member for a while, then leaves: the partitions come back
            }
        }
        produceVaried(cluster.bootstrapServers(), topic, 4, 10, 31);
        assertChainsCompleteAndTaskRunning(topic, 4);
        cluster.delete(topic);
    }
}
