package dev.mirrorv3.testsupport;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * One real KRaft broker (combined with its controller) in this JVM, for tests that need Kafka but not Connect; the
 * only user of Kafka's non-public {@code KafkaClusterTestKit} besides {@link ConnectTestCluster} ({@link EmbeddedKafka}
 * is this broker with a producer). One per test class:
 * {@code @RegisterExtension static final KafkaTestBroker broker = KafkaTestBroker.perClass();} (started before the
 * class's first test, closed after its last), or {@link #start()} outside JUnit.
 */
public final class KafkaTestBroker extends PerClassResource {
    private final Map<String, String> brokerProperties;
    private volatile KafkaClusterTestKit cluster;
    private volatile Admin admin;

    private KafkaTestBroker(Map<String, String> brokerProperties) {
        this.brokerProperties = brokerProperties;
    }

    /** A broker a test class registers as a JUnit extension: started before its first test, closed after its last. */
    public static KafkaTestBroker perClass() {
        return new KafkaTestBroker(Map.of());
    }

    public static KafkaTestBroker start() {
        return start(Map.of());
    }

    /** Formats and starts the broker with extra broker properties, and waits until it is ready. */
    public static KafkaTestBroker start(Map<String, String> brokerProperties) {
        KafkaTestBroker broker = new KafkaTestBroker(brokerProperties);
        broker.startCluster();
        return broker;
    }

    @Override
    void startCluster() {
        KafkaClusterTestKit started = null;
        try {
            KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                    .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build());
            SingleNodeBroker.SETTINGS.forEach(builder::setConfigProp);
            brokerProperties.forEach(builder::setConfigProp);
            started = builder.build();
            started.format();
            started.startup();
            started.waitForReadyBrokers();
        } catch (Exception e) {
            if (started != null) {
                try {
                    started.close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new IllegalStateException("cannot start the test broker: " + e.getMessage(), e);
        }
        cluster = started;
        admin = Admin.create(Map.of("bootstrap.servers", started.bootstrapServers()));
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
