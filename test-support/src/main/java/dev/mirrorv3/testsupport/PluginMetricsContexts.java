package dev.mirrorv3.testsupport;

import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;

/** Task contexts for unit tests of a connector's series on Kafka's plugin metrics (KIP-877), and what they registered. */
public final class PluginMetricsContexts {
    private PluginMetricsContexts() {
    }

    /**
     * A task context of {@code type} (Connect's SinkTaskContext or SourceTaskContext) that answers only
     * {@code pluginMetrics()}: connector {@code connector}'s task 0 in {@code registry}; with {@code oldRuntime} the call
     * fails as on a Connect runtime older than the method.
     */
    public static <T> T of(Class<T> type, Metrics registry, String connector, boolean oldRuntime) {
        PluginMetricsImpl plugin = new PluginMetricsImpl(registry, Map.of("connector", connector, "task", "0"));
        return type.cast(Proxy.newProxyInstance(PluginMetricsContexts.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    if (method.getName().equals("pluginMetrics")) {
                        if (oldRuntime) {
                            throw new NoSuchMethodError(type.getName() + ".pluginMetrics()");
                        }
                        return plugin;
                    }
                    throw new UnsupportedOperationException(method.getName());
                }));
    }

    /** The series of mirror {@code mirror} in {@code registry}: "name" (per task) or "name/topic-partition" to its metric. */
    public static Map<String, KafkaMetric> series(Metrics registry, String mirror) {
        Map<String, KafkaMetric> out = new TreeMap<>();
        for (Map.Entry<MetricName, KafkaMetric> e : registry.metrics().entrySet()) {
            Map<String, String> tags = e.getKey().tags();
            if (mirror.equals(tags.get("mirror"))) {
                String key = e.getKey().name() + (tags.containsKey("partition") ? "/" + tags.get("topic") + "-"
                        + tags.get("partition") : "");
                out.put(key, e.getValue());
            }
        }
        return out;
    }

    /** The values of {@link #series}: "name" (per task) or "name/topic-partition" to the metric's value now. */
    public static Map<String, Object> values(Metrics registry, String mirror) {
        Map<String, Object> out = new TreeMap<>();
        series(registry, mirror).forEach((key, metric) -> out.put(key, metric.metricValue()));
        return out;
    }
}
