package dev.mirrorv3.quickstart;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads a whole topic, every partition to the high watermark it has when the read starts, within a deadline. */
final class TopicReader {
    /** How long a smoke check may take to read one topic before it fails instead of hanging. */
    static final Duration DEADLINE = Duration.ofSeconds(Long.getLong("quickstart.read.timeout.s", 120));

    private TopicReader() {
    }

    /** The records of each partition in offset order; fails with a message naming the topic when the deadline passes. */
    static Map<Integer, List<ConsumerRecord<byte[], byte[]>>> readAll(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, DEADLINE.toMillis()));
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> out = new TreeMap<>();
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> tps = consumer.partitionsFor(topic).stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> end = consumer.endOffsets(tps);
            tps.forEach(tp -> out.put(tp.partition(), new ArrayList<>()));
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end within " + DEADLINE.toSeconds()
                            + " s (positions " + positions(consumer, tps) + ", ends " + end + "): is the broker at " + bootstrap
                            + " overloaded or gone? (-Dquickstart.read.timeout.s sets the limit)");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    out.get(r.partition()).add(r);
                }
            }
        }
        return out;
    }

    private static Map<TopicPartition, Long> positions(KafkaConsumer<?, ?> consumer, List<TopicPartition> tps) {
        Map<TopicPartition, Long> out = new TreeMap<>((a, b) -> Integer.compare(a.partition(), b.partition()));
        tps.forEach(tp -> out.put(tp, consumer.position(tp)));
        return out;
    }
}
