package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.kafka.LogOffsets;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.Test;

/**
 * The lag gauge with Kafka's own plugin metrics and a mock admin client: it appears with the first measurement,
 * follows the verified offset between measurements, and goes with the partition.
 */
class SourceLagRefresherTest {
    private final TopicPartition tp = new TopicPartition("orders", 0);

    @Test
    void lagAppearsWithTheFirstMeasurementFollowsCommitsAndGoesOnClose() throws Exception {
        try (Metrics registry = new Metrics();
             PluginMetricsImpl plugin = new PluginMetricsImpl(registry, Map.of("connector", "c", "task", "0"));
             MockAdminClient admin = MockAdminClient.create().numBrokers(1).build()) {
            Node node = admin.brokers().get(0);
            admin.addTopic(false, "orders", List.of(new TopicPartitionInfo(0, node, List.of(node), List.of(node))), Map.of());
            admin.updateEndOffsets(Map.of(tp, 25L));
            SinkTaskContext context = (SinkTaskContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {SinkTaskContext.class}, (proxy, method, args) -> plugin);
            BlobSinkMetrics metrics = new BlobSinkMetrics(context, "c", () -> 0, new BlobSinkMetrics.Cadence(60_000, 60_000, 0, 0));
            SourceLagRefresher refresher = new SourceLagRefresher(new LogOffsets(admin, Duration.ofSeconds(5)), metrics, "c", 3_600_000);
            try {
                metrics.opened(tp, 10, 1_000);
                assertThat(value(registry, "destination-offset-verified")).isEqualTo(10L);
                assertThat(value(registry, "source-lag-offsets")).as("no lag before it was measured").isNull();

                refresher.refresh();
                assertThat(value(registry, "source-lag-offsets")).isEqualTo(15L);
                metrics.flushed(tp, 20, 10, 1234, 5_000);
                assertThat(value(registry, "source-lag-offsets")).as("follows the verified offset").isEqualTo(5L);
                assertThat(value(registry, "destination-last-flush-timestamp-seconds")).isEqualTo(5L);

                metrics.closed(tp);
                assertThat(partitionMetrics(registry)).as("partition metrics after close").isEmpty();
                refresher.refresh(); // nothing open: no query, nothing registered again
                metrics.highWatermark(tp, 30); // a late measurement of a closed partition is ignored
                assertThat(partitionMetrics(registry)).isEmpty();
            } finally {
                refresher.close();
                metrics.close();
            }
            assertThat(registry.metrics().keySet()).noneMatch(n -> "c".equals(n.tags().get("mirror")));
        }
    }

    private static Object value(Metrics registry, String name) {
        for (Map.Entry<MetricName, KafkaMetric> e : registry.metrics().entrySet()) {
            if (e.getKey().name().equals(name) && "0".equals(e.getKey().tags().get("partition"))) {
                return e.getValue().metricValue();
            }
        }
        return null;
    }

    private static List<MetricName> partitionMetrics(Metrics registry) {
        return registry.metrics().keySet().stream().filter(n -> n.tags().containsKey("partition")).toList();
    }
}
