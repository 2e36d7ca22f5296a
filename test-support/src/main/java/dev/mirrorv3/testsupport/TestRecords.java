package dev.mirrorv3.testsupport;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Test records and the producer that writes them, shared by the connectors' integration tests. */
public final class TestRecords {
    private TestRecords() {
    }

    /** A byte-array producer: acks=all, linger 5 ms, the given delivery and request timeouts. */
    public static KafkaProducer<byte[], byte[]> producer(String bootstrap, int deliveryTimeoutMs, int requestTimeoutMs) {
        Map<String, Object> p = new HashMap<>();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", ByteArraySerializer.class);
        p.put("value.serializer", ByteArraySerializer.class);
        p.put("linger.ms", 5);
        p.put("acks", "all");
        p.put("delivery.timeout.ms", deliveryTimeoutMs);
        p.put("request.timeout.ms", requestTimeoutMs);
        return new KafkaProducer<>(p);
    }

    /**
     * Record {@code i} of a deterministic stream with everything a record can carry: null and empty keys, tombstones
     * and empty values, headers with duplicate keys and null values.
     *
     * @param timestamp the record's timestamp; {@code null} lets the producer stamp it
     */
    public static ProducerRecord<byte[], byte[]> varied(String topic, int partition, int i, Random random, Long timestamp) {
        byte[] key = switch (i % 5) {
            case 0 -> null;
            case 1 -> new byte[0];
            default -> bytes(random, 1 + random.nextInt(24));
        };
        byte[] value = switch (i % 7) {
            case 0 -> null;
            case 1 -> new byte[0];
            default -> bytes(random, random.nextInt(200));
        };
        RecordHeaders headers = new RecordHeaders();
        for (int h = 0; h < i % 4; h++) {
            headers.add("h" + (h % 2), h == 2 ? null : bytes(random, random.nextInt(10)));
        }
        return new ProducerRecord<>(topic, partition, timestamp, key, value, headers);
    }

    public static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
