package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.PluginMetricsContexts;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.Test;

/** The Kafka sink's series on Kafka's own plugin metrics, and a worker without them. */
class KafkaSinkMetricsTest {
    private final Metrics registry = new Metrics();

    private SinkTaskContext context(boolean oldRuntime) {
        return PluginMetricsContexts.of(SinkTaskContext.class, registry, "dr", oldRuntime);
    }

    /** "name" (per task) or "name/topic-partition" to the value of every series of mirror "dr". */
    private Map<String, Object> series() {
        return PluginMetricsContexts.values(registry, "dr");
    }

    @Test
    void aPartitionsSeriesFollowTheTasksCountersAndGoWhenItCloses() {
        TopicPartition tp = new TopicPartition("orders", 2);
        try (KafkaSinkMetrics metrics = new KafkaSinkMetrics(context(false), "dr", () -> 1)) {
            metrics.restart();
            metrics.opened(tp, () -> 10, () -> 4, () -> 400, () -> 25);
            assertThat(series()).containsOnly(Map.entry("mirror-restarts-total", 1L), Map.entry("partitions-paused-for-retry", 1L),
                    Map.entry("destination-offset-verified/orders-2", 10L), Map.entry("destination-records-total/orders-2", 4L),
                    Map.entry("destination-bytes-total/orders-2", 400L), Map.entry("source-lag-offsets/orders-2", 15L));

            metrics.opened(tp, () -> 30, () -> 0, () -> 0, () -> 20); // reopened: the new counters replace the old
            assertThat(series()).containsEntry("destination-offset-verified/orders-2", 30L)
                    .as("a destination ahead of the source shows no negative lag").containsEntry("source-lag-offsets/orders-2", 0L);

            metrics.closed(tp);
            assertThat(series()).containsOnlyKeys("mirror-restarts-total", "partitions-paused-for-retry");
        }
        assertThat(series()).as("the task stopped: nothing left").isEmpty();
    }

    @Test
    void tasksOnAWorkerWithoutPluginMetricsWorkOnAndItIsWarnedAtMostOnce() {
        LogCapture logs = LogCapture.attach();
        try {
            for (int task = 0; task < 3; task++) {
                try (KafkaSinkMetrics metrics = new KafkaSinkMetrics(context(true), "dr", () -> 0)) {
                    TopicPartition tp = new TopicPartition("orders", task);
                    metrics.opened(tp, () -> 1, () -> 1, () -> 1, () -> 1);
                    metrics.restart();
                    metrics.closed(tp);
                }
            }
        } finally {
            logs.close();
        }
        assertThat(series()).isEmpty();
        // At most: an earlier test class of this JVM may have warned already (once per worker, not once per task).
        assertThat(logs.lines().stream().filter(l -> l.contains("no plugin metrics"))).hasSizeLessThanOrEqualTo(1);
    }

    /**
     * A task whose {@code stop()} outlives {@code task.shutdown.graceful.timeout.ms} (a source broker killed under it) is
     * abandoned by the worker, which may start the same task again at once: both instances register their metrics under
     * the same names in the worker's registry. The new instance must start (and its gauges must be the live ones once
     * it registers them again), not fail with "A metric named ... already exists"; it says so once per series.
     */
    @Test
    void aNewInstanceOfTheTaskStartsWhileTheAbandonedOneStillHoldsItsMetrics() {
        TopicPartition tp = new TopicPartition("t", 0);
        KafkaSinkMetrics abandoned = new KafkaSinkMetrics(context(false), "dr", () -> 7);
        abandoned.opened(tp, () -> 10, () -> 1, () -> 1, () -> 10);

        LogCapture logs = LogCapture.attach();
        KafkaSinkMetrics restarted;
        try {
            restarted = new KafkaSinkMetrics(context(false), "dr", () -> 0);
            restarted.opened(tp, () -> 20, () -> 2, () -> 2, () -> 20);
        } finally {
            logs.close();
        }
        assertThat(series()).as("the abandoned instance's until it lets go").containsEntry("destination-offset-verified/t-0", 10L)
                .containsEntry("partitions-paused-for-retry", 7L);
        assertThat(logs.lines().stream().filter(l -> l.contains("still registered by an earlier instance of this task")
                && l.contains("destination-offset-verified"))).hasSize(1);

        abandoned.close(); // its stop finally ends
        restarted.opened(tp, () -> 30, () -> 3, () -> 3, () -> 30); // the next open registers the live gauges
        assertThat(series()).containsEntry("destination-offset-verified/t-0", 30L);
        restarted.close();
        assertThat(series()).isEmpty();
    }
}
