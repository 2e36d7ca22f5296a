package dev.mirrorv3.testsupport;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * One real KRaft broker (combined with its controller) in this JVM, for tests that need Kafka but not Connect; the
 * only user of Kafka's non-public {@code KafkaClusterTestKit} besides {@link ConnectTestCluster}. One per test class.
 */
public final class KafkaTestBroker implements AutoCloseable {
    private final KafkaClusterTestKit cluster;
    private final Admin admin;

    private KafkaTestBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
        this.admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
    }

    public static KafkaTestBroker start() {
        try {
            KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                    .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new KafkaTestBroker(cluster);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the test broker", e);
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    public Admin admin() {
        return admin;
    }

    /** Creates a topic (replication factor 1) with the given topic configs and waits for it. */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        try {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + name, e);
        }
    }

    @Override
    public void close() {
        admin.close();
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the test broker", e);
        }
    }
}
