package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.createTopicWithRecords;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.OneWorkerTestBase;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Partitions added to a backed-up topic are backed up from their log start with no action: the connector watches the
 * topic's partition count and restarts its task, whose start() gives the new partition a committed offset while the
 * group is empty. A seeding failure fails the task with a message that says what to do.
 */
class BlobSinkNewPartitionsIT extends OneWorkerTestBase {
    private static final Duration WAIT = Duration.ofSeconds(120);

    private static void grow(String topic, int partitions) throws Exception {
        try (Admin admin = cluster.kafka().createAdminClient()) {
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions))).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** The connector's config, its watch looking for new partitions every {@code intervalMs}. */
    private static Map<String, String> watchingPartitionsEvery(String topic, long intervalMs) {
        Map<String, String> config = sinkConfig(topic, root, cluster.bootstrapServers());
        config.put("partitions.watch.interval.ms", Long.toString(intervalMs));
        return config;
    }

    /** Each partition's chain holds every record of the topic, nothing twice and without a gap. */
    private static void assertBackupComplete(String topic, int partitions) {
        BlobSinkTestSupport.assertBackupComplete(cluster, BlobSinkTestSupport.filesystem(root), topic, topic, partitions, WAIT);
    }

    @Test
    void aPartitionAddedToTheTopicIsBackedUpFromItsLogStartWithNoAction() throws Exception {
        String topic = "grown";
        createTopicWithRecords(cluster, topic, 2, 500, 1);
        Map<String, String> config = watchingPartitionsEvery(topic, 1000);
        cluster.deploy(topic, config);
        assertBackupComplete(topic, 2);

        grow(topic, 3);
        produceVaried(cluster.bootstrapServers(), topic, 3, 300, 2);
        // The consumer alone would notice the new partition only at its next metadata refresh (5 minutes by default) and
        // then fail with NoOffsetForPartitionException; the connector's watch restarts the task well before.
        assertBackupComplete(topic, 3);
        cluster.awaitRunning(topic, WAIT);
        cluster.delete(topic);
    }

    @Test
    void aTaskWhoseConsumerNoticesTheNewPartitionFirstIsReplacedWithNoAction() throws Exception {
        String topic = "noticed-first";
        createTopicWithRecords(cluster, topic, 1, 200, 3);
        // The consumer refreshes its metadata every second, the connector looks every 20 s: the consumer notices the
        // new partition first, and its task fails in Connect's rebalance callback (no committed offset, reset none).
        Map<String, String> config = watchingPartitionsEvery(topic, 20000);
        config.put("consumer.override.metadata.max.age.ms", "1000");
        cluster.deploy(topic, config);
        assertBackupComplete(topic, 1);

        grow(topic, 2);
        String trace = cluster.awaitTaskFailure(topic, WAIT);
        assertThat(trace).contains("NoOffsetForPartitionException");
        produceVaried(cluster.bootstrapServers(), topic, 2, 200, 4);
        cluster.awaitRunning(topic, WAIT); // replaced by the connector's reconfiguration, not by the test
        assertBackupComplete(topic, 2);
        cluster.delete(topic);
    }

    @Test
    void aSeedingFailureAtStartFailsTheTaskWithAMessageThatSaysWhatToDo() throws Exception {
        String topic = "seed-refused";
        String other = "seed-refused-other";
        cluster.kafka().createTopic(topic, 2);
        cluster.kafka().createTopic(other, 1);
        produceVaried(cluster.bootstrapServers(), topic, 2, 50, 5);
        AtomicBoolean stop = new AtomicBoolean();
        // Another consumer in the connector's group (connect-<name>): the broker refuses to set a non-empty group's offsets.
        Thread foreign = new Thread(() -> {
            Map<String, Object> c = new HashMap<>();
            c.put("bootstrap.servers", cluster.bootstrapServers());
            c.put("group.id", "connect-" + topic);
            c.put("client.id", "foreign-member");
            c.put("key.deserializer", ByteArrayDeserializer.class);
            c.put("value.deserializer", ByteArrayDeserializer.class);
            c.put("auto.offset.reset", "earliest");
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
                consumer.subscribe(List.of(other));
                while (!stop.get()) {
                    consumer.poll(Duration.ofMillis(100));
                }
            }
        }, "foreign-group-member");
        foreign.start();
        try (Admin admin = cluster.kafka().createAdminClient()) {
            Awaitility.await("the foreign consumer joined group connect-" + topic).atMost(WAIT).until(() ->
                    !admin.describeConsumerGroups(List.of("connect-" + topic)).all().get().get("connect-" + topic).members().isEmpty());
        }
        try {
            Map<String, String> config = sinkConfig(topic, root, cluster.bootstrapServers());
            config.put("source.admin.timeout.ms", "2000");
            cluster.deploy(topic, config);
            String trace = cluster.awaitTaskFailure(topic, WAIT);
            assertThat(trace)
                    .contains("consumer group connect-" + topic)
                    .contains(topic + "-0").contains(topic + "-1")
                    .contains("foreign-member")
                    .contains("NoOffsetForPartitionException")
                    .contains("restart the task");
            assertThat(trace).as("failed in start(), before the consumer could fail with a bare exception")
                    .doesNotContain("Undefined offset with no reset policy");
        } finally {
            stop.set(true);
            foreign.join(30_000);
            cluster.delete(topic);
        }
    }
}
