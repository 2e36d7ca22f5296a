package dev.mirrorv3.connect.kafka;

import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.assertSameRecords;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.awaitDestination;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.highWatermarks;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.producer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.kafka.FailureNote;
import dev.mirrorv3.testsupport.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * One destination partition written by another producer: the delivery that lands at the wrong offset aborts the one
 * shared idempotent producer (nothing queued behind it lands on any partition), that partition is isolated (its
 * gauge, its committed offset's note, one log line) and the recovery continues the others from their destination's
 * high watermark through a fresh producer; they end exact, the isolated one is not written to again. After the
 * operator re-creates the destination topic, a restart of the connector's tasks copies everything again, exactly
 * (docs/kafka-sink.md, "A failed partition").
 */
class KafkaSinkIsolationIT extends SourceAndDestinationTestBase {
    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void anotherProducerInOneDestinationPartitionIsolatesItWhileTheOthersCopyExactly() throws Exception {
        String topic = "isolate";
        createTopics(topic, 3);
        produceToSource(topic, 3, 100, 1);
        try (LogCapture logs = LogCapture.attach()) {
            cluster.deploy(topic, config(topic));
            awaitDestination(cluster, topic, destination.admin(), topic, Map.of(0, 100L, 1, 100L, 2, 100L), WAIT);
            try (KafkaProducer<byte[], byte[]> p = producer(destination.bootstrapServers())) {
                p.send(new ProducerRecord<>(topic, 1, null, "not from the source".getBytes())).get(30, TimeUnit.SECONDS); // offset 100
            }
            produceToSource(topic, 3, 100, 2);

            String note = cluster.awaitPartitionFailed(topic, topic, 1, WAIT);
            assertThat(note).contains("needs an operator", "stored the record of isolate-1 offset 100 at offset 101", "another writer",
                    "delete it and create it again");
            awaitDestination(cluster, topic, destination.admin(), topic, Map.of(0, 200L, 1, highWatermarks(destination.admin(), topic,
                    3).get(1), 2, 200L), WAIT);
            Map<Integer, List<ConsumerRecord<byte[], byte[]>>> source = consumeAll(cluster.bootstrapServers(), topic);
            Map<Integer, List<ConsumerRecord<byte[], byte[]>>> copy = consumeAll(destination.bootstrapServers(), topic);
            assertSameRecords(Map.of(0, source.get(0), 2, source.get(2)), Map.of(0, copy.get(0), 2, copy.get(2)), true);
            assertSameRecords(Map.of(1, source.get(1).subList(0, 100)), Map.of(1, copy.get(1).subList(0, 100)), true);
            long isolatedEnd = highWatermarks(destination.admin(), topic, 3).get(1);
            produceToSource(topic, 3, 50, 3);
            awaitDestination(cluster, topic, destination.admin(), topic, Map.of(0, 250L, 1, isolatedEnd, 2, 250L), WAIT);
            assertThat(highWatermarks(destination.admin(), topic, 3).get(1)).as("the isolated partition is not written to again")
                    .isEqualTo(isolatedEnd);
            assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
            List<String> lines = logs.lines().stream().filter(l -> l.contains(topic + "-1 FAILED and is isolated")).toList();
            assertThat(lines).as("one log line, with what to do").hasSize(1);
            assertThat(lines.get(0)).contains("restart?includeTasks=true");
        }

        // The operator's fix: the destination topic created again empty, then the tasks restarted (also the RUNNING one).
        cluster.stop(topic, WAIT);
        destination.admin().deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        Awaitility.await("destination topic deleted").atMost(WAIT).ignoreExceptions()
                .until(() -> !destination.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains(topic));
        destination.createTopic(topic, 3);
        cluster.connect().resumeConnector(topic);
        cluster.connect().restartConnectorAndTasks(topic, false, true, false);
        awaitDestination(cluster, topic, destination.admin(), topic, Map.of(0, 250L, 1, 250L, 2, 250L), WAIT);
        assertSameRecords(consumeAll(cluster.bootstrapServers(), topic), consumeAll(destination.bootstrapServers(), topic), true);
        Awaitility.await("partition 1 healthy again").atMost(WAIT).until(() -> cluster.partitionFailedGauge(topic, topic, 1) == 0
                && FailureNote.HEALTHY.equals(cluster.committedOffsetMetadata(topic, topic, 1)));
        cluster.delete(topic);
    }
}
