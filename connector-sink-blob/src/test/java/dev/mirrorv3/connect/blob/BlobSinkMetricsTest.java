package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.Test;

/** The task's cadence as series on Kafka's own plugin metrics; a runtime older than Kafka 4.1 has no plugin metrics. */
class BlobSinkMetricsTest {
    private static final BlobSinkMetrics.Cadence DEFAULTS = new BlobSinkMetrics.Cadence(60_000, 60_000, 60_000, 60_000);

    @Test
    void anOldRuntimeMeansNoMetricsAndNoFailure() {
        SinkTaskContext old = (SinkTaskContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SinkTaskContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("pluginMetrics")) {
                        throw new NoSuchMethodError("org.apache.kafka.connect.sink.SinkTaskContext.pluginMetrics()");
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        TopicPartition tp = new TopicPartition("t", 0);
        try (BlobSinkMetrics metrics = new BlobSinkMetrics(old, "m", () -> 0, DEFAULTS)) {
            assertThat(metrics.enabled()).isFalse();
            metrics.opened(tp, 5, 1_000);
            metrics.flushed(tp, 10, 5, 100, 1_000);
            metrics.highWatermark(tp, 12);
            metrics.restart();
            metrics.bufferedBytes(3);
            assertThat(metrics.openPartitions()).containsExactly(tp);
            metrics.closed(tp);
            assertThat(metrics.openPartitions()).isEmpty();
        }
        try (BlobSinkMetrics second = new BlobSinkMetrics(old, "m2", () -> 0, DEFAULTS)) {
            assertThat(second.enabled()).isFalse(); // and no second warning (one per worker)
        }
    }

    /** The alerts compare a partition's last flush with its own flush.max.time.ms: compaction=log's hour when unset. */
    @Test
    void theConfiguredCadenceIsExportedPerPartitionAndPerTask() throws Exception {
        Map<String, Object> snapshots = cadenceSeries(Map.of("compaction", "log", "metadata.interval.ms", "0"));
        assertThat(snapshots).containsEntry("destination-flush-max-time-ms/orders-0", 3_600_000L)
                .containsEntry("chain-check-interval-ms", 60_000L).containsEntry("metadata-interval-ms", 0L)
                .containsEntry("metadata-groups-interval-ms", 60_000L)
                .as("the last flush counts from the open until the first flush")
                .containsEntry("destination-last-flush-timestamp-seconds/orders-0", 1_700_000_000L);

        Map<String, Object> set = cadenceSeries(Map.of("compaction", "log", "flush.max.time.ms", "900000",
                "chain.check.interval.ms", "300000", "metadata.interval.ms", "120000", "groups.interval.ms", "30000"));
        assertThat(set).containsEntry("destination-flush-max-time-ms/orders-0", 900_000L)
                .containsEntry("chain-check-interval-ms", 300_000L).containsEntry("metadata-interval-ms", 120_000L)
                .containsEntry("metadata-groups-interval-ms", 30_000L);

        assertThat(cadenceSeries(Map.of())).as("a plain backup: the setting's default")
                .containsEntry("destination-flush-max-time-ms/orders-0", 60_000L);
    }

    /** The series of mirror "orders-backup" after its partition orders-0 opened: "name" (per task) or "name/topic-partition". */
    private Map<String, Object> cadenceSeries(Map<String, String> settings) throws Exception {
        Map<String, String> props = new HashMap<>(Map.of("name", "orders-backup", "topics", "orders",
                "filesystem.root", Path.of("target", "cadence").toString(), "source.admin.bootstrap.servers", "localhost:9092"));
        props.putAll(settings);
        BlobSinkConfig config = new BlobSinkConfig(props);
        try (Metrics registry = new Metrics();
             PluginMetricsImpl plugin = new PluginMetricsImpl(registry, Map.of("connector", "orders-backup", "task", "0"))) {
            SinkTaskContext context = (SinkTaskContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {SinkTaskContext.class}, (proxy, method, args) -> plugin);
            try (BlobSinkMetrics metrics = new BlobSinkMetrics(context, "orders-backup", () -> 0, BlobSinkMetrics.Cadence.of(config))) {
                metrics.opened(new TopicPartition("orders", 0), 0, 1_700_000_000_123L);
                Map<String, Object> out = new TreeMap<>();
                for (Map.Entry<MetricName, KafkaMetric> e : registry.metrics().entrySet()) {
                    Map<String, String> tags = e.getKey().tags();
                    if ("orders-backup".equals(tags.get("mirror"))) {
                        out.put(e.getKey().name() + (tags.containsKey("partition") ? "/" + tags.get("topic") + "-"
                                + tags.get("partition") : ""), e.getValue().metricValue());
                    }
                }
                return out;
            }
        }
    }
}
