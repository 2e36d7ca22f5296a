package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.chain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.flushAt;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.producer;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.testsupport.TestConsumers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stops, restarts, store failures and flush triggers: the chain continues exactly. Restarts
 * and graceful stops run on the filesystem and on S3; injected store failures, rebalances and flush triggers test
 * the task's buffering, the same for every store, on the filesystem (S3's real outage: {@code BlobSinkS3IT}).
 */
class BlobSinkRestartIT extends BlobSinkWorkerBase {
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** The filesystem destination, for scenarios of the task's buffering that do not depend on the store. */
    private static Path root() {
        return destinations.filesystem().root();
    }

    private static void assertBackupComplete(TestDestination d, String name, String topic, int partitions) {
        BlobSinkTestSupport.assertBackupComplete(cluster, d.stores(), name, topic, partitions, WAIT);
    }

    private static void assertBackupComplete(String name, String topic, int partitions) {
        assertBackupComplete(destinations.filesystem(), name, topic, partitions);
    }

    /** The destination's config: an object after {@code maxRecords} records or {@code maxTimeMs} milliseconds. */
    private static Map<String, String> flushingAt(TestDestination d, String topic, int maxRecords, long maxTimeMs) {
        Map<String, String> config = d.config(topic, cluster.bootstrapServers());
        flushAt(config, maxRecords, maxTimeMs);
        return config;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void stopStartAndDeleteRecreateContinueTheChainExactly(TestDestination d) {
        String topic = "restart-" + d;
        cluster.kafka().createTopic(topic, 2);
        Map<String, String> config = flushingAt(d, topic, 100, 500);
        produceVaried(cluster.bootstrapServers(), topic, 2, 500, 1);
        cluster.deploy(topic, config);
        assertBackupComplete(d, topic, topic, 2);

        cluster.connect().stopConnector(topic);
        produceVaried(cluster.bootstrapServers(), topic, 2, 300, 2);
        cluster.connect().resumeConnector(topic);
        assertBackupComplete(d, topic, topic, 2);

        cluster.delete(topic);
        produceVaried(cluster.bootstrapServers(), topic, 2, 200, 3);
        cluster.deploy(topic, config);
        assertBackupComplete(d, topic, topic, 2);
        cluster.delete(topic);
    }

    @Test
    void transientStoreFailuresWhileTheBufferHoldsEarlierPutsLoseNothing() throws Exception {
        String topic = "outage";
        cluster.kafka().createTopic(topic, 1);
        Faults faults = Faults.forDestination("outage");
        Map<String, String> config = sinkConfig(FaultInjectingBlobSinkConnector.class.getName(), topic, root(), cluster.bootstrapServers());
        flushAt(config, 100000, 3000);
        cluster.deploy("outage", config);
        cluster.awaitRunning("outage", WAIT);
        faults.failNextCreates.set(3);
        Random random = new Random(5);
        try (KafkaProducer<byte[], byte[]> producer = producer(cluster.bootstrapServers())) {
            for (int batch = 0; batch < 5; batch++) { // several put() calls fill the buffer before the first flush
                for (int i = 0; i < 40; i++) {
                    producer.send(BlobSinkTestSupport.variedRecord(topic, 0, batch * 40 + i, random));
                }
                producer.flush();
                long sent = (batch + 1) * 40L;
                Awaitility.await("batch " + batch + " handed to put()").atMost(WAIT)
                        .until(() -> cluster.sinkRecordsRead("outage", 0) >= sent);
            }
        }
        assertBackupComplete("outage", topic, 1);
        assertThat(faults.failNextCreates.get()).as("all injected failures were hit").isZero();
        assertThat(faults.creates.get()).as("3 failed attempts, then the commit").isGreaterThanOrEqualTo(4);
        assertThat(cluster.taskState("outage")).isEqualTo("RUNNING");
        cluster.delete("outage");
    }

    @Test
    void aCommitThatLandsAndThenFailsIsCompletedNotTakenForAnotherWriter() {
        String topic = "lands-then-fails";
        cluster.kafka().createTopic(topic, 1);
        Faults faults = Faults.forDestination(topic);
        Map<String, String> config = sinkConfig(FaultInjectingBlobSinkConnector.class.getName(), topic, root(), cluster.bootstrapServers());
        flushAt(config, 100, 500);
        // The first object of an empty chain lands and its commit reports a transient failure; so does its re-issue.
        faults.failNextCreatesAfterCommit.set(2);
        produceVaried(cluster.bootstrapServers(), topic, 1, 250, 6);
        cluster.deploy(topic, config);
        assertBackupComplete(topic, topic, 1);
        assertThat(faults.failNextCreatesAfterCommit.get()).as("both injected failures were hit").isZero();
        // Then an object after the chain's tail.
        faults.failNextCreatesAfterCommit.set(1);
        produceVaried(cluster.bootstrapServers(), topic, 1, 200, 7);
        assertBackupComplete(topic, topic, 1);
        assertThat(faults.failNextCreatesAfterCommit.get()).as("the injected failure was hit").isZero();
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        cluster.delete(topic);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void gracefulStopWritesPartialBuffers(TestDestination d) {
        String topic = "graceful-" + d;
        cluster.kafka().createTopic(topic, 2);
        Map<String, String> config = flushingAt(d, topic, 1000000, 600000);
        cluster.deploy(topic, config);
        cluster.awaitRunning(topic, WAIT);
        try (KafkaProducer<byte[], byte[]> producer = producer(cluster.bootstrapServers())) {
            for (int i = 0; i < 7; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, BlobSinkTestSupport.utf8("a" + i)));
            }
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(topic, 1, null, BlobSinkTestSupport.utf8("b" + i)));
            }
        }
        Awaitility.await().pollDelay(Duration.ofSeconds(3)).until(() -> true);
        assertThat(chain(d.stores(), topic, 0, PARQUET).objects()).as("nothing flushed before a trigger").isEmpty();
        cluster.delete(topic);
        awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, 7L, 1, 3L), WAIT);
        assertThat(chain(d.stores(), topic, 0, PARQUET).objects()).extracting(ObjectName::fileName)
                .containsExactly(ObjectName.plain(0, 6, PARQUET.format()).fileName());
        assertThat(chain(d.stores(), topic, 1, PARQUET).objects()).extracting(ObjectName::fileName)
                .containsExactly(ObjectName.plain(0, 2, PARQUET.format()).fileName());
    }

    @Test
    void aRebalanceWritesThePartialBuffers() {
        String topic = "rebalance";
        cluster.kafka().createTopic(topic, 2);
        Map<String, String> config = sinkConfig(topic, root(), cluster.bootstrapServers());
        flushAt(config, 1000000, 600000);
        config.put("consumer.override.partition.assignment.strategy", RangeAssignor.class.getName());
        cluster.deploy("rebalance", config);
        cluster.awaitRunning("rebalance", WAIT);
        produceVaried(cluster.bootstrapServers(), topic, 2, 5, 4);
        Awaitility.await().pollDelay(Duration.ofSeconds(2)).until(() -> true);
        assertThat(chain(root(), "rebalance", 0, PARQUET).objects()).as("nothing flushed before a trigger").isEmpty();

        // A second member joining the task's consumer group makes Connect revoke (close) the task's partitions.
        try (KafkaConsumer<byte[], byte[]> intruder = TestConsumers.intruder(cluster.bootstrapServers(), topic, "connect-rebalance",
                RangeAssignor.class)) {
            Awaitility.await("the intruder joins the group").atMost(WAIT)
                    .until(() -> !intruder.poll(Duration.ofMillis(200)).isEmpty() || !intruder.assignment().isEmpty());
            awaitChainNext(cluster, root(), "rebalance", PARQUET, Map.of(0, 5L, 1, 5L), WAIT);
        }
        assertThat(chain(root(), "rebalance", 0, PARQUET).objects()).extracting(ObjectName::to).containsExactly(4L);
        assertThat(chain(root(), "rebalance", 1, PARQUET).objects()).extracting(ObjectName::to).containsExactly(4L);
        // The partitions come back after the intruder leaves, and the chain goes on without a duplicate.
        produceVaried(cluster.bootstrapServers(), topic, 2, 5, 5);
        cluster.connect().stopConnector("rebalance");
        cluster.delete("rebalance");
        assertBackupCompleteWithin("rebalance", topic, 2);
    }

    @Test
    void aStoreFailureInOpenFollowedByRebalancesLeavesNoPartitionPaused() {
        String topic = "open-rebalance";
        cluster.kafka().createTopic(topic, 2);
        produceVaried(cluster.bootstrapServers(), topic, 2, 200, 6);
        Faults faults = Faults.forDestination(topic);
        faults.failNextLists.set(1);
        Map<String, String> config = sinkConfig(FaultInjectingBlobSinkConnector.class.getName(), topic, root(), cluster.bootstrapServers());
        // No retry from put() during the test: only the open() calls of the rebalances can position the partitions.
        config.put("retry.backoff.initial.ms", "600000");
        config.put("retry.backoff.max.ms", "600000");
        config.put("consumer.override.partition.assignment.strategy", RangeAssignor.class.getName());
        cluster.deploy(topic, config);
        Awaitility.await("the first open() fails and pauses the partitions").atMost(WAIT).until(() -> faults.failNextLists.get() == 0);

        // A second member joins the group (the task's partitions are closed and one is opened again, paused by Connect)
        // and leaves (both are opened again): every partition positioned must be fetched, so the backup completes.
        try (KafkaConsumer<byte[], byte[]> intruder = TestConsumers.intruder(cluster.bootstrapServers(), topic, "connect-" + topic,
                RangeAssignor.class)) {
            Awaitility.await("the intruder joins the group").atMost(WAIT)
                    .until(() -> !intruder.poll(Duration.ofMillis(200)).isEmpty() || !intruder.assignment().isEmpty());
        }
        assertBackupComplete(topic, topic, 2);
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        cluster.delete(topic);
    }

    private static void assertBackupCompleteWithin(String name, String topic, int partitions) {
        cluster.deploy(name, sinkConfig(topic, root(), cluster.bootstrapServers()));
        assertBackupComplete(name, topic, partitions);
        cluster.delete(name);
    }

    @Test
    void eachFlushTriggerFires() {
        String topic = "triggers";
        cluster.kafka().createTopic(topic, 3);
        Map<String, String> config = sinkConfig(topic, root(), cluster.bootstrapServers());
        config.put("flush.max.records", "5");
        config.put("flush.max.bytes", "1000");
        config.put("flush.max.time.ms", "1500");
        cluster.deploy("triggers", config);
        cluster.awaitRunning("triggers", WAIT);
        try (KafkaProducer<byte[], byte[]> producer = producer(cluster.bootstrapServers())) {
            for (int i = 0; i < 10; i++) { // records trigger: 10 small records -> 0-4, 5-9
                producer.send(new ProducerRecord<>(topic, 0, null, new byte[10]));
            }
            for (int i = 0; i < 8; i++) { // bytes trigger: 300 B records -> 4 per object (1200 >= 1000)
                producer.send(new ProducerRecord<>(topic, 1, null, new byte[300]));
            }
            producer.flush();
        }
        awaitChainNext(cluster, root(), "triggers", PARQUET, Map.of(0, 10L, 1, 8L), WAIT);
        assertThat(chain(root(), "triggers", 0, PARQUET).objects()).extracting(ObjectName::to).containsExactly(4L, 9L);
        assertThat(chain(root(), "triggers", 1, PARQUET).objects()).extracting(ObjectName::to).containsExactly(3L, 7L);

        // Time trigger with no further record arriving: one record, then silence.
        long sent;
        try (KafkaProducer<byte[], byte[]> producer = producer(cluster.bootstrapServers())) {
            producer.send(new ProducerRecord<>(topic, 2, null, new byte[10]));
            producer.flush();
            sent = System.currentTimeMillis();
        }
        awaitChainNext(cluster, root(), "triggers", PARQUET, Map.of(2, 1L), WAIT);
        long took = System.currentTimeMillis() - sent;
        assertThat(took).as("time trigger fired within flush.max.time.ms plus a small bound").isLessThan(1500 + 4000);
        cluster.delete("triggers");
    }
}
