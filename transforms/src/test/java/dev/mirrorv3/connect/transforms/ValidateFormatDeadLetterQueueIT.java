package dev.mirrorv3.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.ConnectTestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.file.FileStreamSinkConnector;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ValidateFormat in another connector's pipeline (Kafka's FileStreamSinkConnector) on a real worker: with
 * errors.tolerance=all and a dead letter queue the bad records go to the DLQ with our message in Connect's error
 * headers and the good ones reach the sink; without tolerance the task fails with that message.
 */
class ValidateFormatDeadLetterQueueIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String TOPIC = "events";
    private static final List<String> VALUES = List.of("{\"id\":0}", "{\"id\":1", "[2]", "3 4", "\"five\"");

    static ConnectTestCluster cluster;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        cluster = ConnectTestCluster.start(1);
        cluster.kafka().createTopic(TOPIC, 1);
        Map<String, Object> p = new HashMap<>();
        p.put("bootstrap.servers", cluster.bootstrapServers());
        p.put("key.serializer", ByteArraySerializer.class);
        p.put("value.serializer", ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (String v : VALUES) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, v.getBytes(StandardCharsets.UTF_8)));
            }
        }
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static Map<String, String> fileSink(Path file) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", FileStreamSinkConnector.class.getName());
        c.put("tasks.max", "1");
        c.put("topics", TOPIC);
        c.put("file", file.toString());
        c.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        c.put("value.converter", "org.apache.kafka.connect.storage.StringConverter");
        c.put("transforms", "valid,position");
        c.put("transforms.valid.type", ValidateFormat.Value.class.getName());
        c.put("transforms.valid.format", "json");
        c.put("transforms.position.type", InsertSourcePosition.class.getName());
        return c;
    }

    @Test
    void badRecordsGoToTheDeadLetterQueueWithOurMessage() throws Exception {
        Path out = dir.resolve("tolerant.txt");
        Map<String, String> c = fileSink(out);
        c.put("errors.tolerance", "all");
        c.put("errors.deadletterqueue.topic.name", "events-dlq");
        c.put("errors.deadletterqueue.topic.replication.factor", "1");
        c.put("errors.deadletterqueue.context.headers.enable", "true");
        cluster.deploy("tolerant", c);

        Awaitility.await("the valid records in the file").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> Files.exists(out) && Files.readAllLines(out).size() == 3);
        assertThat(Files.readAllLines(out)).containsExactly("{\"id\":0}", "[2]", "\"five\"");

        ConsumerRecords<byte[], byte[]> dlq = cluster.kafka().consume(2, WAIT.toMillis(), "events-dlq");
        List<String> values = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : dlq) {
            values.add(new String(r.value(), StandardCharsets.UTF_8));
            Header h = r.headers().lastHeader("__connect.errors.exception.message");
            messages.add(h == null ? null : new String(h.value(), StandardCharsets.UTF_8));
        }
        assertThat(values).containsExactly("{\"id\":1", "3 4");
        assertThat(messages.get(0)).startsWith("record at topic events partition 0 offset 1: value is not JSON (");
        assertThat(messages.get(1)).isEqualTo("record at topic events partition 0 offset 3: value is not one JSON value"
                + " (more follows at byte 2)");
        assertThat(cluster.taskState("tolerant")).isEqualTo("RUNNING");
    }

    @Test
    void withoutToleranceTheTaskFailsWithOurMessage() {
        cluster.deploy("strict", fileSink(dir.resolve("strict.txt")));
        String trace = cluster.awaitTaskFailure("strict", WAIT);
        assertThat(trace).contains("record at topic events partition 0 offset 1: value is not JSON (");
    }
}
