package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertChainEquals;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.chain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.flushAt;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.readChain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.TemporaryFiles;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A worker dies in the middle of a flush: its task lives on as a zombie blocked before its commit,
 * the task moves to the other worker and continues the chain, and the zombie's late commit is refused.
 */
class BlobSinkCrashIT extends BlobSinkTwoWorkerBase {

    @Test
    void aZombiesLateCommitIsRefusedAndTheChainContinuesExactly() throws Exception {
        String topic = "crash";
        cluster.kafka().createTopic(topic, 1);
        Faults faults = Faults.forDestination("crash");
        Map<String, String> config = sinkConfig(FaultInjectingBlobSinkConnector.class.getName(), topic, root, cluster.bootstrapServers());
        flushAt(config, 50, 600000);
        config.put("chain.check.interval.ms", "1000");
        ConnectorConfigs.evictingStuckTasks(config, 1000);
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

    /**
     * A worker lost while the snapshot thread is in its write: the killed write leaves a partial temporary file under
     * _meta and no snapshot; the moved task removes the temporary file and commits the next snapshots.
     */
    @Test
    void aSnapshotWriteInterruptedByALostWorkerLeavesNoPartialSnapshotAndTheMovedTaskCommitsTheNext() throws Exception {
        while (cluster.connect().workers().size() < 2) {
            cluster.connect().addWorker(); // the other test of this class removes one
        }
        String topic = "metacrash";
        cluster.kafka().createTopic(topic, 1);
        produceVaried(cluster.bootstrapServers(), topic, 1, 20, 1);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            admin.alterConsumerGroupOffsets("app", Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(7))).all()
                    .get(30, TimeUnit.SECONDS);
        }
        Faults faults = Faults.forDestination(topic);
        CountDownLatch release = new CountDownLatch(1);
        faults.killNextSnapshotWrite.set(release);
        Map<String, String> config = sinkConfig(FaultInjectingBlobSinkConnector.class.getName(), topic, root, cluster.bootstrapServers());
        config.put("metadata.interval.ms", "500");
        config.put("groups.interval.ms", "500");
        ConnectorConfigs.evictingStuckTasks(config, 1000);
        cluster.deploy(topic, config);
        try {
            assertThat(faults.snapshotWriteKilled.await(60, TimeUnit.SECONDS)).as("the first snapshot write was killed").isTrue();
            Path meta = root.resolve(topic).resolve("_meta");
            MetaSnapshots snapshots = new MetaSnapshots(new FilesystemStore(root, topic), ObjectEncryption.none());
            assertThat(temporaryFiles(meta)).as("the killed write's leftover").hasSize(1);
            assertThat(snapshots.topicNames()).as("readers ignore it").isEmpty();
            assertThat(snapshots.groupNames()).isEmpty();

            // The task's status reaches the REST API through the status topic, possibly after its first snapshot write.
            String workerId = Awaitility.await("the task's status").atMost(WAIT).pollInterval(Duration.ofMillis(100))
                    .until(() -> cluster.connect().connectorStatus(topic).tasks(), tasks -> !tasks.isEmpty()).get(0).workerId();
            WorkerHandle running = cluster.connect().workers().stream()
                    .filter(w -> workerId.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
            cluster.connect().removeWorker(running); // the snapshot thread hangs in its write: the task cannot stop

            Awaitility.await("the moved task's snapshots").atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() ->
                    snapshots.newestTopic().isPresent() && snapshots.newestGroups()
                            .filter(g -> g.snapshot().groups().containsKey("app")).isPresent());
            assertThat(snapshots.newestTopic().orElseThrow().snapshot().partitions()).isEqualTo(1);
            assertThat(snapshots.newestGroups().orElseThrow().snapshot().groups().get("app").get(0).offset()).isEqualTo(7);
            assertThat(temporaryFiles(meta)).as("the leftover is removed by the moved task").isEmpty();
        } finally {
            release.countDown();
            cluster.delete(topic);
        }
    }

    private static List<Path> temporaryFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> TemporaryFiles.isTemporary(f.getFileName().toString())).toList();
        }
    }
}
