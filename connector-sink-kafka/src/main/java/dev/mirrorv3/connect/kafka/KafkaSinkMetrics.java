package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.metrics.PluginMetricsRegistry;
import dev.mirrorv3.kafka.metrics.TaskMetrics;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * The Kafka sink's series, named as the blob sink's so that {@code config/jmx-exporter.yaml} maps them to the same
 * {@code mirror_v3_*} series: per partition the next offset durable in the destination, records and payload bytes
 * acknowledged, the source lag (source high watermark, read at open and on each heartbeat, minus the durable offset); per
 * task the transient failures retried and the partitions paused meanwhile. {@link PluginMetricsRegistry} registers them
 * (tags, the fallback on a worker without plugin metrics, removal when a partition closes or the task stops).
 */
final class KafkaSinkMetrics extends TaskMetrics {

    KafkaSinkMetrics(SinkTaskContext context, String mirror, IntSupplier pausedForRetry) {
        super(PluginMetricsRegistry.open(() -> context.pluginMetrics(), mirror), "destination or source cluster");
        pausedForRetry("Partitions paused while the task retries positioning them or recovers from a transient"
                + " failure (destination or source cluster unavailable); 0 when every partition flows", pausedForRetry);
    }

    /** Registers a partition's gauges, read from the task's own counters (those of an earlier open are replaced). */
    void opened(TopicPartition tp, LongSupplier verified, LongSupplier records, LongSupplier bytes, LongSupplier sourceHwm) {
        metrics.removePartition(tp);
        metrics.gauge(tp, OFFSET_VERIFIED, "Next offset acknowledged by the destination (its high watermark as this task knows it)",
                verified);
        metrics.gauge(tp, RECORDS_TOTAL, "Records acknowledged by the destination", records);
        metrics.gauge(tp, BYTES_TOTAL, "Key, value and header bytes of the records acknowledged by the destination", bytes);
        metrics.gauge(tp, SOURCE_LAG, "Source high watermark (read at open and every heartbeat) minus the next durable offset",
                () -> Math.max(0, sourceHwm.getAsLong() - verified.getAsLong()));
    }

    void closed(TopicPartition tp) {
        metrics.removePartition(tp);
    }
}
