package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.PluginMetricsContexts;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.junit.jupiter.api.Test;

/** The chain source's series on Kafka's own plugin metrics: their values through a follow, and their removal. */
class ChainSourceMetricsTest {
    private final Metrics registry = new Metrics();

    private SourceTaskContext context(boolean oldRuntime) {
        return PluginMetricsContexts.of(SourceTaskContext.class, registry, "standby", oldRuntime);
    }

    /** "name" (per task) or "name/partition" to the value of every series the registry holds for mirror "standby". */
    private Map<String, Long> series() {
        Map<String, Long> out = new TreeMap<>();
        PluginMetricsContexts.series(registry, "standby").forEach((key, metric) -> {
            assertThat(metric.metricName().tags()).containsEntry("connector", "standby").containsEntry("task", "0");
            out.put(key, (Long) metric.metricValue());
        });
        return out;
    }

    @Test
    void theLagCountsFromTheBackupsEndAtTheLastListingToWhatTheTargetAcknowledged() {
        try (ChainSourceMetrics metrics = new ChainSourceMetrics(context(false), "standby", 30_000)) {
            assertThat(metrics.enabled()).isTrue();
            ChainSourceMetrics.Partition p = metrics.partition("orders", 3);
            assertThat(series()).as("no lag before the first position: nobody measured it").containsOnlyKeys(
                    "mirror-restarts-total", "follow-records-total/orders-3", "follow-bytes-total/orders-3",
                    "follow-objects-total/orders-3", "follow-last-poll-timestamp-seconds/orders-3", "follow-cut-reached/orders-3",
                    "follow-poll-interval-ms/orders-3");
            assertThat(series()).as("poll.interval.ms as configured").containsEntry("follow-poll-interval-ms/orders-3", 30_000L);

            p.positioned(0, null); // an empty target
            p.polled(30, OptionalLong.of(100_000), 1, 1_700_000_000_500L);
            assertThat(series()).containsEntry("follow-lag-offsets/orders-3", 30L)
                    .as("no record time known yet").containsEntry("follow-lag-seconds/orders-3", 0L)
                    .containsEntry("follow-last-poll-timestamp-seconds/orders-3", 1_700_000_000L)
                    .containsEntry("follow-objects-total/orders-3", 1L);
            p.handedOut(40_000L);
            assertThat(series()).as("from the backup's oldest record").containsEntry("follow-lag-seconds/orders-3", 60L);

            for (long o = 0; o < 10; o++) {
                p.restored(o, 40_000 + o * 1000, 7);
            }
            assertThat(series()).containsEntry("follow-lag-offsets/orders-3", 20L).containsEntry("follow-lag-seconds/orders-3", 51L)
                    .containsEntry("follow-records-total/orders-3", 10L).containsEntry("follow-bytes-total/orders-3", 70L);
            p.restored(29, 100_000L, 3);
            assertThat(series()).as("caught up").containsEntry("follow-lag-offsets/orders-3", 0L)
                    .containsEntry("follow-lag-seconds/orders-3", 0L).containsEntry("follow-records-total/orders-3", 11L)
                    .containsEntry("follow-bytes-total/orders-3", 73L);

            p.polled(35, OptionalLong.of(130_000), 3, 1_700_000_009_000L);
            assertThat(series()).as("a new object listed").containsEntry("follow-lag-offsets/orders-3", 5L)
                    .containsEntry("follow-lag-seconds/orders-3", 30L).containsEntry("follow-objects-total/orders-3", 3L);
            p.polled(35, OptionalLong.empty(), 3, 1_700_000_010_000L);
            assertThat(series()).as("a newest record without a timestamp keeps the last known")
                    .containsEntry("follow-lag-seconds/orders-3", 30L);

            p.positioned(32, 120_000L); // after a transient failure the target's high watermark is 32
            assertThat(series()).containsEntry("follow-lag-offsets/orders-3", 3L).containsEntry("follow-lag-seconds/orders-3", 10L);
            p.restored(31, 110_000L, 1);
            assertThat(series()).as("an acknowledgement below the position moves nothing back")
                    .containsEntry("follow-lag-offsets/orders-3", 3L).containsEntry("follow-lag-seconds/orders-3", 10L);

            metrics.restart();
            metrics.restart();
            assertThat(series()).containsEntry("mirror-restarts-total", 2L);
            metrics.partition("orders", 4).positioned(0, null);
            assertThat(series()).containsEntry("follow-lag-offsets/orders-4", 0L).hasSize(1 + 2 * 8);
        }
        assertThat(series()).as("removed when the task stops").isEmpty();
    }

    @Test
    void anOldRuntimeMeansNoMetricsAndNoFailure() {
        try (ChainSourceMetrics metrics = new ChainSourceMetrics(context(true), "standby", 30_000)) {
            assertThat(metrics.enabled()).isFalse();
            ChainSourceMetrics.Partition p = metrics.partition("orders", 0);
            p.positioned(0, null);
            p.polled(10, OptionalLong.of(5), 1, 1_000);
            p.handedOut(1L);
            p.restored(9, 5L, 10);
            metrics.restart();
            assertThat(p.lagOffsets()).isZero();
        }
        assertThat(series()).isEmpty();
    }
}
