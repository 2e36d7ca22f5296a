package dev.mirrorv3.kafka.metrics;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way mirror-v3's connectors and tasks register their series on Connect's plugin metrics (KIP-877, Kafka >= 4.1):
 * MBeans {@code kafka.connect:type=plugins,connector=<name>[,task=<id>],mirror=<name>[,topic=..,partition=..]}, which
 * {@code config/jmx-exporter.yaml} turns into the {@code mirror_v3_*} series. It owns the tags ({@code mirror}, and
 * {@code topic}/{@code partition} for a partition's series), registration (once per series), the removal of a
 * partition's series when it closes and of everything on {@link #close()}. On a runtime without plugin metrics it
 * registers nothing and warns once per worker (per plugin class loader); the callers work on unchanged.
 *
 * <p>Registration never stops a task from starting. A worker abandons a task whose {@code stop()} outlives
 * {@code task.shutdown.graceful.timeout.ms} (a broker or store gone under it) and may start it again on the same worker
 * at once, while the abandoned instance still holds its series under the same names ({@link PluginMetrics#addMetric}
 * refuses a name that exists, and a plugin may only remove what it registered itself). The new instance then goes
 * without that series, with one warning per series, until its next registration of it after the old one let go (the
 * partition's next open, or the task's next start).
 *
 * <p>Only kafka-clients types: the Connect context is reached through the accessor the caller passes.
 */
public final class PluginMetricsRegistry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PluginMetricsRegistry.class);
    private static final AtomicBoolean WARNED_NO_PLUGIN_METRICS = new AtomicBoolean();

    private final PluginMetrics metrics;
    private final String mirror;
    /** The tag {@code destination} of every series, for one destination of several (a tee); null otherwise. */
    private final String destination;
    /** Registered series by partition; the key null holds the series of the task or connector as a whole. */
    private final Map<TopicPartition, Map<String, MetricName>> names = new HashMap<>();
    /** The series an earlier instance of this task still held when this one registered them (each warned once). */
    private final Set<String> heldElsewhere = new HashSet<>();

    private PluginMetricsRegistry(PluginMetrics metrics, String mirror, String destination) {
        this.metrics = metrics;
        this.mirror = mirror;
        this.destination = destination;
    }

    /**
     * The registry of one task or connector of mirror {@code mirror}.
     *
     * @param accessor the context's plugin metrics, as a lambda ({@code () -> context.pluginMetrics()}), never a method
     *     reference: on connect-api older than 4.1 the method is missing, and a method reference to it fails where it is
     *     written, whereas the lambda's call fails here (NoSuchMethodError, or AbstractMethodError for a context compiled
     *     against the old API), where it is caught
     */
    public static PluginMetricsRegistry open(Supplier<PluginMetrics> accessor, String mirror) {
        return open(accessor, mirror, null);
    }

    /**
     * The registry of one destination of a task that writes several (a tee): every series carries the tag
     * {@code destination} last; {@code destination} null is {@link #open(Supplier, String)}.
     */
    public static PluginMetricsRegistry open(Supplier<PluginMetrics> accessor, String mirror, String destination) {
        PluginMetrics metrics;
        try {
            metrics = accessor.get();
        } catch (LinkageError | UnsupportedOperationException e) {
            metrics = null;
            if (WARNED_NO_PLUGIN_METRICS.compareAndSet(false, true)) {
                log.warn("this Connect runtime has no plugin metrics (Kafka < 4.1, KIP-877): mirror-v3 connectors and tasks on this"
                        + " worker export no metrics; run the worker on Kafka 4.1 or later to get them ({})", e.toString());
            }
        }
        return new PluginMetricsRegistry(metrics, mirror, destination);
    }

    /** Whether the worker had no plugin metrics and this class loader warned about it. */
    static boolean warnedNoPluginMetrics() {
        return WARNED_NO_PLUGIN_METRICS.get();
    }

    /** False on a runtime without plugin metrics: the gauges are accepted and ignored. */
    public boolean enabled() {
        return metrics != null;
    }

    /** A series of the task or connector as a whole (tag {@code mirror}); a second registration of it is ignored. */
    public void gauge(String name, String doc, LongSupplier value) {
        register(null, name, Map.of(), doc, value);
    }

    /**
     * A series of the task or connector with tags of its own after {@code mirror}, in the order given (e.g. {@code topic},
     * {@code operation}, {@code outcome} of the store request counts), until the task stops; a second registration of it is
     * ignored.
     */
    public void gauge(String name, String doc, LinkedHashMap<String, String> tags, LongSupplier value) {
        register(null, name, tags, doc, value);
    }

    /**
     * A series of one partition (tags {@code mirror}, {@code topic}, {@code partition}) until {@link #removePartition};
     * a second registration of it is ignored.
     */
    public void gauge(TopicPartition tp, String name, String doc, LongSupplier value) {
        register(tp, name, Map.of(), doc, value);
    }

    /** Removes a closed partition's series, so that a partition the task no longer owns shows no stale value. */
    public synchronized void removePartition(TopicPartition tp) {
        Map<String, MetricName> removed = names.remove(tp);
        if (removed != null) {
            removed.values().forEach(metrics::removeMetric);
        }
    }

    /** Removes one series of a partition, the others stay. */
    public synchronized void remove(TopicPartition tp, String name) {
        Map<String, MetricName> scope = names.get(tp);
        MetricName mn = scope == null ? null : scope.remove(name);
        if (mn != null) {
            metrics.removeMetric(mn);
        }
    }

    /** Removes every series registered here (the task or connector stops). */
    @Override
    public synchronized void close() {
        names.values().forEach(scope -> scope.values().forEach(metrics::removeMetric));
        names.clear();
    }

    private synchronized void register(TopicPartition tp, String name, Map<String, String> extraTags, String doc, LongSupplier value) {
        if (metrics == null) {
            return;
        }
        Map<String, MetricName> scope = names.computeIfAbsent(tp, k -> new LinkedHashMap<>());
        String key = extraTags.isEmpty() ? name : name + extraTags;
        if (scope.containsKey(key)) {
            return;
        }
        LinkedHashMap<String, String> tags = tags(tp, extraTags);
        MetricName mn = metrics.metricName(name, doc, tags);
        try {
            metrics.addMetric(mn, (Gauge<Long>) (config, now) -> value.getAsLong());
        } catch (IllegalArgumentException held) {
            String series = tp == null ? key : name + "{topic=" + tp.topic() + ", partition=" + tp.partition() + "}";
            if (heldElsewhere.add(series)) {
                log.warn("metric {} of mirror {} is still registered by an earlier instance of this task on this worker (its"
                        + " stop outlived task.shutdown.graceful.timeout.ms): this instance goes without it until it registers"
                        + " it again (the partition's next open or the task's next start)", series, mirror);
            }
            return;
        }
        scope.put(key, mn);
    }

    /** The series held by an earlier instance when this one registered them (see the class comment). */
    synchronized Set<String> heldElsewhere() {
        return Set.copyOf(heldElsewhere);
    }

    /** mirror, the partition's topic and partition, the series' own tags, and destination last (one rule shape per series). */
    private LinkedHashMap<String, String> tags(TopicPartition tp, Map<String, String> extraTags) {
        LinkedHashMap<String, String> tags = new LinkedHashMap<>();
        tags.put("mirror", mirror);
        if (tp != null) {
            tags.put("topic", tp.topic());
            tags.put("partition", Integer.toString(tp.partition()));
        }
        tags.putAll(extraTags);
        if (destination != null) {
            tags.put("destination", destination);
        }
        return tags;
    }
}
