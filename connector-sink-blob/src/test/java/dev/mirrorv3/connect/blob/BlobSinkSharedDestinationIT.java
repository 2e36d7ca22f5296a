package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.chain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two connectors sharing one destination with {@code partitions=} (A backs up partitions 0-1, B 2-3), a supported
 * layout, with a real worker and broker: the topic id is the backup's, not one connector's.
 */
class BlobSinkSharedDestinationIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final EnvelopeSettings PARQUET = EnvelopeSettings.parquetBytes();
    private static final String TOPIC = "shared-reborn";
    private static final String DESTINATION = "shared-backup";

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);

    @TempDir
    Path root;

    private Map<String, String> config(String partitions) {
        Map<String, String> c = new HashMap<>(sinkConfig(TOPIC, root, cluster.bootstrapServers()));
        c.put("destination.name", DESTINATION);
        c.put("partitions", partitions);
        ConnectorConfigs.with(c, "flush.max.records", "50", "flush.max.time.ms", "300", "metadata.interval.ms", "300",
                "groups.interval.ms", "300", "groups.include", "shared-app");
        return c;
    }

    /**
     * The topic deleted and created again while both connectors were stopped; B's partitions never held a record. When
     * they start again, B (empty partitions) must not record the new topic's id, or A's chains would then pass the
     * identity check and continue the old topic's backup with the new topic's records. Both isolate every partition
     * of the topic (the tasks go on RUNNING), nothing of the new topic is written, and the backup's group positions
     * stay the old topic's.
     */
    @Test
    void aTopicCreatedAgainIsRefusedByBothConnectorsOfASharedDestination() throws Exception {
        cluster.kafka().createTopic(TOPIC, 4);
        produceVaried(cluster.bootstrapServers(), TOPIC, 2, 100, 1); // partitions 0 and 1 only: B's stay empty
        commit("shared-app", Map.of(0, 40L, 1, 60L));
        cluster.deploy("shared-a", config("0,1"));
        cluster.deploy("shared-b", config("2,3"));
        awaitChainNext(cluster, t -> new FilesystemStore(root, t), DESTINATION, PARQUET, Map.of(0, 100L, 1, 100L), WAIT);
        MetaSnapshots meta = new MetaSnapshots(new FilesystemStore(root, DESTINATION), ObjectEncryption.none());
        Awaitility.await("the group snapshot of shared-app").atMost(WAIT).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> meta.newestGroups().map(s -> s.snapshot().groups().get("shared-app"))
                        .filter(g -> g.keySet().equals(java.util.Set.of(0, 1))).isPresent());
        String oldId = meta.newestTopic().orElseThrow().snapshot().topicId();
        MetaName goodGroups = meta.newestGroups().orElseThrow().name();
        cluster.stop("shared-a", WAIT);
        cluster.stop("shared-b", WAIT);

        cluster.kafka().deleteTopic(TOPIC);
        Awaitility.await("the topic created again").atMost(WAIT).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> {
                    cluster.kafka().createTopic(TOPIC, 4);
                    return true;
                });
        produceVaried(cluster.bootstrapServers(), TOPIC, 4, 300, 2); // larger than the old topic on every partition
        commit("shared-app", Map.of(0, 5L, 2, 7L));

        cluster.connect().resumeConnector("shared-b");
        for (int p = 2; p < 4; p++) {
            assertThat(cluster.awaitPartitionFailed("shared-b", TOPIC, p, WAIT)).as("B's partition %d", p).contains(
                    "source topic " + TOPIC + " was deleted and created again", "holds records of the topic with id " + oldId,
                    "Nothing of the new topic was written for " + TOPIC + "-");
        }
        cluster.connect().resumeConnector("shared-a");
        for (int p = 0; p < 2; p++) {
            assertThat(cluster.awaitPartitionFailed("shared-a", TOPIC, p, WAIT)).as("A's partition %d", p).contains(
                    "source topic " + TOPIC + " was deleted and created again",
                    "(next offset 100) holds a copy of the topic with id " + oldId);
        }
        Thread.sleep(1_000); // a group snapshot pass of a task that did run would have written by now
        assertThat(cluster.taskState("shared-a")).as("A's task: its partitions isolated, not failed").isEqualTo("RUNNING");
        assertThat(cluster.taskState("shared-b")).as("B's task: its partitions isolated, not failed").isEqualTo("RUNNING");

        for (int p = 0; p < 4; p++) {
            assertThat(chain(t -> new FilesystemStore(root, t), DESTINATION, p, PARQUET).nextOffset()).as("partition %d: nothing of the"
                    + " new topic", p).isEqualTo(p < 2 ? java.util.OptionalLong.of(100) : java.util.OptionalLong.empty());
        }
        assertThat(meta.newestTopic().orElseThrow().snapshot().topicId()).as("the backup's topic id").isEqualTo(oldId);
        GroupSnapshot groups = meta.newestGroups().orElseThrow().snapshot();
        assertThat(meta.newestGroups().orElseThrow().name()).as("no group snapshot of the new topic").isEqualTo(goodGroups);
        assertThat(groups.groups().get("shared-app")).containsOnlyKeys(0, 1);
        assertThat(groups.groups().get("shared-app").get(0).offset()).isEqualTo(40);
        assertThat(new ObjectMapper().readTree(new FilesystemStore(root, DESTINATION).readBeside(MetaSnapshots.GROUPS_DIR,
                goodGroups.fileName())).path("topic_id").asText()).isEqualTo(oldId);
        cluster.delete("shared-a");
        cluster.delete("shared-b");
    }

    private static void commit(String group, Map<Integer, Long> offsets) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> o = new HashMap<>();
        offsets.forEach((p, c) -> o.put(new TopicPartition(TOPIC, p), new OffsetAndMetadata(c)));
        try (Admin admin = cluster.kafka().createAdminClient()) {
            admin.alterConsumerGroupOffsets(group, o).all().get(30, TimeUnit.SECONDS);
        }
    }
}
