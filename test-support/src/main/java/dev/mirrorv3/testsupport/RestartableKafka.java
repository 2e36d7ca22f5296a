package dev.mirrorv3.testsupport;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A second Kafka cluster (one combined KRaft broker and controller) whose broker can be stopped and started again on
 * the same address, for tests of a destination outage; Connect's {@code EmbeddedKafkaCluster} underneath (Kafka's
 * non-public test kit, kept in this module). One per test class:
 * {@code @RegisterExtension static final RestartableKafka destination = RestartableKafka.perClass();}
 */
public final class RestartableKafka implements AutoCloseable, BeforeAllCallback, AfterAllCallback {
    private EmbeddedKafkaCluster kafka;
    private Admin admin;

    private RestartableKafka() {
    }

    public static RestartableKafka perClass() {
        return new RestartableKafka();
    }

    public static RestartableKafka start() {
        RestartableKafka k = new RestartableKafka();
        k.startCluster();
        return k;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        startCluster();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    private void startCluster() {
        Properties props = new Properties();
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("offsets.topic.replication.factor", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("auto.create.topics.enable", "false");
        EmbeddedKafkaCluster k = new EmbeddedKafkaCluster(1, props);
        k.start();
        kafka = k;
        admin = Admin.create(Map.of("bootstrap.servers", k.bootstrapServers()));
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** An admin client owned by this cluster (closed with it). */
    public Admin admin() {
        return admin;
    }

    public void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    public void createTopic(String name, int partitions, Map<String, String> configs) {
        try {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + name, e);
        }
    }

    /** Stops the broker (its controller too: one combined node); clients see connection refused until {@link #startBrokers()}. */
    public void stopBrokers() {
        kafka.stopOnlyBrokers();
    }

    /** Starts the stopped broker again on the same address and waits until it is ready. */
    public void startBrokers() {
        kafka.restartOnlyBrokers();
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close();
            admin = null;
        }
        if (kafka != null) {
            kafka.stop();
            kafka = null;
        }
    }
}
