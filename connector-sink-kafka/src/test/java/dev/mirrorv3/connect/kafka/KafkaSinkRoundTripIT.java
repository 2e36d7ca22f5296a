package dev.mirrorv3.connect.kafka;

import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.assertSameRecords;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.awaitDestination;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.highWatermarks;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.producer;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfo;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfos;
import org.junit.jupiter.api.Test;

/**
 * A byte-identical copy at the same offsets in both timestamp modes, and every refusal (a source
 * hole, a foreign record on the destination, a destination ahead of its source, an empty destination of a source that
 * starts above 0, a missing or too small destination topic), each with the message that says what to do: each one is
 * its partition's, which is isolated (its committed offset carries the message; KafkaSinkIsolationIT: the others go
 * on), or with partition.failure=task fails the task.
 */
class KafkaSinkRoundTripIT extends SourceAndDestinationTestBase {
    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void copiesThreePartitionsByteIdenticalAtTheSameOffsetsWithSourceTimestamps() {
        String topic = "roundtrip";
        createTopics(topic, 3);
        produceToSource(topic, 3, 10_000, 1);
        cluster.deploy("roundtrip", config(topic));
        produceToSource(topic, 3, 5_000, 2); // while it streams
        awaitDestination(cluster, "roundtrip", destination.admin(), topic, sourceHighWatermarks(topic, 3), WAIT);
        assertSameRecords(consumeAll(cluster.bootstrapServers(), topic), consumeAll(destination.bootstrapServers(), topic), true);
        assertThat(cluster.taskState("roundtrip")).isEqualTo("RUNNING");
        // mirror_v3_destination_offset_verified and _records_total per partition (plugin metrics over JMX)
        for (int p = 0; p < 3; p++) {
            int partition = p;
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(metric("roundtrip", topic, partition, KafkaSinkMetrics.OFFSET_VERIFIED)).isEqualTo(15_000L);
                assertThat(metric("roundtrip", topic, partition, KafkaSinkMetrics.RECORDS_TOTAL)).isEqualTo(15_000L);
            });
        }
        cluster.delete("roundtrip");
    }

    @Test
    void destinationTimestampModeLetsTheDestinationStampRecords() {
        String topic = "stamped";
        createTopics(topic, "stamped-copy", 2);
        produceToSource(topic, 2, 500, 3);
        Map<String, String> c = config(topic);
        c.put("timestamp.mode", "destination");
        c.put("destination.topic", "${topic}-copy");
        long before = System.currentTimeMillis();
        cluster.deploy("stamped", c);
        awaitDestination(cluster, "stamped", destination.admin(), "stamped-copy", sourceHighWatermarks(topic, 2), WAIT);
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> copy = consumeAll(destination.bootstrapServers(), "stamped-copy");
        assertSameRecords(consumeAll(cluster.bootstrapServers(), topic), copy, false);
        // The source records are an hour old; the copies carry the time they were sent.
        copy.values().forEach(rs -> rs.forEach(r -> assertThat(r.timestamp()).as("timestamp of offset " + r.offset())
                .isGreaterThanOrEqualTo(before)));
        cluster.delete("stamped");
    }

    private static long metric(String connector, String topic, int partition, String name) throws Exception {
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName pattern = new javax.management.ObjectName("kafka.connect:type=plugins,connector=" + connector
                + ",topic=" + topic + ",partition=" + partition + ",*");
        for (javax.management.ObjectName n : server.queryNames(pattern, null)) {
            return ((Number) server.getAttribute(n, name)).longValue();
        }
        throw new AssertionError("no metrics of " + topic + "-" + partition);
    }

    @Test
    void aValueThatIsNotJsonIsolatesItsPartitionWithValuesTypeJson() throws Exception {
        String topic = "typed";
        createTopics(topic, 1);
        try (KafkaProducer<byte[], byte[]> p = producer(cluster.bootstrapServers())) {
            for (int i = 0; i < 5; i++) {
                p.send(new ProducerRecord<>(topic, 0, null, ("{\"n\":" + i + "}").getBytes()));
            }
            p.send(new ProducerRecord<>(topic, 0, null, "not json".getBytes())).get(30, TimeUnit.SECONDS); // offset 5
        }
        Map<String, String> c = config(topic);
        c.put("values.type", "json");
        cluster.deploy("typed", c);
        String note = cluster.awaitPartitionFailed("typed", topic, 0, WAIT);
        assertThat(note).contains("topic typed partition 0 offset 5").contains("values.type");
        org.awaitility.Awaitility.await("copied up to the misfit").atMost(Duration.ofSeconds(30))
                .until(() -> highWatermarks(destination.admin(), topic, 1).get(0) == 5L);
        cluster.delete("typed");
    }

    @Test
    void anAbortedTransactionIsAHoleThatIsolatesItsPartition() throws Exception {
        String topic = "holes";
        createTopics(topic, 1);
        produceToSource(topic, 1, 10, 4);
        Map<String, Object> tx = new HashMap<>();
        tx.put("bootstrap.servers", cluster.bootstrapServers());
        tx.put("transactional.id", "holes-tx");
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(tx, new ByteArraySerializer(), new ByteArraySerializer())) {
            p.initTransactions();
            p.beginTransaction();
            for (int i = 0; i < 3; i++) {
                p.send(new ProducerRecord<>(topic, 0, null, new byte[] {1}));
            }
            p.flush(); // written, then aborted
            p.abortTransaction(); // the aborted records and the abort marker become a hole from offset 10
        }
        produceToSource(topic, 1, 1, 5); // the next record after the hole
        cluster.deploy("holes", config(topic));
        String note = cluster.awaitPartitionFailed("holes", topic, 0, WAIT);
        assertThat(note).contains("the source has an offset hole at 10 in holes-0").contains("the next record is at offset 1")
                .contains("blob destination");
        org.awaitility.Awaitility.await("copied up to the hole").atMost(Duration.ofSeconds(30))
                .until(() -> highWatermarks(destination.admin(), topic, 1).get(0) == 10L);
        cluster.delete("holes");
    }

    /** With partition.failure=task, as before isolation (KafkaSinkIsolationIT: the partition is isolated by default). */
    @Test
    void withPartitionFailureTaskAForeignRecordOnTheDestinationFailsTheTaskNamingBothOffsets() throws Exception {
        String topic = "foreign";
        createTopics(topic, 1);
        produceToSource(topic, 1, 100, 6);
        Map<String, String> c = config(topic);
        c.put("partition.failure", "task");
        cluster.deploy("foreign", c);
        awaitDestination(cluster, "foreign", destination.admin(), topic, Map.of(0, 100L), WAIT);
        try (KafkaProducer<byte[], byte[]> p = producer(destination.bootstrapServers())) {
            p.send(new ProducerRecord<>(topic, 0, null, "not from the source".getBytes())).get(30, TimeUnit.SECONDS); // offset 100
        }
        produceToSource(topic, 1, 10, 7);
        String trace = cluster.awaitTaskFailure("foreign", WAIT);
        assertThat(trace).contains("stored the record of foreign-0 offset 100 at offset 101").contains("another writer");
        cluster.delete("foreign");
    }

    @Test
    void aDestinationAheadOfTheSourceIsolatesItsPartition() throws Exception {
        String topic = "ahead";
        createTopics(topic, 1);
        produceToSource(topic, 1, 10, 8);
        produceVaried(destination.bootstrapServers(), topic, 1, 20, 9);
        cluster.deploy("ahead", config(topic));
        String note = cluster.awaitPartitionFailed("ahead", topic, 0, WAIT);
        assertThat(note).contains("the destination is ahead of the source").contains("ends at next offset 20")
                .contains("the source's high watermark is 10");
        cluster.delete("ahead");
    }

    @Test
    void anEmptyDestinationOfASourceStartingAboveZeroCannotPreserveOffsets() throws Exception {
        String topic = "truncated";
        createTopics(topic, 1);
        produceToSource(topic, 1, 10, 10);
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            admin.deleteRecords(Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(4))).all().get(30, TimeUnit.SECONDS);
        }
        cluster.deploy("truncated", config(topic));
        String note = cluster.awaitPartitionFailed("truncated", topic, 0, WAIT);
        assertThat(note).contains("destination truncated-0 is empty").contains("starts at offset 4")
                .contains("--offsets renumber");
        cluster.delete("truncated");
    }

    @Test
    void aMissingDestinationTopicIsRefusedByValidateAndATooSmallOneIsolatesThePartitionsItLacks() {
        String topic = "nowhere";
        cluster.kafka().createTopic(topic, 2);
        ConfigInfos infos = cluster.validate(KafkaSinkConnector.class.getName(), config(topic));
        List<String> errors = infos.configs().stream().map(ConfigInfo::configValue)
                .filter(v -> v.name().equals("destination.topic")).flatMap(v -> v.errors().stream()).toList();
        assertThat(errors).anyMatch(e -> e.contains("destination topic(s) nowhere do not exist") && e.contains("never creates topics"));

        destination.createTopic(topic, 1);
        produceToSource(topic, 2, 10, 11);
        cluster.deploy("nowhere", config(topic));
        String note = cluster.awaitPartitionFailed("nowhere", topic, 1, WAIT);
        assertThat(note).contains("destination topic nowhere").contains("has 1 partitions").contains("add partitions");
        awaitDestination(cluster, "nowhere", destination.admin(), topic, Map.of(0, 10L), WAIT); // partition 0 is copied
        cluster.delete("nowhere");
    }

    @Test
    void validateRefusesWhatWouldBreakTheGuarantee() {
        Map<String, String> c = config("any");
        c.remove("consumer.override.auto.offset.reset");
        c.put("errors.tolerance", "all");
        c.put("destination.producer.acks", "1");
        c.put("value.converter", "org.apache.kafka.connect.storage.StringConverter");
        ConfigInfos infos = cluster.validate(KafkaSinkConnector.class.getName(), c);
        Map<String, List<String>> errors = new HashMap<>();
        infos.configs().forEach(i -> errors.put(i.configValue().name(), i.configValue().errors()));
        assertThat(errors.get("consumer.override.auto.offset.reset")).anyMatch(e -> e.contains("auto.offset.reset=none"));
        assertThat(errors.get("errors.tolerance")).anyMatch(e -> e.contains("hole"));
        assertThat(errors.get("destination.bootstrap.servers")).anyMatch(e -> e.contains("destination.producer.acks=1 is refused"));
        assertThat(errors.get("value.converter")).anyMatch(e -> e.contains("ByteArrayConverter"));
    }
}
