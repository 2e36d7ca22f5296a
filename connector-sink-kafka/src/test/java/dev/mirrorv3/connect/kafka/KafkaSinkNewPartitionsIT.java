package dev.mirrorv3.connect.kafka;

import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.assertSameRecords;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.awaitDestination;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.consumeAll;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.junit.jupiter.api.Test;

/**
 * A partition added to a mirrored topic is mirrored with no action: the connector grows the destination topic to the
 * source's partition count and restarts its tasks, whose start() gives the new partition a committed offset; open()
 * positions it at the destination's high watermark.
 */
class KafkaSinkNewPartitionsIT extends SourceAndDestinationTestBase {
    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void aPartitionAddedToTheSourceIsMirroredToTheSameNumberedDestinationPartitionWithNoAction() throws Exception {
        String topic = "grown";
        String copy = "grown-copy";
        createTopics(topic, copy, 2);
        produceToSource(topic, 2, 1_000, 1);
        Map<String, String> config = config(topic);
        config.put("destination.topic", "${topic}-copy");
        config.put("tasks.max", "2"); // both tasks restart and seed; the second may find the group already joined
        config.put("partitions.watch.interval.ms", "1000");
        cluster.deploy(topic, config);
        awaitDestination(cluster, topic, destination.admin(), copy, sourceHighWatermarks(topic, 2), WAIT);

        try (Admin admin = cluster.kafka().createAdminClient()) {
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(3))).all().get(30, TimeUnit.SECONDS);
        }
        produceToSource(topic, 3, 500, 2);
        awaitDestination(cluster, topic, destination.admin(), copy, sourceHighWatermarks(topic, 3), WAIT);
        assertThat(destination.admin().describeTopics(List.of(copy)).allTopicNames().get(30, TimeUnit.SECONDS).get(copy).partitions())
                .as("destination partitions").hasSize(3);
        assertSameRecords(consumeAll(cluster.bootstrapServers(), topic), consumeAll(destination.bootstrapServers(), copy), true);
        cluster.awaitRunning(topic, WAIT);
        cluster.delete(topic);
    }
}
