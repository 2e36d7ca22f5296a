package dev.mirrorv3.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
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

    /** Makes record {@code i} of a partition. */
    @FunctionalInterface
    public interface RecordMaker {
        ProducerRecord<byte[], byte[]> record(int partition, int i);
    }

    /**
     * Sends {@code perPartition} records to each of partitions 0 to {@code partitions - 1}, made in rounds (record i of
     * every partition before record i + 1 of any), with {@link #sendAll}.
     */
    public static void sendRounds(KafkaProducer<byte[], byte[]> producer, int partitions, int perPartition, RecordMaker maker,
                                  Duration timeout) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < perPartition; i++) {
            for (int p = 0; p < partitions; p++) {
                records.add(maker.record(p, i));
            }
        }
        sendAll(producer, records, timeout);
    }

    /**
     * Sends {@code records} in order and waits for every acknowledgement. The first record of each partition goes
     * alone: with several batches in flight to the leader of a topic just created, which may not be ready yet, the
     * idempotent producer can stay stuck on out-of-order sequence numbers until the delivery timeout (a CI run lost
     * ten minutes that way).
     *
     * @throws AssertionError naming the topic when a record is not acknowledged within {@code timeout} each
     */
    public static void sendAll(KafkaProducer<byte[], byte[]> producer, List<ProducerRecord<byte[], byte[]>> records, Duration timeout) {
        String topics = records.stream().map(ProducerRecord::topic).distinct().sorted().toList().toString();
        try {
            Set<String> primed = new TreeSet<>();
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (ProducerRecord<byte[], byte[]> r : records) {
                Future<RecordMetadata> f = producer.send(r);
                if (primed.add(r.topic() + "-" + r.partition())) {
                    f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                } else {
                    sent.add(f);
                }
            }
            producer.flush();
            for (Future<RecordMetadata> f : sent) {
                f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while producing the test records to " + topics, e);
        } catch (Exception e) {
            throw new AssertionError("could not produce the test records to " + topics, e);
        }
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

    /**
     * Every record of one partition, read from its log start to its high watermark as it is when called: what a
     * comparison must see, extras and duplicates included (reading "until n records arrived" would miss them).
     * Fails when the end is not reached within the timeout.
     */
    public static PartitionContent readToEnd(String bootstrap, TopicPartition tp, Duration timeout) {
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", bootstrap);
        c.put("key.deserializer", ByteArrayDeserializer.class);
        c.put("value.deserializer", ByteArrayDeserializer.class);
        c.put("enable.auto.commit", false);
        c.put("isolation.level", "read_uncommitted");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (consumer.position(tp) < end) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + tp + " to its high watermark " + end + " within " + timeout
                            + " (at " + consumer.position(tp) + ")");
                }
                consumer.poll(Duration.ofMillis(200)).records(tp).forEach(records::add);
            }
            return new PartitionContent(List.copyOf(records), end);
        }
    }

    /** A partition's records and the high watermark they were read up to. */
    public record PartitionContent(List<ConsumerRecord<byte[], byte[]>> records, long highWatermark) {
    }
}
