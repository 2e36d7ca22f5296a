package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.RestartableKafka;
import dev.mirrorv3.testsupport.TestConsumers;
import dev.mirrorv3.testsupport.TestRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;

/** Shared pieces of the Kafka sink's integration tests: configs, data, reading both topics back, comparing. */
final class KafkaSinkTestSupport {
    /** The destination cluster's topic that keeps which source topic each destination topic copies (the default name). */
    static final String IDENTITY_TOPIC = "__mirror-v3.source-ids";

    private KafkaSinkTestSupport() {
    }

    static Map<String, String> sinkConfig(String connectorClass, String topic, String sourceBootstrap, String destinationBootstrap) {
        Map<String, String> c = ConnectorConfigs.sink(connectorClass, topic, sourceBootstrap);
        c.put("destination.bootstrap.servers", destinationBootstrap);
        c.put("retry.backoff.initial.ms", "100");
        c.put("retry.backoff.max.ms", "1000");
        c.put("heartbeat.interval.ms", "5000");
        return c;
    }

    static Map<String, String> sinkConfig(String topic, String sourceBootstrap, String destinationBootstrap) {
        return sinkConfig(KafkaSinkConnector.class.getName(), topic, sourceBootstrap, destinationBootstrap);
    }

    /**
     * The config of the tests of a destination that hangs or stops with records in flight: deliveries time out after
     * 5 s (requests after 2.5 s), so the recovery starts soon; its retries back off from 0.5 s to 2 s; the destination's
     * clients reconnect every 250 ms at most.
     */
    static Map<String, String> outageConfig(String topic, String sourceBootstrap, String destinationBootstrap, long adminTimeoutMs) {
        Map<String, String> c = sinkConfig(topic, sourceBootstrap, destinationBootstrap);
        ConnectorConfigs.with(c, "retry.backoff.initial.ms", "500", "retry.backoff.max.ms", "2000",
                "admin.timeout.ms", Long.toString(adminTimeoutMs), "destination.producer.delivery.timeout.ms", "5000",
                "destination.producer.request.timeout.ms", "2500", "destination.producer.reconnect.backoff.max.ms", "250",
                "destination.admin.reconnect.backoff.max.ms", "250");
        return c;
    }

    static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        return TestRecords.producer(bootstrap, 120_000, 60_000);
    }

    /**
     * Produces {@code perPartition} records to each partition with everything a record can carry: null and empty keys,
     * tombstones and empty values, headers (duplicate keys, null values), explicit timestamps. Deterministic per seed.
     */
    static void produceVaried(String bootstrap, String topic, int partitions, int perPartition, long seed) {
        Random random = new Random(seed);
        long baseTs = System.currentTimeMillis() - 3_600_000;
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
            TestRecords.sendRounds(producer, partitions, perPartition, (p, i) -> variedRecord(topic, p, i, random, baseTs + i),
                    Duration.ofSeconds(120));
        }
    }

    /** Writes varied records to every partition at a steady rate until closed: a live source, not a preloaded one. */
    static final class SteadySource implements AutoCloseable {
        private final KafkaProducer<byte[], byte[]> producer;
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        private final AtomicReference<Exception> failure = new AtomicReference<>();
        private final String topic;
        private final Random random;
        private int next;
        private boolean closed;

        SteadySource(String bootstrap, String topic, int partitions, int recordsPerSecondPerPartition, long seed) {
            this.producer = producer(bootstrap);
            this.topic = topic;
            this.random = new Random(seed);
            // The first record of each partition alone: with several batches in flight to a partition whose leader is
            // not ready yet (a topic just created), the idempotent producer can keep failing on sequence numbers.
            try {
                for (int p = 0; p < partitions; p++) {
                    producer.send(record(p)).get(60, TimeUnit.SECONDS);
                }
            } catch (Exception e) {
                producer.close(Duration.ZERO);
                throw new AssertionError("could not write the first records of " + topic, e);
            }
            next++;
            timer.scheduleAtFixedRate(() -> {
                for (int p = 0; p < partitions; p++) {
                    producer.send(record(p), (md, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        }
                    });
                }
                next++;
            }, 0, 1_000_000L / recordsPerSecondPerPartition, TimeUnit.MICROSECONDS);
        }

        private ProducerRecord<byte[], byte[]> record(int partition) {
            return variedRecord(topic, partition, next, random, System.currentTimeMillis());
        }

        /** Stops writing; every record written must be acknowledged within a minute. */
        @Override
        public void close() throws InterruptedException {
            if (closed) {
                return;
            }
            closed = true;
            timer.shutdown();
            if (!timer.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the source producer of " + topic + " did not stop");
            }
            producer.close(Duration.ofSeconds(60)); // fails what is not acknowledged by then
            if (failure.get() != null) {
                throw new AssertionError("could not produce the source records of " + topic, failure.get());
            }
        }
    }

    static ProducerRecord<byte[], byte[]> variedRecord(String topic, int partition, int i, Random random, long timestamp) {
        return TestRecords.varied(topic, partition, i, random, timestamp);
    }

    static byte[] bytes(Random random, int n) {
        return TestRecords.bytes(random, n);
    }

    /** Every committed record of the topic, per partition (read_committed). */
    static Map<Integer, List<ConsumerRecord<byte[], byte[]>>> consumeAll(String bootstrap, String topic) {
        return TestConsumers.readAll(bootstrap, topic, Map.of("isolation.level", "read_committed", "max.poll.records", 5000));
    }

    static Map<Integer, Long> highWatermarks(Admin admin, String topic, int partitions) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        try {
            Map<Integer, Long> out = new TreeMap<>();
            admin.listOffsets(request).all().get(30, TimeUnit.SECONDS).forEach((tp, info) -> out.put(tp.partition(), info.offset()));
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("cannot list offsets of " + topic, e);
        }
    }

    /**
     * Deletes the topic and creates it again with {@code partitions} (a new topic id), retrying the creation while the
     * deletion is still under way, and waits until the cluster describes the new topic.
     */
    static void recreateTopic(Admin admin, String topic, int partitions) {
        String before = topicId(admin, topic);
        try {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot delete topic " + topic, e);
        }
        Awaitility.await("topic " + topic + " created again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .ignoreExceptions().until(() -> {
                    admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
                    return true;
                });
        Awaitility.await("topic " + topic + " described with its new id").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() -> !topicId(admin, topic).equals(before));
    }

    /** The topic's id (Kafka's topic id) as text. */
    static String topicId(Admin admin, String topic) {
        try {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).topicId().toString();
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe topic " + topic, e);
        }
    }

    /** The values of the destination cluster's source-id records (the topic that keeps them), in order; none without it. */
    static List<String> identityRecords(String bootstrap) {
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", bootstrap);
        c.put("key.deserializer", ByteArrayDeserializer.class);
        c.put("value.deserializer", ByteArrayDeserializer.class);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            List<TopicPartition> tps = consumer.listTopics().getOrDefault(IDENTITY_TOPIC, List.of()).stream()
                    .map(pi -> new TopicPartition(IDENTITY_TOPIC, pi.partition())).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> end = consumer.endOffsets(tps);
            long deadline = System.currentTimeMillis() + 30_000;
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp)) && System.currentTimeMillis() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value() == null ? "" : new String(r.value(),
                        java.nio.charset.StandardCharsets.UTF_8)));
            }
        }
        return values;
    }

    /** The records of a topic: the sum of its partitions' high watermarks. */
    static long total(Map<Integer, Long> highWatermarks) {
        return highWatermarks.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Waits until the destination topic's high watermarks reach {@code expected}, failing fast if the connector fails. */
    static void awaitDestination(ConnectTestCluster cluster, String connector, Admin destination, String topic,
                                 Map<Integer, Long> expected, Duration timeout) {
        awaitDestination(cluster, connector, destination, topic, "reaches " + expected, expected.size(), expected::equals, timeout);
    }

    /** As {@link #awaitDestination}, until every destination partition holds at least {@code expected} records. */
    static void awaitDestinationAtLeast(ConnectTestCluster cluster, String connector, Admin destination, String topic,
                                        Map<Integer, Long> expected, Duration timeout) {
        awaitDestination(cluster, connector, destination, topic, "reaches at least " + expected, expected.size(),
                hwms -> expected.entrySet().stream().allMatch(e -> hwms.get(e.getKey()) >= e.getValue()), timeout);
    }

    private static void awaitDestination(ConnectTestCluster cluster, String connector, Admin destination, String topic, String what,
                                         int partitions, Predicate<Map<Integer, Long>> reached, Duration timeout) {
        cluster.awaitUnlessFailed(connector, "destination " + topic + " " + what, timeout)
                .until(() -> reached.test(highWatermarks(destination, topic, partitions)));
    }

    /**
     * The task catches up with a steady source that keeps writing, then the source stops and the destination must end
     * equal to it record by record at the same offsets.
     */
    static void awaitExactCopyOfSteadySource(ConnectTestCluster cluster, String connector, Admin source, SteadySource feed,
                                             RestartableKafka destination, String topic, int partitions) throws InterruptedException {
        awaitDestinationAtLeast(cluster, connector, destination.admin(), topic, highWatermarks(source, topic, partitions),
                Duration.ofSeconds(90));
        feed.close();
        Map<Integer, Long> end = highWatermarks(source, topic, partitions);
        awaitDestination(cluster, connector, destination.admin(), topic, end, Duration.ofSeconds(60));
        assertSameRecords(consumeAll(cluster.bootstrapServers(), topic), consumeAll(destination.bootstrapServers(), topic), true);
        assertThat(highWatermarks(destination.admin(), topic, partitions)).as("destination high watermarks").isEqualTo(end);
    }

    /**
     * The destination holds exactly the source's records at the same offsets: keys, values and headers byte for byte,
     * and the timestamps too when {@code sameTimestamps}; a destination partition the source does not have is empty.
     */
    static void assertSameRecords(Map<Integer, List<ConsumerRecord<byte[], byte[]>>> source,
                                  Map<Integer, List<ConsumerRecord<byte[], byte[]>>> destination, boolean sameTimestamps) {
        assertThat(destination.keySet()).containsAll(source.keySet());
        destination.forEach((partition, records) -> {
            if (!source.containsKey(partition)) {
                assertThat(records).as("records in destination partition %d, which the source does not have", partition).isEmpty();
            }
        });
        for (Map.Entry<Integer, List<ConsumerRecord<byte[], byte[]>>> e : source.entrySet()) {
            List<ConsumerRecord<byte[], byte[]>> expected = e.getValue();
            List<ConsumerRecord<byte[], byte[]>> actual = destination.get(e.getKey());
            assertThat(actual.stream().map(ConsumerRecord::offset).toList()).as("offsets of partition " + e.getKey())
                    .containsExactlyElementsOf(expected.stream().map(ConsumerRecord::offset).toList());
            for (int i = 0; i < expected.size(); i++) {
                ConsumerRecord<byte[], byte[]> x = expected.get(i);
                ConsumerRecord<byte[], byte[]> a = actual.get(i);
                String at = "partition " + x.partition() + " offset " + x.offset();
                assertThat(a.key()).as(at + " key").isEqualTo(x.key());
                assertThat(a.value()).as(at + " value").isEqualTo(x.value());
                assertThat(a.headers().toArray()).as(at + " headers").containsExactly(x.headers().toArray());
                if (sameTimestamps) {
                    assertThat(a.timestamp()).as(at + " timestamp").isEqualTo(x.timestamp());
                }
            }
        }
    }
}
