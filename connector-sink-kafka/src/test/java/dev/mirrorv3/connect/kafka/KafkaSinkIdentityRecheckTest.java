package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.MutableClock;
import dev.mirrorv3.testsupport.RebalancingSinkTaskContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The running task's hourly look at which source topic it copies: a source topic deleted and created again while the
 * partition is idle (no record of the new topic fetched yet) is seen there, compared with the id the copy holds, and
 * stops the copy with the positioning message; the id the destination recorded stays the old topic's. A real broker
 * holds the source and destination topics; the task's clock is moved by hand.
 */
class KafkaSinkIdentityRecheckTest {
    private static final String TOPIC = "recheck";
    private static final String COPY = "recheck-copy";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);

    private static KafkaTestBroker broker;

    private final MutableClock clock = new MutableClock();
    private RebalancingSinkTaskContext context;
    private KafkaSinkTask task;

    @BeforeAll
    static void startBroker() {
        broker = KafkaTestBroker.start();
        broker.createTopic(TOPIC, 1, Map.of());
        broker.createTopic(COPY, 1, Map.of());
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

    @Test
    void theHourlyLookAtAnIdlePartitionFindsTheSourceRecreatedAndStopsTheCopy() throws Exception {
        Map<String, String> config = KafkaSinkTestSupport.sinkConfig(TOPIC, broker.bootstrapServers(), broker.bootstrapServers());
        config.put("name", "recheck");
        config.put("destination.topic", COPY);
        config.put("heartbeat.interval.ms", "0");
        context = new RebalancingSinkTaskContext(config);
        task = new KafkaSinkTask(clock);
        task.initialize(context);
        task.start(config);
        context.assign(task, P0);
        String oldId = topicId(TOPIC);
        task.put(records(0, 10));
        Awaitility.await("the copy's first 10 records acknowledged").atMost(Duration.ofSeconds(30))
                .until(() -> task.preCommit(Map.of(P0, new OffsetAndMetadata(10))).get(P0).offset() == 10);

        recreate(TOPIC);
        String newId = topicId(TOPIC);
        assertThat(newId).as("premise: the source topic was created again").isNotEqualTo(oldId);
        clock.advance(Duration.ofHours(1).toMillis());

        assertThatThrownBy(() -> task.put(List.of())).as("idle: the hourly look stops the copy")
                .hasMessageContaining("source topic " + TOPIC + " was deleted and created again: destination " + COPY
                        + "-0 (next offset 10) holds a copy of the topic with id " + oldId + ", and " + TOPIC + " now has id " + newId)
                .hasMessageContaining("Nothing of the new topic was written");
        assertThatThrownBy(() -> task.put(List.of())).as("and stays stopped").hasMessageContaining("was deleted and created again");
        assertThat(KafkaSinkTestSupport.highWatermarks(broker.admin(), COPY, 1)).isEqualTo(Map.of(0, 10L));
        assertThat(String.valueOf(recordedIds())).as("the destination still records the old topic's id").contains(oldId)
                .doesNotContain(newId);
    }

    /** Every source topic id the destination records for the copy (the identity group's and topic's entries). */
    private static List<String> recordedIds() throws Exception {
        List<String> ids = new ArrayList<>();
        broker.admin().listConsumerGroupOffsets(SourceIdentity.legacyGroupId("recheck")).partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS).values().forEach(o -> ids.add(o.metadata()));
        ids.addAll(KafkaSinkTestSupport.identityRecords(broker.bootstrapServers()));
        return ids;
    }

    private static String topicId(String topic) {
        return KafkaSinkTestSupport.topicId(broker.admin(), topic);
    }

    private static void recreate(String topic) {
        KafkaSinkTestSupport.recreateTopic(broker.admin(), topic, 1);
    }

    private static List<SinkRecord> records(long from, int n) {
        List<SinkRecord> out = new ArrayList<>();
        for (long o = from; o < from + n; o++) {
            out.add(new SinkRecord(TOPIC, 0, Schema.OPTIONAL_BYTES_SCHEMA, null, Schema.OPTIONAL_BYTES_SCHEMA, new byte[] {(byte) o}, o));
        }
        return out;
    }
}
