package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.Test;

/**
 * A task whose stop outlives {@code task.shutdown.graceful.timeout.ms} (a source broker killed under it) is abandoned
 * by the worker, which may start the same task again at once: both instances register their metrics under the same
 * names in the worker's registry. The new instance must start (and its gauges must be the live ones), not fail with
 * "A metric named ... already exists".
 */
class KafkaSinkMetricsTest {
    private static SinkTaskContext context(PluginMetrics metrics) {
        return (SinkTaskContext) Proxy.newProxyInstance(KafkaSinkMetricsTest.class.getClassLoader(),
                new Class<?>[] {SinkTaskContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("pluginMetrics")) {
                        return metrics;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aNewInstanceOfTheTaskStartsWhileTheAbandonedOneStillHoldsItsMetrics() {
        Metrics registry = new Metrics(); // the worker's, shared by every instance of the task on it
        Map<String, String> taskTags = Map.of("connector", "m", "task", "0");
        TopicPartition tp = new TopicPartition("t", 0);
        KafkaSinkMetrics abandoned = new KafkaSinkMetrics(context(new PluginMetricsImpl(registry, taskTags)), "m", () -> 7);
        abandoned.opened(tp, () -> 10, () -> 1, () -> 1, () -> 10);

        KafkaSinkMetrics restarted = new KafkaSinkMetrics(context(new PluginMetricsImpl(registry, taskTags)), "m", () -> 0);
        restarted.opened(tp, () -> 20, () -> 2, () -> 2, () -> 20);

        abandoned.close(); // its stop finally ends
        restarted.opened(tp, () -> 30, () -> 3, () -> 3, () -> 30); // the next open registers the live gauges
        assertThat(value(registry, KafkaSinkMetrics.OFFSET_VERIFIED, Map.of("topic", "t", "partition", "0"))).isEqualTo(30L);
        restarted.close();
        assertThat(registry.metrics().keySet()).noneMatch(n -> n.group().equals("plugins"));
        registry.close();
    }

    private static Object value(Metrics registry, String name, Map<String, String> extra) {
        LinkedHashMap<String, String> tags = new LinkedHashMap<>(Map.of("connector", "m", "task", "0", "mirror", "m"));
        tags.putAll(extra);
        MetricName mn = registry.metricName(name, "plugins", "", tags);
        return registry.metric(mn).metricValue();
    }
}
