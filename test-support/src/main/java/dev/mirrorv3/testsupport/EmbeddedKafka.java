package dev.mirrorv3.testsupport;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A single combined KRaft broker+controller in this JVM, for tests that need a plain Kafka broker
 * (no Connect). Replication factors are 1 so consumer groups and transactions work on one node.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
 *     kafka.createTopic("t", 1);
 *     try (var producer = kafka.byteProducer()) { ... }
 * }
 * }</pre>
 */
public final class EmbeddedKafka implements AutoCloseable {

    private final KafkaTestBroker broker;

    private EmbeddedKafka(KafkaTestBroker broker) {
        this.broker = broker;
    }

    /** Formats and starts the broker, and waits until it is ready. */
    public static EmbeddedKafka start() {
        return start(Map.of());
    }

    /** As {@link #start()}, with extra broker properties. */
    public static EmbeddedKafka start(Map<String, String> brokerProperties) {
        Map<String, String> properties = new HashMap<>(Map.of("offsets.topic.num.partitions", "1"));
        properties.putAll(brokerProperties);
        return new EmbeddedKafka(KafkaTestBroker.start(properties));
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** An admin client owned by this broker (closed with it); do not close it yourself. */
    public Admin admin() {
        return broker.admin();
    }

    public void createTopic(String topic, int partitions) {
        createTopic(topic, partitions, Map.of());
    }

    public void createTopic(String topic, int partitions, Map<String, String> topicConfig) {
        broker.createTopic(topic, partitions, topicConfig);
    }

    /** A producer of raw bytes (acks=all, idempotent); the caller closes it. */
    public KafkaProducer<byte[], byte[]> byteProducer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public void close() {
        broker.close();
    }
}
