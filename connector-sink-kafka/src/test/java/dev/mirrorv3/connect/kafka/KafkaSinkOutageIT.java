package dev.mirrorv3.connect.kafka;

import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.assertSameRecords;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.awaitExactCopyOfSteadySource;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.highWatermarks;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.outageConfig;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.total;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.SteadySource;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.TestConsumers;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Destination outages longer than the producer's delivery.timeout.ms (5 s here), with records in flight, so the
 * recovery runs: abort the producer at the first failed delivery, re-read the high watermark until it is stable,
 * rewind, back off. The task stays RUNNING, each retry counts in mirror-restarts-total, and the destination ends equal
 * to the source record by record at the same offsets.
 * <ul>
 * <li>a broker stopped for 20 s under a preloaded topic: the task also writes again within the outage plus twice the
 * maximum backoff;</li>
 * <li>a steady source (300 records/s over 3 partitions) and an outage of 7 s or 12 s, between one and a few delivery
 * timeouts, as a stopped broker (connections refused) and as a frozen one (no reply, connections stay open; when it
 * wakes up it appends what was sent to it, and what came through connections the producer had closed half a second
 * later, as a broker may handle those last: the recovery must not rewind below records that still land).</li>
 * </ul>
 * And the destination down while the partitions are opened, then rebalances: Connect pauses again what the failed
 * open() paused, and positioning must resume it.
 */
class KafkaSinkOutageIT extends SourceAndDestinationTestBase {
    private static final String TOPIC = "outage";
    private static final long MAX_BACKOFF_MS = 2000;
    private static final int PARTITIONS = 3;

    enum Outage {
        /** The broker process stops: connections are closed and new ones refused. */
        STOPPED,
        /** The broker hangs (SIGSTOP, a long pause): connections stay open, requests get no reply. */
        FROZEN
    }

    @Test
    void aDestinationOutageIsRetriedAndEveryRecordCopiedExactlyOnce() throws Exception {
        createTopics(TOPIC, 2);
        produceToSource(TOPIC, 2, 20_000, 1);
        Map<String, String> config = config(TOPIC);
        ConnectorConfigs.with(config, "retry.backoff.initial.ms", "1000", "retry.backoff.max.ms", Long.toString(MAX_BACKOFF_MS),
                "admin.timeout.ms", "1500", "destination.producer.delivery.timeout.ms", "5000",
                "destination.producer.request.timeout.ms", "2000", "destination.producer.max.block.ms", "2000",
                "destination.producer.reconnect.backoff.max.ms", "250", "destination.admin.reconnect.backoff.max.ms", "250");
        config.put("consumer.override.max.poll.records", "200"); // a slow stream, so records are in flight when the broker stops
        cluster.deploy(TOPIC, config);

        Admin source = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
        try (source) {
            Awaitility.await("the copy is under way").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(() -> highWatermarks(destination.admin(), TOPIC, 2).values().stream().mapToLong(Long::longValue).sum() > 2000);
            // The premise: the destination is behind the source when its broker stops, so there is something to recover.
            long atStop = total(highWatermarks(destination.admin(), TOPIC, 2));
            assertThat(atStop).as("destination behind the source when the broker stops")
                    .isLessThan(total(highWatermarks(source, TOPIC, 2)));
            long stopped = System.currentTimeMillis();
            destination.stopBrokers();
            produceToSource(TOPIC, 2, 2000, 2); // the source grows during the outage
            Thread.sleep(Math.max(0, 20_000 - (System.currentTimeMillis() - stopped)));
            assertThat(cluster.taskState(TOPIC)).as("task state during the outage").isEqualTo("RUNNING");
            destination.startBrokers();
            long outageMs = System.currentTimeMillis() - stopped;
            // Nothing reached the destination while its broker was down: growth past what it held at the stop is the task
            // writing again (measured from the stop, not from a value read after the task may already have written).
            Awaitility.await("the task writes again within twice the maximum backoff after the broker is back")
                    .atMost(Duration.ofMillis(2 * MAX_BACKOFF_MS)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(() -> total(highWatermarks(destination.admin(), TOPIC, 2)) > atStop);
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
        createTopics(topic, 2);
        produceToSource(topic, 2, 300, 3);
        Map<String, String> config = config(topic);
        // No retry from put() before the rebalances: only their open() calls can position the partitions.
        config.put("retry.backoff.initial.ms", "60000");
        config.put("retry.backoff.max.ms", "60000");
        config.put("destination.admin.reconnect.backoff.max.ms", "250");
        config.put("destination.producer.reconnect.backoff.max.ms", "250");
        config.put("consumer.override.partition.assignment.strategy", RangeAssignor.class.getName());
        cluster.deploy(topic, config); // validation needs the destination: it goes down while the connector is stopped
        KafkaSinkTestSupport.awaitDestination(cluster, topic, destination.admin(), topic, Map.of(0, 300L, 1, 300L),
                Duration.ofSeconds(120));
        cluster.connect().stopConnector(topic);
        cluster.connect().assertions().assertConnectorIsStopped(topic, "the connector did not stop");
        produceToSource(topic, 2, 200, 4);
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
        try (KafkaConsumer<byte[], byte[]> intruder = TestConsumers.intruder(cluster.bootstrapServers(), topic, "connect-" + topic,
                RangeAssignor.class)) {
            Awaitility.await("the intruder joins the group").atMost(Duration.ofSeconds(60))
                    .until(() -> !intruder.poll(Duration.ofMillis(200)).isEmpty() || !intruder.assignment().isEmpty());
        }
        Map<Integer, Long> end = Map.of(0, 500L, 1, 500L);
        KafkaSinkTestSupport.awaitDestination(cluster, topic, destination.admin(), topic, end, Duration.ofSeconds(180));
        assertSameRecords(consumeAll(cluster.bootstrapServers(), topic), consumeAll(destination.bootstrapServers(), topic), true);
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        cluster.delete(topic);
    }

    @ParameterizedTest(name = "a {0} destination broker for {1} ms")
    @CsvSource({"STOPPED, 7000", "STOPPED, 12000", "FROZEN, 7000", "FROZEN, 12000"})
    void anOutageLongerThanTheDeliveryTimeoutUnderASteadySourceLeavesAnExactCopy(Outage outage, long outageMs) throws Exception {
        String topic = "steady-" + outage.name().toLowerCase() + "-" + outageMs;
        createTopics(topic, PARTITIONS);
        Map<String, String> config = outageConfig(topic, cluster.bootstrapServers(), destination.proxiedBootstrapServers(), 1500);

        Admin source = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
        boolean inOutage = false;
        try (source; SteadySource feed = new SteadySource(cluster.bootstrapServers(), topic, PARTITIONS, 100, outageMs)) {
            cluster.deploy(topic, config);
            Awaitility.await("the copy is under way").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(() -> total(highWatermarks(destination.admin(), topic, PARTITIONS)) > 600);
            inOutage = true;
            begin(outage);
            Thread.sleep(outageMs); // the length of the outage, with the source still writing
            assertThat(cluster.taskState(topic)).as("task state during the outage").isEqualTo("RUNNING");
            end(outage);
            inOutage = false;
            // The task catches up with what the source wrote during the outage while the source keeps writing.
            awaitExactCopyOfSteadySource(cluster, topic, source, feed, destination, topic, PARTITIONS);
        } finally {
            if (inOutage) {
                end(outage);
            }
        }
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        assertThat(restarts(topic)).as("mirror-restarts-total").isGreaterThan(0);
        cluster.delete(topic);
    }

    private static void begin(Outage outage) {
        switch (outage) {
            case STOPPED -> destination.stopBrokers();
            case FROZEN -> destination.proxy().freeze();
        }
    }

    private static void end(Outage outage) {
        switch (outage) {
            case STOPPED -> destination.startBrokers();
            // What the producer sent before it gave its connections up lands after the rest, but within the settle time.
            case FROZEN -> destination.proxy().thaw(Duration.ofMillis(DestinationRecovery.SETTLE_MS / 2));
        }
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
