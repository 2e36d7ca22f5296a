package dev.mirrorv3.kafka.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.junit.jupiter.api.Test;

/** Registration, tags and removal on Kafka's own plugin metrics, and a worker without them. */
class PluginMetricsRegistryTest {
    private final Metrics kafkaMetrics = new Metrics();
    private final PluginMetricsImpl task = new PluginMetricsImpl(kafkaMetrics, Map.of("connector", "dr", "task", "1"));

    /** Each series of Connect's tags plus ours, as "name{tags}" to its value. */
    private Map<String, Object> series() {
        Map<String, Object> out = new TreeMap<>();
        for (Map.Entry<MetricName, KafkaMetric> e : kafkaMetrics.metrics().entrySet()) {
            if (e.getKey().tags().containsKey("mirror")) {
                out.put(e.getKey().name() + new TreeMap<>(e.getKey().tags()), e.getValue().metricValue());
            }
        }
        return out;
    }

    @Test
    void theSeriesCarryTheMirrorAndPartitionTagsAndGoWithTheirPartitionAndTheRegistry() {
        AtomicLong restarts = new AtomicLong(2);
        TopicPartition p0 = new TopicPartition("orders", 0);
        TopicPartition p1 = new TopicPartition("orders", 1);
        try (PluginMetricsRegistry metrics = PluginMetricsRegistry.open(() -> task, "dr")) {
            assertThat(metrics.enabled()).isTrue();
            metrics.gauge("mirror-restarts-total", "doc", restarts::get);
            metrics.gauge(p0, "destination-records-total", "doc", () -> 10);
            metrics.gauge(p1, "destination-records-total", "doc", () -> 11);
            restarts.incrementAndGet();
            assertThat(series()).containsOnly(
                    Map.entry("mirror-restarts-total{connector=dr, mirror=dr, task=1}", 3L),
                    Map.entry("destination-records-total{connector=dr, mirror=dr, partition=0, task=1, topic=orders}", 10L),
                    Map.entry("destination-records-total{connector=dr, mirror=dr, partition=1, task=1, topic=orders}", 11L));

            metrics.gauge(p0, "destination-records-total", "doc", () -> 99);
            assertThat(series()).as("a second registration keeps the first")
                    .containsEntry("destination-records-total{connector=dr, mirror=dr, partition=0, task=1, topic=orders}", 10L);

            metrics.removePartition(p0);
            assertThat(series()).containsOnlyKeys("mirror-restarts-total{connector=dr, mirror=dr, task=1}",
                    "destination-records-total{connector=dr, mirror=dr, partition=1, task=1, topic=orders}");
            metrics.gauge(p0, "destination-records-total", "doc", () -> 20);
            assertThat(series()).as("a reopened partition registers anew")
                    .containsEntry("destination-records-total{connector=dr, mirror=dr, partition=0, task=1, topic=orders}", 20L);
        }
        assertThat(series()).as("closed: nothing left").isEmpty();
    }

    @Test
    void aConnectorsSeriesHaveNoTaskTag() {
        PluginMetricsImpl connector = new PluginMetricsImpl(kafkaMetrics, Map.of("connector", "dr"));
        try (PluginMetricsRegistry metrics = PluginMetricsRegistry.open(() -> connector, "dr")) {
            metrics.gauge("groups-synced", "doc", () -> 4);
            assertThat(series()).containsOnly(Map.entry("groups-synced{connector=dr, mirror=dr}", 4L));
        }
        assertThat(series()).isEmpty();
    }

    /**
     * A worker abandons a task whose stop outlives {@code task.shutdown.graceful.timeout.ms} and may start it again at
     * once: the abandoned instance still holds its series under the same names in the worker's registry.
     */
    @Test
    void aNewInstanceGoesOnWithoutTheSeriesAnAbandonedOneStillHoldsAndTakesThemAtItsNextRegistration() {
        TopicPartition p0 = new TopicPartition("orders", 0);
        PluginMetricsRegistry abandoned = PluginMetricsRegistry.open(() -> task, "dr");
        abandoned.gauge("mirror-restarts-total", "doc", () -> 1);
        abandoned.gauge(p0, "destination-records-total", "doc", () -> 10);

        PluginMetricsImpl sameTask = new PluginMetricsImpl(kafkaMetrics, Map.of("connector", "dr", "task", "1"));
        try (PluginMetricsRegistry restarted = PluginMetricsRegistry.open(() -> sameTask, "dr")) {
            restarted.gauge("mirror-restarts-total", "doc", () -> 2);
            restarted.gauge(p0, "destination-records-total", "doc", () -> 20);
            restarted.gauge(p0, "destination-bytes-total", "doc", () -> 200);
            assertThat(series()).as("the abandoned instance's values until it lets go; the new series is there").containsOnly(
                    Map.entry("mirror-restarts-total{connector=dr, mirror=dr, task=1}", 1L),
                    Map.entry("destination-records-total{connector=dr, mirror=dr, partition=0, task=1, topic=orders}", 10L),
                    Map.entry("destination-bytes-total{connector=dr, mirror=dr, partition=0, task=1, topic=orders}", 200L));
            assertThat(restarted.heldElsewhere()).containsExactlyInAnyOrder("mirror-restarts-total",
                    "destination-records-total{topic=orders, partition=0}");

            abandoned.close(); // its stop finally ends: only its own series go
            assertThat(series()).containsOnlyKeys(
                    "destination-bytes-total{connector=dr, mirror=dr, partition=0, task=1, topic=orders}");
            restarted.gauge(p0, "destination-records-total", "doc", () -> 30); // the partition's next open
            assertThat(series()).containsEntry(
                    "destination-records-total{connector=dr, mirror=dr, partition=0, task=1, topic=orders}", 30L);
            restarted.removePartition(p0);
        }
        assertThat(series()).as("closed: nothing left, and nothing of another instance was touched").isEmpty();
    }

    @Test
    void aWorkerWithoutPluginMetricsGetsNoSeriesAndNoFailure() {
        for (Throwable missing : new Throwable[] {new NoSuchMethodError("SinkTaskContext.pluginMetrics()"),
                new AbstractMethodError("pluginMetrics"), new UnsupportedOperationException("pluginMetrics")}) {
            try (PluginMetricsRegistry metrics = PluginMetricsRegistry.open(() -> {
                if (missing instanceof Error error) {
                    throw error;
                }
                throw (RuntimeException) missing;
            }, "dr")) {
                assertThat(metrics.enabled()).isFalse();
                TopicPartition tp = new TopicPartition("orders", 0);
                metrics.gauge("mirror-restarts-total", "doc", () -> 1);
                metrics.gauge(tp, "destination-records-total", "doc", () -> 1);
                metrics.removePartition(tp);
            }
        }
        assertThat(series()).isEmpty();
        assertThat(PluginMetricsRegistry.warnedNoPluginMetrics()).isTrue();
    }
}
