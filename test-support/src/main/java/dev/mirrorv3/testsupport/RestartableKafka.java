package dev.mirrorv3.testsupport;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;

/**
 * A second Kafka cluster (one combined KRaft broker and controller) whose broker can be stopped and started again on
 * the same address, for tests of a destination outage; Connect's {@code EmbeddedKafkaCluster} underneath (Kafka's
 * non-public test kit, kept in this module). One per test class:
 * {@code @RegisterExtension static final RestartableKafka destination = RestartableKafka.perClass();}
 * <p>
 * {@link #perClassWithProxy()} adds a second listener that clients reach through a {@link FreezableProxy} (the broker
 * advertises the proxy's address on it, so every connection of a client bootstrapped there goes through the proxy),
 * for a broker that hangs instead of stopping; {@link #bootstrapServers()} stays direct.
 */
public final class RestartableKafka extends PerClassResource {
    private static final String PROXIED = "PROXIED";

    private final boolean withProxy;
    private volatile EmbeddedKafkaCluster kafka; // read by the proxy's threads
    private Admin admin;
    private FreezableProxy proxy;

    private RestartableKafka(boolean withProxy) {
        this.withProxy = withProxy;
    }

    public static RestartableKafka perClass() {
        return new RestartableKafka(false);
    }

    /** As {@link #perClass()}, with a listener behind a {@link FreezableProxy}: see {@link #proxiedBootstrapServers()}. */
    public static RestartableKafka perClassWithProxy() {
        return new RestartableKafka(true);
    }

    public static RestartableKafka start() {
        RestartableKafka k = new RestartableKafka(false);
        k.startCluster();
        return k;
    }

    @Override
    void startCluster() {
        Properties props = SingleNodeBroker.properties(Map.of("auto.create.topics.enable", "false"));
        if (withProxy) {
            proxy = FreezableProxy.start(this::proxiedListener);
            // EXTERNAL and CONTROLLER are the test kit's listeners (ports bound in advance, port 0 advertised as bound).
            props.put("listeners", "EXTERNAL://localhost:0,CONTROLLER://localhost:0," + PROXIED + "://localhost:0");
            props.put("advertised.listeners", "EXTERNAL://localhost:0," + PROXIED + "://127.0.0.1:" + proxy.port());
            props.put("listener.security.protocol.map", "EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT," + PROXIED + ":PLAINTEXT");
        }
        EmbeddedKafkaCluster k = new EmbeddedKafkaCluster(1, props);
        k.start();
        kafka = k;
        admin = Admin.create(Map.of("bootstrap.servers", k.bootstrapServers()));
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** The address of the proxied listener (only with {@link #perClassWithProxy()}). */
    public String proxiedBootstrapServers() {
        return "127.0.0.1:" + proxy().port();
    }

    /** The proxy in front of the proxied listener: {@link FreezableProxy#freeze()} makes the broker hang for its clients. */
    public FreezableProxy proxy() {
        if (proxy == null) {
            throw new IllegalStateException("this cluster has no proxy: create it with RestartableKafka.perClassWithProxy()");
        }
        return proxy;
    }

    /** Where the proxy forwards: the proxied listener of the running broker (its port changes when it restarts). */
    private InetSocketAddress proxiedListener() {
        int port = kafka.runningBrokers().stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("the broker is stopped"))
                .boundPort(ListenerName.normalised(PROXIED));
        return new InetSocketAddress("localhost", port);
    }

    /** An admin client owned by this cluster (closed with it). */
    public Admin admin() {
        return admin;
    }

    public void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    public void createTopic(String name, int partitions, Map<String, String> configs) {
        TestTopics.create(admin, name, partitions, configs);
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
        EmbeddedKafkaCluster k = kafka;
        try {
            Closeables.closeAll("the restartable Kafka cluster", proxy, admin, k == null ? null : k::stop);
        } finally {
            proxy = null;
            admin = null;
            kafka = null;
        }
    }
}
