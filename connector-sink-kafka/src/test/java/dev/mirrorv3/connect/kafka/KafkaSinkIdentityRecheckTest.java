package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.testsupport.MutableClock;
import dev.mirrorv3.testsupport.sink.SinkTaskHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The running task's hourly look at which source topic it copies: a source topic deleted and created again while its
 * partitions are idle (no record of the new topic fetched yet) is seen there, compared with the id the copy holds, and
 * stops that topic's copy with the positioning message: every partition of the topic isolated while the task's other
 * topic goes on (partition.failure=partition), or the task failed (partition.failure=task). The id the destination
 * recorded stays the old topic's. A real broker holds the source and destination topics; the task's clock is moved by
 * hand.
 */
class KafkaSinkIdentityRecheckTest extends SinkTaskHarness<KafkaSinkTask> {
    private final MutableClock clock = new MutableClock();
    /** The topic re-created (two partitions), and another topic of the same task, never re-created. */
    private String topic;
    private TopicPartition p0;
    private TopicPartition p1;
    private TopicPartition steady;

    @Test
    void theHourlyLookAtIdlePartitionsFindsTheSourceRecreatedAndIsolatesThatTopicsPartitions() throws Exception {
        String oldId = startCopying("recheck", "partition");
        recreateAfterAnHour();
        String newId = topicId(topic);

        task.put(List.of()); // idle: the hourly look
        Map<TopicPartition, OffsetAndMetadata> committed = task.preCommit(Map.of(p0, new OffsetAndMetadata(10), p1,
                new OffsetAndMetadata(10), steady, new OffsetAndMetadata(10)));
        for (TopicPartition tp : List.of(p0, p1)) {
            assertThat(committed.get(tp).offset()).as("%s: its durable offset, never more", tp).isEqualTo(10);
            assertThat(committed.get(tp).metadata()).as("%s: isolated with the re-created topic", tp)
                    .contains("partition FAILED", "source topic " + topic + " was deleted and created again", "holds a copy of the"
                            + " topic with id " + oldId, topic + " now has id " + newId, "Nothing of the new topic was written");
        }
        assertThat(context.consumerPaused()).as("that topic's partitions, and only they, paused").containsExactlyInAnyOrder(p0, p1);
        task.put(records(steady, 10, 10));
        Awaitility.await("the other topic's copy goes on").atMost(Duration.ofSeconds(30))
                .until(() -> task.preCommit(Map.of(steady, new OffsetAndMetadata(20))).get(steady).offset() == 20);
        assertThat(KafkaSinkTestSupport.highWatermarks(broker.admin(), topic + "-copy", 2)).isEqualTo(Map.of(0, 10L, 1, 10L));
        assertThat(String.valueOf(KafkaSinkTestSupport.identityRecords(broker.bootstrapServers())))
                .as("the destination still records the old topic's id").contains(oldId).doesNotContain(newId);
    }

    @Test
    void withPartitionFailureTaskTheHourlyLookStopsTheTask() throws Exception {
        String oldId = startCopying("recheck-task", "task");
        recreateAfterAnHour();
        String newId = topicId(topic);

        assertThatThrownBy(() -> task.put(List.of())).as("idle: the hourly look stops the copy")
                .hasMessageContaining("source topic " + topic + " was deleted and created again: destination " + topic + "-copy-")
                .hasMessageContaining("(next offset 10) holds a copy of the topic with id " + oldId + ", and " + topic + " now has id "
                        + newId)
                .hasMessageContaining("Nothing of the new topic was written");
        assertThatThrownBy(() -> task.put(List.of())).as("and stays stopped").hasMessageContaining("was deleted and created again");
        assertThat(KafkaSinkTestSupport.highWatermarks(broker.admin(), topic + "-copy", 2)).isEqualTo(Map.of(0, 10L, 1, 10L));
        assertThat(String.valueOf(KafkaSinkTestSupport.identityRecords(broker.bootstrapServers())))
                .as("the destination still records the old topic's id").contains(oldId).doesNotContain(newId);
    }

    /**
     * A task {@code name} copying topic {@code name} (2 partitions) and {@code name}-steady (1) into {@code <topic>-copy},
     * 10 records of each partition acknowledged. Returns the id of topic {@code name}.
     */
    private String startCopying(String name, String partitionFailure) {
        topic = name;
        p0 = new TopicPartition(topic, 0);
        p1 = new TopicPartition(topic, 1);
        steady = new TopicPartition(name + "-steady", 0);
        broker.createTopic(topic, 2, Map.of());
        broker.createTopic(topic + "-copy", 2, Map.of());
        broker.createTopic(steady.topic(), 1, Map.of());
        broker.createTopic(steady.topic() + "-copy", 1, Map.of());
        Map<String, String> config = KafkaSinkTestSupport.sinkConfig(topic + "," + steady.topic(), broker.bootstrapServers(),
                broker.bootstrapServers());
        config.put("name", name);
        config.put("destination.topic", "${topic}-copy");
        config.put("heartbeat.interval.ms", "0");
        config.put("partition.failure", partitionFailure);
        start(new KafkaSinkTask(clock), config);
        context.assign(task, p0, p1, steady);
        List<SinkRecord> batch = new ArrayList<>(records(p0, 0, 10));
        batch.addAll(records(p1, 0, 10));
        batch.addAll(records(steady, 0, 10));
        task.put(batch);
        Map<TopicPartition, OffsetAndMetadata> asked = Map.of(p0, new OffsetAndMetadata(10), p1, new OffsetAndMetadata(10), steady,
                new OffsetAndMetadata(10));
        Awaitility.await("the copies' first 10 records acknowledged").atMost(Duration.ofSeconds(30))
                .until(() -> task.preCommit(asked).values().stream().allMatch(o -> o.offset() == 10));
        return topicId(topic);
    }

    private void recreateAfterAnHour() {
        String oldId = topicId(topic);
        KafkaSinkTestSupport.recreateTopic(broker.admin(), topic, 2);
        assertThat(topicId(topic)).as("premise: the source topic was created again").isNotEqualTo(oldId);
        clock.advance(Duration.ofHours(1).toMillis());
    }

    private static String topicId(String topic) {
        return KafkaSinkTestSupport.topicId(broker.admin(), topic);
    }
}
