package dev.mirrorv3.connect.kafka;

import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.assertSameRecords;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.awaitDestination;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.highWatermarks;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.RestartableKafka;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The worker running the task is lost in the middle of a batch (a crash: its task does not stop within
 * task.shutdown.graceful.timeout.ms and lives on as a zombie); the task moves to the other worker and continues from
 * the destination's high watermark; a connector restart and a stop/resume follow; every offset is copied exactly once.
 * Then the zombie wakes up and writes: the live task's next delivery detects it and isolates the partition loudly,
 * naming both offsets.
 */
class KafkaSinkCrashIT {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String TOPIC = "crash";

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(2, Map.of("task.shutdown.graceful.timeout.ms", "1000"));

    @RegisterExtension
    static final RestartableKafka destination = RestartableKafka.perClass();

    private static void awaitExactCopy() {
        Map<Integer, Long> sourceEnd = Map.of(0, (long) consumeAll(cluster.bootstrapServers(), TOPIC).get(0).size());
        awaitDestination(cluster, TOPIC, destination.admin(), TOPIC, sourceEnd, WAIT);
        assertSameRecords(consumeAll(cluster.bootstrapServers(), TOPIC), consumeAll(destination.bootstrapServers(), TOPIC), true);
    }

    @Test
    void aLostWorkerRestartsAndStopsCopyExactlyOnceAndAZombiesWriteIsolatesThePartitionLoudly() throws Exception {
        cluster.kafka().createTopic(TOPIC, 1);
        destination.createTopic(TOPIC, 1);
        produceVaried(cluster.bootstrapServers(), TOPIC, 1, 3000, 1);
        CountDownLatch release = new CountDownLatch(1);
        FaultInjectingKafkaSinkConnector.RELEASE.set(release);
        FaultInjectingKafkaSinkConnector.BLOCKED[0] = new CountDownLatch(1);
        FaultInjectingKafkaSinkConnector.HOLD_AT.set(1200);
        Map<String, String> config = sinkConfig(FaultInjectingKafkaSinkConnector.class.getName(), TOPIC, cluster.bootstrapServers(),
                destination.bootstrapServers());
        ConnectorConfigs.evictingStuckTasks(config, 1000);
        config.put("consumer.override.max.poll.records", "500");
        cluster.deploy(TOPIC, config);
        try {
            assertThat(FaultInjectingKafkaSinkConnector.BLOCKED[0].await(60, TimeUnit.SECONDS))
                    .as("the task reached offset 1200 and is held")
                    .isTrue();

            String workerId = cluster.connect().connectorStatus(TOPIC).tasks().get(0).workerId();
            WorkerHandle running = cluster.connect().workers().stream()
                    .filter(w -> workerId.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
            cluster.connect().removeWorker(running); // its task does not stop within task.shutdown.graceful.timeout.ms

            // The task starts on the other worker at the destination's high watermark and copies the rest.
            awaitExactCopy();

            produceVaried(cluster.bootstrapServers(), TOPIC, 1, 500, 2);
            cluster.connect().restartConnectorAndTasks(TOPIC, false, true, false);
            produceVaried(cluster.bootstrapServers(), TOPIC, 1, 500, 3);
            awaitExactCopy();

            cluster.connect().stopConnector(TOPIC);
            produceVaried(cluster.bootstrapServers(), TOPIC, 1, 500, 4);
            cluster.connect().resumeConnector(TOPIC);
            awaitExactCopy(); // 4500 records, each at its offset, none twice
            assertThat(cluster.taskState(TOPIC)).isEqualTo("RUNNING");
        } finally {
            release.countDown();
        }
        // The zombie sends what it held (source offsets 1200...) to the destination's end; the live task's next record
        // lands behind it and the partition is isolated, naming both offsets (docs/kafka-sink.md: Single-writer deployment and
        // the guarantee: detected, never silent).
        Awaitility.await("the zombie's held records land behind the live task's").atMost(WAIT)
                .until(() -> highWatermarks(destination.admin(), TOPIC, 1).get(0) > 4500);
        produceVaried(cluster.bootstrapServers(), TOPIC, 1, 10, 5);
        String note = cluster.awaitPartitionFailed(TOPIC, TOPIC, 0, WAIT);
        assertThat(note).contains("stored the record of crash-0 offset 4500 at offset").contains("another writer");
        cluster.delete(TOPIC);
    }
}
