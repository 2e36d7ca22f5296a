package dev.mirrorv3.connect.kafka;

import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.assertSameRecords;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.highWatermarks;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.RestartableKafka;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue test 3: the destination's broker stops for 20 s while records are in flight (deliveries time out after 5 s, so
 * the recovery protocol runs: wait for the records in flight, re-read the high watermark, rewind, back off 1 s doubling
 * to 2 s). The task stays RUNNING, writes again within the outage plus twice the maximum backoff, and copies every
 * record exactly once; each retry counts in mirror-restarts-total. And the destination down while the partitions are
 * opened, then rebalances: Connect pauses again what the failed open() paused, and positioning must resume it.
 */
class KafkaSinkOutageIT {
    private static final String TOPIC = "outage";
    private static final long MAX_BACKOFF_MS = 2000;

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);

    @RegisterExtension
    static final RestartableKafka destination = RestartableKafka.perClass();

    @Test
    void aDestinationOutageIsRetriedAndEveryRecordCopiedExactlyOnce() throws Exception {
        cluster.kafka().createTopic(TOPIC, 2);
        destination.createTopic(TOPIC, 2);
        produceVaried(cluster.bootstrapServers(), TOPIC, 2, 20_000, 1);
        Map<String, String> config = sinkConfig(TOPIC, cluster.bootstrapServers(), destination.bootstrapServers());
        config.put("retry.backoff.initial.ms", "1000");
        config.put("retry.backoff.max.ms", Long.toString(MAX_BACKOFF_MS));
        config.put("admin.timeout.ms", "1500");
        config.put("destination.producer.delivery.timeout.ms", "5000");
        config.put("destination.producer.request.timeout.ms", "2000");
        config.put("destination.producer.max.block.ms", "2000");
        config.put("destination.producer.reconnect.backoff.max.ms", "250");
        config.put("destination.admin.reconnect.backoff.max.ms", "250");
        config.put("consumer.override.max.poll.records", "200"); // a slow stream, so records are in flight when the broker stops
        cluster.deploy(TOPIC, config);

        Admin source = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
        try (source) {
            Awaitility.await("the copy is under way").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(() -> highWatermarks(destination.admin(), TOPIC, 2).values().stream().mapToLong(Long::longValue).sum() > 2000);
            long stopped = System.currentTimeMillis();
            destination.stopBrokers();
            produceVaried(cluster.bootstrapServers(), TOPIC, 2, 2000, 2); // the source grows during the outage
            Thread.sleep(Math.max(0, 20_000 - (System.currentTimeMillis() - stopped)));
            assertThat(cluster.taskState(TOPIC)).as("task state during the outage").isEqualTo("RUNNING");
            destination.startBrokers();
            long outageMs = System.currentTimeMillis() - stopped;
            // Nothing reached the destination while its broker was down: any growth from here is the task writing again.
            long atRestart = Awaitility.await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                    .until(() -> total(highWatermarks(destination.admin(), TOPIC, 2)), v -> v >= 0);
            Awaitility.await("the task writes again within twice the maximum backoff after the broker is back")
                    .atMost(Duration.ofMillis(2 * MAX_BACKOFF_MS)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(() -> total(highWatermarks(destination.admin(), TOPIC, 2)) > atRestart);
            long recoveredMs = System.currentTimeMillis() - stopped;
            System.out.printf("destination outage of %d ms: the task wrote again %d ms after the broker was back%n", outageMs,
                    recoveredMs - outageMs);
            assertThat(recoveredMs).as("recovered after %d ms of outage", outageMs).isLessThanOrEqualTo(outageMs + 2 * MAX_BACKOFF_MS);

            Map<Integer, Long> end = highWatermarks(source, TOPIC, 2);
            Awaitility.await("the copy completes").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                    .until(() -> highWatermarks(destination.admin(), TOPIC, 2).equals(end));
        }
        assertSameRecords(consumeAll(cluster.bootstrapServers(), TOPIC), consumeAll(destination.bootstrapServers(), TOPIC), true);
        assertThat(cluster.taskState(TOPIC)).isEqualTo("RUNNING");
        assertThat(restarts(TOPIC)).as("mirror-restarts-total").isGreaterThan(0);
        cluster.delete(TOPIC);
    }

    @Test
    void aDestinationDownDuringOpenFollowedByRebalancesLeavesNoPartitionPaused() throws Exception {
        String topic = "open-rebalance";
        cluster.kafka().createTopic(topic, 2);
        destination.createTopic(topic, 2);
        produceVaried(cluster.bootstrapServers(), topic, 2, 300, 3);
        Map<String, String> config = sinkConfig(topic, cluster.bootstrapServers(), destination.bootstrapServers());
        // No retry from put() before the rebalances: only their open() calls can position the partitions.
        config.put("retry.backoff.initial.ms", "60000");
        config.put("retry.backoff.max.ms", "60000");
        config.put("destination.admin.reconnect.backoff.max.ms", "250");
        config.put("destination.producer.reconnect.backoff.max.ms", "250");
        config.put("consumer.override.partition.assignment.strategy", RangeAssignor.class.getName());
        cluster.deploy(topic, config); // validation needs the destination: it goes down while the connector is stopped
        KafkaSinkTestSupport.awaitDestination(cluster, topic, destination.admin(), topic, Map.of(0, 300L, 1, 300L), Duration.ofSeconds(120));
        cluster.connect().stopConnector(topic);
        cluster.connect().assertions().assertConnectorIsStopped(topic, "the connector did not stop");
        produceVaried(cluster.bootstrapServers(), topic, 2, 200, 4);
        destination.stopBrokers();
        try {
            cluster.connect().resumeConnector(topic);
            Awaitility.await("the first open() fails and pauses the partitions").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(200)).until(() -> restarts(topic) > 0);
        } finally {
            destination.startBrokers();
        }

        // A second member joins the group (the task's partitions are closed and one is opened again, paused by Connect)
        // and leaves (both are opened again): every partition positioned must be fetched, so the copy completes.
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", cluster.bootstrapServers());
        c.put("group.id", "connect-" + topic);
        c.put("enable.auto.commit", false);
        c.put("partition.assignment.strategy", RangeAssignor.class.getName());
        c.put("key.deserializer", ByteArrayDeserializer.class);
        c.put("value.deserializer", ByteArrayDeserializer.class);
        try (KafkaConsumer<byte[], byte[]> intruder = new KafkaConsumer<>(c)) {
            intruder.subscribe(List.of(topic));
            Awaitility.await("the intruder joins the group").atMost(Duration.ofSeconds(60))
                    .until(() -> !intruder.poll(Duration.ofMillis(200)).isEmpty() || !intruder.assignment().isEmpty());
        }
        Map<Integer, Long> end = Map.of(0, 500L, 1, 500L);
        KafkaSinkTestSupport.awaitDestination(cluster, topic, destination.admin(), topic, end, Duration.ofSeconds(180));
        assertSameRecords(consumeAll(cluster.bootstrapServers(), topic), consumeAll(destination.bootstrapServers(), topic), true);
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        cluster.delete(topic);
    }

    private static long total(Map<Integer, Long> highWatermarks) {
        return highWatermarks.values().stream().mapToLong(Long::longValue).sum();
    }

    private static long restarts(String connector) throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = server.queryNames(new ObjectName("kafka.connect:type=plugins,connector=" + connector + ",*"), null);
        long total = 0;
        for (ObjectName n : names) {
            try {
                Object v = server.getAttribute(n, KafkaSinkMetrics.RESTARTS_TOTAL);
                total += ((Number) v).longValue();
            } catch (javax.management.AttributeNotFoundException e) {
                // another metric's MBean
            }
        }
        return total;
    }
}
