package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.metrics.PluginMetricsRegistry;
import java.util.concurrent.atomic.AtomicLong;
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
final class KafkaSinkMetrics implements AutoCloseable {
    static final String OFFSET_VERIFIED = "destination-offset-verified";
    static final String RECORDS_TOTAL = "destination-records-total";
    static final String BYTES_TOTAL = "destination-bytes-total";
    static final String SOURCE_LAG = "source-lag-offsets";
    static final String RESTARTS_TOTAL = "mirror-restarts-total";
    static final String PAUSED_FOR_RETRY = "partitions-paused-for-retry";

    private final PluginMetricsRegistry metrics;
    private final AtomicLong restarts = new AtomicLong();

    KafkaSinkMetrics(SinkTaskContext context, String mirror, IntSupplier pausedForRetry) {
        metrics = PluginMetricsRegistry.open(() -> context.pluginMetrics(), mirror);
        metrics.gauge(RESTARTS_TOTAL, "Transient failures retried (destination or source cluster unavailable)", restarts::get);
        metrics.gauge(PAUSED_FOR_RETRY, "Partitions paused while the task retries positioning them or recovers from a transient"
                + " failure (destination or source cluster unavailable); 0 when every partition flows", pausedForRetry::getAsInt);
    }

    boolean enabled() {
        return metrics.enabled();
    }

    void restart() {
        restarts.incrementAndGet();
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

    @Override
    public void close() {
        metrics.close();
    }
}
