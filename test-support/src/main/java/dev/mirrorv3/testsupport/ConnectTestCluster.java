package dev.mirrorv3.testsupport;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import javax.management.AttributeNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfos;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/**
 * A real KRaft broker and real Connect worker(s) in this JVM: the one place that uses Kafka's non-public test
 * kit ({@code EmbeddedConnectCluster}), so a Kafka upgrade that changes it touches only this class.
 * One cluster per test class (short rebalance delays, so a lost worker's tasks move within a test).
 */
public final class ConnectTestCluster extends PerClassResource {
    private final int workers;
    private final Map<String, String> extraWorkerProps;
    private EmbeddedConnectCluster connect;

    private ConnectTestCluster(int workers, Map<String, String> extraWorkerProps) {
        this.workers = workers;
        this.extraWorkerProps = extraWorkerProps;
    }

    /**
     * One cluster for a test class, started before its first test and stopped after its last:
     * {@code @RegisterExtension static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);}
     */
    public static ConnectTestCluster perClass(int workers) {
        return perClass(workers, Map.of());
    }

    public static ConnectTestCluster perClass(int workers, Map<String, String> extraWorkerProps) {
        return new ConnectTestCluster(workers, extraWorkerProps);
    }

    public static ConnectTestCluster start(int workers) {
        return start(workers, Map.of());
    }

    public static ConnectTestCluster start(int workers, Map<String, String> extraWorkerProps) {
        ConnectTestCluster cluster = new ConnectTestCluster(workers, extraWorkerProps);
        cluster.startCluster();
        return cluster;
    }

    @Override
    void startCluster() {
        Map<String, String> workerProps = new HashMap<>();
        workerProps.put("plugin.discovery", "service_load"); // needs our META-INF/services entries; ~4 s faster
        workerProps.put("offset.flush.interval.ms", "1000");
        workerProps.put("scheduled.rebalance.max.delay.ms", "2000");
        workerProps.putAll(extraWorkerProps);
        Properties brokerProps = SingleNodeBroker.properties(Map.of(
                "log.retention.check.interval.ms", "1000",
                "log.cleaner.backoff.ms", "200"));
        EmbeddedConnectCluster connect = new EmbeddedConnectCluster.Builder()
                .name("mirror-v3-it")
                .numWorkers(workers)
                .numBrokers(1)
                .workerProps(workerProps)
                .brokerProps(brokerProps)
                .build();
        connect.start();
        this.connect = connect;
    }

    public EmbeddedConnectCluster connect() {
        return connect;
    }

    public EmbeddedKafkaCluster kafka() {
        return connect.kafka();
    }

    public String bootstrapServers() {
        return connect.kafka().bootstrapServers();
    }

    public void deploy(String name, Map<String, String> config) {
        connect.configureConnector(name, config);
    }

    public ConfigInfos validate(String connectorClass, Map<String, String> config) {
        return connect.validateConnectorConfig(connectorClass, config);
    }

    public void awaitRunning(String name, Duration timeout) {
        Awaitility.await("connector " + name + " and its task running").atMost(timeout).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    try {
                        ConnectorStateInfo s = connect.connectorStatus(name);
                        return "RUNNING".equals(s.connector().state()) && !s.tasks().isEmpty()
                                && s.tasks().stream().allMatch(t -> "RUNNING".equals(t.state()));
                    } catch (RuntimeException e) {
                        return false;
                    }
                });
    }

    /** Stops the connector (PUT /connectors/{name}/stop: its tasks shut down, its config stays) and waits until it is STOPPED. */
    public void stop(String name, Duration timeout) {
        connect.stopConnector(name);
        Awaitility.await("connector " + name + " stopped").atMost(timeout).pollInterval(Duration.ofMillis(200))
                .until(() -> "STOPPED".equals(connect.connectorStatus(name).connector().state()));
    }

    /** Waits until a task of the connector has FAILED and returns its trace (the error message Connect shows). */
    public String awaitTaskFailure(String name, Duration timeout) {
        String[] trace = new String[1];
        Awaitility.await("a task of " + name + " failed").atMost(timeout).pollInterval(Duration.ofMillis(200)).until(() -> {
            try {
                for (ConnectorStateInfo.TaskState t : connect.connectorStatus(name).tasks()) {
                    if ("FAILED".equals(t.state())) {
                        trace[0] = t.trace();
                        return true;
                    }
                }
            } catch (RuntimeException e) {
                return false;
            }
            return false;
        });
        return trace[0];
    }

    /** The trace of the connector's or a task's failure, or null while nothing has failed. */
    public String failureTrace(String name) {
        try {
            ConnectorStateInfo s = connect.connectorStatus(name);
            if ("FAILED".equals(s.connector().state())) {
                return s.connector().trace();
            }
            for (ConnectorStateInfo.TaskState t : s.tasks()) {
                if ("FAILED".equals(t.state())) {
                    return t.trace();
                }
            }
        } catch (RuntimeException e) {
            return null;
        }
        return null;
    }

    /**
     * An await of something connector {@code name} brings about: polls every 250 ms, ignoring exceptions, and fails at
     * once, with Connect's trace, when the connector or a task of it fails.
     */
    public ConditionFactory awaitUnlessFailed(String name, String description, Duration timeout) {
        return Awaitility.await(description).atMost(timeout).pollInterval(Duration.ofMillis(250))
                .failFast("connector " + name + " failed", () -> {
                    String trace = failureTrace(name);
                    if (trace != null) {
                        throw new AssertionError("connector " + name + " failed: " + trace);
                    }
                })
                .ignoreExceptions();
    }

    public String taskState(String name) {
        ConnectorStateInfo s = connect.connectorStatus(name);
        return s.tasks().isEmpty() ? "NONE" : s.tasks().get(0).state();
    }

    /**
     * Records Connect has handed to a sink task's {@code put()} (its own {@code sink-record-read-total} metric), summed
     * over the in-process workers: the state a test waits for instead of sleeping after producing.
     */
    public long sinkRecordsRead(String connector, int task) {
        try {
            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            long total = 0;
            for (ObjectName n : jmx.queryNames(new ObjectName("kafka.connect:type=sink-task-metrics,connector=" + connector
                    + ",task=" + task), null)) {
                total += ((Number) jmx.getAttribute(n, "sink-record-read-total")).longValue();
            }
            return total;
        } catch (JMException e) {
            throw new IllegalStateException("cannot read the sink task metrics of " + connector + " task " + task, e);
        }
    }

    /**
     * The value of a task's {@code partition-failed} series for one partition (mirror_v3_partition_failed): 1 while the
     * partition is failed and isolated, 0 when no worker of this JVM exports it.
     */
    public long partitionFailedGauge(String connector, String topic, int partition) {
        try {
            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            for (ObjectName n : jmx.queryNames(new ObjectName("kafka.connect:type=plugins,connector=" + connector + ",*"), null)) {
                if (topic.equals(n.getKeyProperty("topic")) && Integer.toString(partition).equals(n.getKeyProperty("partition"))) {
                    try {
                        return ((Number) jmx.getAttribute(n, "partition-failed")).longValue();
                    } catch (AttributeNotFoundException e) {
                        continue; // the partition's other series
                    }
                }
            }
            return 0;
        } catch (JMException e) {
            throw new IllegalStateException("cannot read the plugin metrics of " + connector, e);
        }
    }

    /** A connector-wide plugin metric of {@code connector} (its series labelled mirror=connector), read through JMX. */
    public long connectorMetric(String connector, String attribute) {
        try {
            ObjectName on = new ObjectName("kafka.connect:type=plugins,connector=" + connector + ",mirror=" + connector);
            return ((Number) ManagementFactory.getPlatformMBeanServer().getAttribute(on, attribute)).longValue();
        } catch (JMException e) {
            throw new IllegalStateException("cannot read " + attribute + " of " + connector, e);
        }
    }

    /** Waits until {@link #connectorMetric} is {@code expected} (a metric not registered yet counts as not there). */
    public void awaitConnectorMetric(String connector, String attribute, long expected, Duration timeout) {
        Awaitility.await(attribute + " = " + expected).atMost(timeout).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> connectorMetric(connector, attribute) == expected);
    }

    /** The metadata of the offset a sink connector's consumer group (connect-{@code connector}) committed for the partition, or null. */
    public String committedOffsetMetadata(String connector, String topic, int partition) {
        try (Admin admin = kafka().createAdminClient()) {
            OffsetAndMetadata o = admin.listConsumerGroupOffsets("connect-" + connector).partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS).get(new TopicPartition(topic, partition));
            return o == null ? null : o.metadata();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the committed offsets of connect-" + connector, e);
        }
    }

    /**
     * Waits until a sink connector's task holds the partition as failed and isolated: its partition-failed series is 1
     * and the offset its group committed for it carries the failure (what {@code mirror-v3 status} shows). Returns that
     * offset's metadata ("mirror-v3: partition FAILED since …: reason"). Fails at once if the task fails instead.
     */
    public String awaitPartitionFailed(String connector, String topic, int partition, Duration timeout) {
        return awaitPartitionFailed(connector, topic, partition, timeout, false);
    }

    /**
     * As {@link #awaitPartitionFailed(String, String, int, Duration)}; with {@code taskMayFailFirst} a task that FAILED
     * meanwhile (e.g. in Connect's own rebalance, before the connector restarts it) is waited out instead.
     */
    public String awaitPartitionFailed(String connector, String topic, int partition, Duration timeout, boolean taskMayFailFirst) {
        String[] metadata = new String[1];
        Awaitility.await(connector + " isolates " + topic + "-" + partition).atMost(timeout).pollInterval(Duration.ofMillis(250))
                .failFast("the task of " + connector + " failed", () -> {
                    String trace = taskMayFailFirst ? null : failureTrace(connector);
                    if (trace != null) {
                        throw new AssertionError("the task of " + connector + " FAILED instead of isolating " + topic + "-" + partition
                                + ": " + trace.lines().filter(l -> l.startsWith("Caused by: ")).reduce((x, y) -> y)
                                .orElse(trace.lines().findFirst().orElse("")));
                    }
                })
                .until(() -> {
                    metadata[0] = committedOffsetMetadata(connector, topic, partition);
                    return partitionFailedGauge(connector, topic, partition) == 1 && metadata[0] != null
                            && metadata[0].contains("partition FAILED");
                });
        return metadata[0];
    }

    public void delete(String name) {
        connect.deleteConnector(name);
    }

    @Override
    public void close() {
        if (connect != null) {
            connect.stop();
            connect = null;
        }
    }
}
