package dev.mirrorv3.connect.source;

import static dev.mirrorv3.connect.source.ChainSourceTestSupport.awaitPartitionFailed;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.consumeAll;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.createTopic;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.highWatermark;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.records;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.sourceConfig;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.writeObject;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.FailureNotes;
import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.OneWorkerTestBase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * One task follows three backup partitions; one chain breaks (a gap: an object missing): that partition is isolated,
 * named by its gauge, its failure note on the target cluster (what mirror-v3 status shows) and one log line; the other
 * partitions go on and stay exact; the broken one is not restored past the gap. Once the missing object is back, a
 * restart of the connector's tasks (restart?includeTasks=true) resumes it (docs/operations.md, "A failed partition").
 */
class ChainSourceIsolationIT extends OneWorkerTestBase {
    private static final Duration WAIT = Duration.ofSeconds(90);

    private static void assertRestored(String target, int partition, long count) {
        List<ConsumerRecord<byte[], byte[]>> restored = consumeAll(cluster.bootstrapServers(), target).get(partition);
        List<BackupRecord> backup = records("t", partition, 0, count - 1, o -> true);
        assertThat(restored).hasSize((int) count);
        for (int i = 0; i < count; i++) {
            assertThat(restored.get(i).offset()).isEqualTo(backup.get(i).offset());
            assertThat(restored.get(i).key()).isEqualTo(backup.get(i).key());
            assertThat(restored.get(i).value()).isEqualTo(backup.get(i).value());
        }
    }

    @Test
    void aBrokenChainIsolatesItsPartitionTheOthersGoOnAndARestartResumesItOnceRepaired() throws Exception {
        String name = "iso-follow";
        String target = "iso-follow-target";
        Store store = new FilesystemStore(root, "iso-backup");
        for (int p = 0; p < 3; p++) {
            writeObject(store, p, 0, 9, records("t", p, 0, 9, o -> true));
        }
        createTopic(cluster.bootstrapServers(), target, 3);
        Map<String, String> config = sourceConfig("t", root, "iso-backup", target, "preserve", cluster.bootstrapServers());
        config.put("tasks.max", "1");
        try (LogCapture logs = LogCapture.attach()) {
            cluster.deploy(name, config);
            Awaitility.await("every partition restored to 10").atMost(WAIT).until(() -> List.of(0, 1, 2).stream()
                    .allMatch(p -> highWatermark(cluster.bootstrapServers(), target, p) == 10));
            writeObject(store, 1, 20, 29, records("t", 1, 20, 29, o -> true)); // 10-19 missing: a gap in partition 1's chain
            for (int p : List.of(0, 2)) {
                writeObject(store, p, 10, 19, records("t", p, 10, 19, o -> true));
            }

            String note = awaitPartitionFailed(cluster, name, "t", 1, new TopicPartition(target, 1), WAIT);
            assertThat(note).contains("partition FAILED since", "needs an operator", "gap in the chain",
                    "offsets 10-19 are in no object");
            Awaitility.await("the other partitions go on").atMost(WAIT).until(() -> highWatermark(cluster.bootstrapServers(), target, 0)
                    == 20 && highWatermark(cluster.bootstrapServers(), target, 2) == 20);
            assertRestored(target, 0, 20);
            assertRestored(target, 2, 20);
            assertThat(highWatermark(cluster.bootstrapServers(), target, 1)).as("not restored past the gap").isEqualTo(10);
            assertThat(cluster.taskState(name)).isEqualTo("RUNNING");
            List<String> lines = logs.lines().stream().filter(l -> l.contains("t-1 FAILED and is isolated")).toList();
            assertThat(lines).as("one log line, with what to do").hasSize(1);
            assertThat(lines.get(0)).contains("gap in the chain", "restart?includeTasks=true");
        }

        writeObject(store, 1, 10, 19, records("t", 1, 10, 19, o -> true)); // the operator puts the missing object back
        cluster.connect().restartConnectorAndTasks(name, false, true, false);
        Awaitility.await("partition 1 resumed").atMost(WAIT).until(() -> highWatermark(cluster.bootstrapServers(), target, 1) == 30);
        assertRestored(target, 1, 30);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            FailureNotes notes = new FailureNotes(admin, FailureNotes.groupId(name), Duration.ofSeconds(10));
            Awaitility.await("its failure note cleared").atMost(WAIT).until(() -> notes.read().isEmpty()
                    && cluster.partitionFailedGauge(name, "t", 1) == 0);
        }
        cluster.delete(name);
    }

    /** With partition.failure=task a broken chain fails the task, as before isolation existed. */
    @Test
    void withPartitionFailureTaskABrokenChainFailsTheTask() {
        String name = "iso-follow-task";
        String target = "iso-follow-task-target";
        Store store = new FilesystemStore(root, "iso-task-backup");
        writeObject(store, 0, 0, 9, records("t", 0, 0, 9, o -> true));
        writeObject(store, 0, 20, 29, records("t", 0, 20, 29, o -> true));
        createTopic(cluster.bootstrapServers(), target, 1);
        Map<String, String> config = sourceConfig("t", root, "iso-task-backup", target, "preserve", cluster.bootstrapServers());
        config.put("partition.failure", "task");
        cluster.deploy(name, config);
        assertThat(cluster.awaitTaskFailure(name, WAIT)).contains("gap in the chain");
        cluster.delete(name);
    }
}
