package dev.mirrorv3.testsupport;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.errors.IllegalWorkerStateException;
import org.apache.kafka.connect.sink.SinkTask;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * A {@link SinkTaskContext} for unit tests of a sink task's pausing, keeping paused partitions the way Kafka 4.3.1's
 * {@code WorkerSinkTaskContext} and {@code WorkerSinkTask.HandleRebalance} do: the context remembers every partition
 * the task pauses until the task resumes it, also across {@code close()}; a rebalance keeps the remembered partitions
 * that are still assigned and pauses them on the consumer again before {@code open()}. The consumer forgets a
 * revoked partition's paused state. {@link #consumerPaused()} is what the consumer would not fetch. Seeks and
 * timeouts are recorded; plugin metrics are real ({@link #metric} reads them).
 */
public final class RebalancingSinkTaskContext implements SinkTaskContext, AutoCloseable {
    private final Map<String, String> configs;
    private final Set<TopicPartition> assignment = new LinkedHashSet<>();
    /** WorkerSinkTaskContext's pausedPartitions. */
    private final Set<TopicPartition> pausedPartitions = new LinkedHashSet<>();
    /** The consumer's paused partitions. */
    private final Set<TopicPartition> consumerPaused = new LinkedHashSet<>();
    private final Map<TopicPartition, Long> offsets = new HashMap<>();
    private final Metrics metrics = new Metrics();
    private final PluginMetricsImpl pluginMetrics;
    private long timeout = -1;

    public RebalancingSinkTaskContext(Map<String, String> configs) {
        this.configs = Map.copyOf(configs);
        this.pluginMetrics = new PluginMetricsImpl(metrics, Map.of("connector", configs.getOrDefault("name", "test"), "task", "0"));
    }

    /** Connect's onPartitionsAssigned: remembered pauses of assigned partitions apply again, then the task's open(). */
    public void assign(SinkTask task, TopicPartition... partitions) {
        assignment.addAll(List.of(partitions));
        pausedPartitions.retainAll(assignment);
        consumerPaused.addAll(pausedPartitions);
        task.open(List.of(partitions));
    }

    /** Connect's onPartitionsRevoked: the task's close(); the consumer drops the partitions, the context's set does not. */
    public void revoke(SinkTask task, TopicPartition... partitions) {
        task.close(List.of(partitions));
        assignment.removeAll(List.of(partitions));
        consumerPaused.removeAll(List.of(partitions));
    }

    /** The assigned partitions the consumer does not fetch. */
    public Set<TopicPartition> consumerPaused() {
        return Set.copyOf(consumerPaused);
    }

    /** The timeout the task asked for since the last call (-1 for none), reset as Connect's poll does. */
    public long takeTimeout() {
        long t = timeout;
        timeout = -1;
        return t;
    }

    /** The seeks the task asked for since the last call. */
    public Map<TopicPartition, Long> takeOffsets() {
        Map<TopicPartition, Long> o = Map.copyOf(offsets);
        offsets.clear();
        return o;
    }

    /** The value of the task's plugin metric with this name and these tags (besides Connect's), or null if absent. */
    public Object metric(String name, Map<String, String> tags) {
        for (Map.Entry<MetricName, KafkaMetric> e : metrics.metrics().entrySet()) {
            if (e.getKey().name().equals(name) && e.getKey().tags().entrySet().containsAll(tags.entrySet())) {
                return e.getValue().metricValue();
            }
        }
        return null;
    }

    @Override
    public Map<String, String> configs() {
        return configs;
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {
        this.offsets.putAll(offsets);
    }

    @Override
    public void offset(TopicPartition tp, long offset) {
        offset(Map.of(tp, offset));
    }

    @Override
    public void timeout(long timeoutMs) {
        timeout = timeoutMs;
    }

    @Override
    public Set<TopicPartition> assignment() {
        return Set.copyOf(assignment);
    }

    @Override
    public void pause(TopicPartition... partitions) {
        pausedPartitions.addAll(List.of(partitions)); // before the consumer's check, as in WorkerSinkTaskContext
        requireAssigned(partitions, "pause");
        consumerPaused.addAll(List.of(partitions));
    }

    @Override
    public void resume(TopicPartition... partitions) {
        List.of(partitions).forEach(pausedPartitions::remove);
        requireAssigned(partitions, "resume");
        consumerPaused.removeAll(List.of(partitions));
    }

    private void requireAssigned(TopicPartition[] partitions, String what) {
        for (TopicPartition tp : partitions) {
            if (!assignment.contains(tp)) {
                throw new IllegalWorkerStateException("SinkTasks may not " + what
                        + " partitions that are not currently assigned to them: " + tp);
            }
        }
    }

    @Override
    public void requestCommit() {
    }

    @Override
    public PluginMetrics pluginMetrics() {
        return pluginMetrics;
    }

    @Override
    public void close() {
        metrics.close();
    }
}
