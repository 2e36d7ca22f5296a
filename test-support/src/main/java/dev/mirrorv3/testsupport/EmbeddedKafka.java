package dev.mirrorv3.testsupport;

import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

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

    private final KafkaClusterTestKit cluster;
    private final Admin admin;

    private EmbeddedKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    }

    /** Formats and starts the broker, and waits until it is ready. */
    public static EmbeddedKafka start() {
        return start(Map.of());
    }

    /** As {@link #start()}, with extra broker properties. */
    public static EmbeddedKafka start(Map<String, String> brokerProperties) {
        KafkaClusterTestKit cluster = null;
        try {
            KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(
                    new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "1")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0");
            brokerProperties.forEach(builder::setConfigProp);
            cluster = builder.build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new EmbeddedKafka(cluster);
        } catch (Exception e) {
            if (cluster != null) {
                try {
                    cluster.close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new IllegalStateException("Could not start the embedded Kafka broker: " + e.getMessage(), e);
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** An admin client owned by this broker (closed with it); do not close it yourself. */
    public Admin admin() {
        return admin;
    }

    public void createTopic(String topic, int partitions) {
        createTopic(topic, partitions, Map.of());
    }

    public void createTopic(String topic, int partitions, Map<String, String> topicConfig) {
        try {
            admin.createTopics(Set.of(new NewTopic(topic, partitions, (short) 1).configs(topicConfig))).all().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic " + topic, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not create topic " + topic + ": " + e.getCause(), e.getCause());
        }
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
    public void close() throws Exception {
        try {
            admin.close();
        } finally {
            cluster.close();
        }
    }
}
