package dev.mirrorv3.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;

/** Consumers that the connectors' integration tests put into consumer groups: a task's, or one on a standby. */
public final class TestConsumers {
    private TestConsumers() {
    }

    /**
     * A member of {@code group} (a sink task's group) that takes partitions away while it polls: a rebalance that closes
     * and opens the task's partitions. It commits nothing; closing it hands them back.
     */
    public static KafkaConsumer<byte[], byte[]> intruder(String bootstrap, String topic, String group,
                                                         Class<? extends ConsumerPartitionAssignor> assignor) {
        Map<String, Object> c = byteArrayConsumer(bootstrap, group);
        c.put("partition.assignment.strategy", assignor.getName());
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c);
        consumer.subscribe(List.of(topic));
        return consumer;
    }

    /**
     * A member of {@code group} that has joined it and committed {@code committed} for {@code tp}: the group is STABLE
     * (active) until the consumer is closed, so a group offset sync must leave it alone.
     */
    public static KafkaConsumer<byte[], byte[]> activeMember(String bootstrap, String group, TopicPartition tp, long committed,
                                                             Duration wait) {
        Map<String, Object> c = byteArrayConsumer(bootstrap, group);
        c.put("auto.offset.reset", "earliest");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c);
        consumer.subscribe(List.of(tp.topic()));
        Awaitility.await("consumer of " + group + " joined").atMost(wait).until(() -> {
            consumer.poll(Duration.ofMillis(100));
            return !consumer.assignment().isEmpty();
        });
        consumer.commitSync(Map.of(tp, new OffsetAndMetadata(committed)));
        return consumer;
    }

    /** The committed offsets of {@code group} on the partitions of {@code topic}, by partition (none: empty). */
    public static Map<Integer, Long> committed(Admin admin, String group, String topic) throws Exception {
        Map<Integer, Long> offsets = new TreeMap<>();
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).forEach((tp, o) -> {
            if (tp.topic().equals(topic) && o != null) {
                offsets.put(tp.partition(), o.offset());
            }
        });
        return offsets;
    }

    /**
     * Every record of {@code topic} up to its end offsets when called, per partition in order, read by a byte-array
     * consumer (no group) with {@code settings} added (an isolation.level, say).
     *
     * @throws AssertionError if the topic is not read to its end within a minute
     */
    public static Map<Integer, List<ConsumerRecord<byte[], byte[]>>> readAll(String bootstrap, String topic, Map<String, Object> settings) {
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", bootstrap);
        c.put("key.deserializer", ByteArrayDeserializer.class);
        c.put("value.deserializer", ByteArrayDeserializer.class);
        c.put("enable.auto.commit", false);
        c.putAll(settings);
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> out = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            List<TopicPartition> tps = consumer.partitionsFor(topic).stream().map(pi -> new TopicPartition(topic, pi.partition())).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> end = consumer.endOffsets(tps);
            tps.forEach(tp -> out.put(tp.partition(), new ArrayList<>()));
            long deadline = System.currentTimeMillis() + 60_000;
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.currentTimeMillis() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    out.get(r.partition()).add(r);
                }
            }
        }
        return out;
    }

    private static Map<String, Object> byteArrayConsumer(String bootstrap, String group) {
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", group);
        c.put("enable.auto.commit", false);
        c.put("key.deserializer", ByteArrayDeserializer.class);
        c.put("value.deserializer", ByteArrayDeserializer.class);
        return c;
    }
}
