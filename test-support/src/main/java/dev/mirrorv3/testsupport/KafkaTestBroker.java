package dev.mirrorv3.testsupport;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * One real KRaft broker (combined with its controller) in this JVM, for tests that need Kafka but not Connect; the
 * only user of Kafka's non-public {@code KafkaClusterTestKit} besides {@link ConnectTestCluster} ({@link EmbeddedKafka}
 * is this broker with a producer). One per test class.
 */
public final class KafkaTestBroker implements AutoCloseable {
    private final KafkaClusterTestKit cluster;
    private final Admin admin;

    private KafkaTestBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
        this.admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
    }

    public static KafkaTestBroker start() {
        return start(Map.of());
    }

    /** Formats and starts the broker with extra broker properties, and waits until it is ready. */
    public static KafkaTestBroker start(Map<String, String> brokerProperties) {
        KafkaClusterTestKit cluster = null;
        try {
            KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                    .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build());
            SingleNodeBroker.SETTINGS.forEach(builder::setConfigProp);
            brokerProperties.forEach(builder::setConfigProp);
            cluster = builder.build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new KafkaTestBroker(cluster);
        } catch (Exception e) {
            if (cluster != null) {
                try {
                    cluster.close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new IllegalStateException("cannot start the test broker: " + e.getMessage(), e);
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** An admin client owned by this broker (closed with it); do not close it yourself. */
    public Admin admin() {
        return admin;
    }

    /** Creates a topic (replication factor 1) with the given topic configs and waits for it. */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        TestTopics.create(admin, name, partitions, configs);
    }

    @Override
    public void close() {
        Closeables.closeAll("the test broker", admin, cluster);
    }
}
