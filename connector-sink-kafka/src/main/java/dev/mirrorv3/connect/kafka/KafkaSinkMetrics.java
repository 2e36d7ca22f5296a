package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.PluginGauges;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka sink's metrics through Connect's plugin metrics (Kafka >= 4.1), named as the blob sink's so that
 * {@code config/jmx-exporter.yaml} maps them to mirror-v3's {@code mirror_v3_*} series: per partition the next offset
 * durable in the destination, records and payload bytes acknowledged, the source lag (source high watermark, read at
 * open and on each heartbeat, minus the durable offset); per task the transient failures retried and the partitions paused
 * meanwhile.
 */
final class KafkaSinkMetrics implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(KafkaSinkMetrics.class);

    static final String OFFSET_VERIFIED = "destination-offset-verified";
    static final String RECORDS_TOTAL = "destination-records-total";
    static final String BYTES_TOTAL = "destination-bytes-total";
    static final String SOURCE_LAG = "source-lag-offsets";
    static final String RESTARTS_TOTAL = "mirror-restarts-total";
    static final String PAUSED_FOR_RETRY = "partitions-paused-for-retry";

    private final PluginMetrics metrics;
    private final String mirror;
    private final AtomicLong restarts = new AtomicLong();
    private final Map<TopicPartition, List<MetricName>> partitions = new ConcurrentHashMap<>();
    private final List<MetricName> taskMetricNames;

    KafkaSinkMetrics(SinkTaskContext context, String mirror, IntSupplier pausedForRetry) {
        this.mirror = mirror;
        this.metrics = pluginMetrics(context);
        LinkedHashMap<String, String> tags = new LinkedHashMap<>();
        tags.put("mirror", mirror);
        taskMetricNames = metrics == null ? List.of() : List.of(
                register(RESTARTS_TOTAL, "Transient failures retried (destination or source cluster unavailable)", tags, restarts::get),
                register(PAUSED_FOR_RETRY, "Partitions paused while the task retries positioning them or recovers from a transient"
                        + " failure (destination or source cluster unavailable); 0 when every partition flows", tags, pausedForRetry::getAsInt));
    }

    private static PluginMetrics pluginMetrics(SinkTaskContext context) {
        try {
            return context.pluginMetrics();
        } catch (LinkageError | UnsupportedOperationException e) {
            log.warn("this Connect runtime has no plugin metrics (Kafka < 4.1): the Kafka sink exports no metrics ({})", e.toString());
            return null;
        }
    }

    /**
     * The connector's plugin metrics, for its group sync ({@code GroupSyncMetrics}: groups synced and skipped, offsets
     * clamped, commits, the last sync time), or null on a runtime without them.
     */
    static PluginMetrics pluginMetrics(org.apache.kafka.connect.connector.ConnectorContext context) {
        try {
            return context.pluginMetrics();
        } catch (LinkageError | UnsupportedOperationException e) {
            log.warn("this Connect runtime has no plugin metrics (Kafka < 4.1): the group sync exports no metrics ({})", e.toString());
            return null;
        }
    }

    void restart() {
        restarts.incrementAndGet();
    }

    /** Registers a partition's gauges, read from the task's own counters. */
    void opened(TopicPartition tp, LongSupplier verified, LongSupplier records, LongSupplier bytes, LongSupplier sourceHwm) {
        if (metrics == null) {
            return;
        }
        closed(tp);
        LinkedHashMap<String, String> tags = new LinkedHashMap<>();
        tags.put("mirror", mirror);
        tags.put("topic", tp.topic());
        tags.put("partition", Integer.toString(tp.partition()));
        partitions.put(tp, List.of(
                register(OFFSET_VERIFIED, "Next offset acknowledged by the destination (its high watermark as this task knows it)", tags, verified),
                register(RECORDS_TOTAL, "Records acknowledged by the destination", tags, records),
                register(BYTES_TOTAL, "Key, value and header bytes of the records acknowledged by the destination", tags, bytes),
                register(SOURCE_LAG, "Source high watermark (read at open and every heartbeat) minus the next durable offset", tags,
                        () -> Math.max(0, sourceHwm.getAsLong() - verified.getAsLong()))));
    }

    void closed(TopicPartition tp) {
        List<MetricName> names = partitions.remove(tp);
        if (names != null && metrics != null) {
            names.forEach(n -> PluginGauges.remove(metrics, n));
        }
    }

    @Override
    public void close() {
        List.copyOf(partitions.keySet()).forEach(this::closed);
        if (metrics != null) {
            taskMetricNames.forEach(n -> PluginGauges.remove(metrics, n));
        }
    }

    private MetricName register(String name, String doc, LinkedHashMap<String, String> tags, LongSupplier value) {
        MetricName mn = metrics.metricName(name, doc, tags);
        PluginGauges.add(metrics, mn, value);
        return mn;
    }
}
