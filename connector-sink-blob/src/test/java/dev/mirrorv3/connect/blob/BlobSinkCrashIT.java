package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertChainEquals;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.chain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.readChain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker dies in the middle of a flush: its task lives on as a zombie blocked before its commit,
 * the task moves to the other worker and continues the chain, and the zombie's late commit is refused.
 */
class BlobSinkCrashIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final EnvelopeSettings PARQUET = EnvelopeSettings.parquetBytes();

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(2, Map.of("task.shutdown.graceful.timeout.ms", "1000"));

    @TempDir
    static Path root;

    @Test
    void aZombiesLateCommitIsRefusedAndTheChainContinuesExactly() throws Exception {
        String topic = "crash";
        cluster.kafka().createTopic(topic, 1);
        Faults faults = Faults.forDestination("crash");
        Map<String, String> config = sinkConfig(FaultInjectingBlobSinkConnector.class.getName(), topic, root, cluster.bootstrapServers());
        config.put("flush.max.records", "50");
        config.put("flush.max.time.ms", "600000");
        config.put("chain.check.interval.ms", "1000");
        // A task stuck in I/O keeps its consumer's heartbeats going; let the group evict it quickly.
        config.put("consumer.override.max.poll.interval.ms", "6000");
        config.put("consumer.override.session.timeout.ms", "6000");
        config.put("consumer.override.heartbeat.interval.ms", "1000");
        produceVaried(cluster.bootstrapServers(), topic, 1, 100, 1);
        cluster.deploy("crash", config);
        awaitChainNext(cluster, root, "crash", PARQUET, Map.of(0, 100L), WAIT);

        CountDownLatch release = new CountDownLatch(1);
        faults.blockNextCreate.set(release);
        produceVaried(cluster.bootstrapServers(), topic, 1, 50, 2);
        assertThat(faults.blocked.await(60, TimeUnit.SECONDS)).as("the task reached its commit of 100-149 and blocked").isTrue();

        String workerId = cluster.connect().connectorStatus("crash").tasks().get(0).workerId();
        WorkerHandle running = cluster.connect().workers().stream()
                .filter(w -> workerId.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
        cluster.connect().removeWorker(running); // its task does not stop within task.shutdown.graceful.timeout.ms

        // The task restarts on the other worker, lists the chain (0-99) and writes 100-149 itself.
        awaitChainNext(cluster, root, "crash", PARQUET, Map.of(0, 150L), WAIT);
        release.countDown();
        assertThat(faults.blockedCreateDone.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(faults.blockedCreateOutcome.get()).as("the zombie's late commit")
                .contains("another writer created").contains(ObjectName.plain(100, 149, PARQUET.format()).fileName());

        produceVaried(cluster.bootstrapServers(), topic, 1, 50, 3);
        awaitChainNext(cluster, root, "crash", PARQUET, Map.of(0, 200L), WAIT);
        assertThat(chain(root, "crash", 0, PARQUET).objects()).extracting(ObjectName::to).containsExactly(49L, 99L, 149L, 199L);
        assertChainEquals(consumeAll(cluster.bootstrapServers(), topic).get(0), readChain(root, "crash", topic, 0, PARQUET));
        assertThat(cluster.taskState("crash")).isEqualTo("RUNNING");
        cluster.delete("crash");
    }
}
