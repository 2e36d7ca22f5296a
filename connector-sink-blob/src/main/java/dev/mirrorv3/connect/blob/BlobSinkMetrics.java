package dev.mirrorv3.connect.blob;

import dev.mirrorv3.kafka.PluginGauges;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * The task's metrics through Connect's plugin metrics (KIP-877, Kafka >= 4.1): MBeans
 * {@code kafka.connect:type=plugins,connector=<name>,task=<id>,mirror=<name>[,topic=..,partition=..]}.
 * {@code config/jmx-exporter.yaml} turns them into mirror-v3's Prometheus names. On an older runtime there are
 * no metrics, with one warning per worker. Partition metrics are removed when the partition is closed.
 */
final class BlobSinkMetrics implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BlobSinkMetrics.class);
    private static final AtomicBoolean WARNED_NO_PLUGIN_METRICS = new AtomicBoolean();

    static final String BUFFERED_BYTES = "buffered-bytes";
    static final String OFFSET_VERIFIED = "destination-offset-verified";
    static final String RECORDS_TOTAL = "destination-records-total";
    static final String BYTES_TOTAL = "destination-bytes-total";
    static final String FLUSHES_TOTAL = "destination-flushes-total";
    static final String LAST_FLUSH_TS = "destination-last-flush-timestamp-seconds";
    static final String SOURCE_LAG = "source-lag-offsets";
    static final String RESTARTS_TOTAL = "mirror-restarts-total";
    static final String PAUSED_FOR_RETRY = "partitions-paused-for-retry";
    static final String SNAPSHOT_KEYS = "snapshot-keys";
    static final String SNAPSHOT_BYTES = "snapshot-bytes";
    static final String SNAPSHOT_DURATION_MS = "snapshot-duration-ms";
    static final String SNAPSHOT_TOMBSTONES_TOTAL = "snapshot-tombstones-applied-total";

    private final PluginMetrics metrics;
    private final String mirror;
    private final AtomicLong bufferedBytes = new AtomicLong();
    private final AtomicLong restarts = new AtomicLong();
    private final Map<TopicPartition, PartitionMetrics> partitions = new ConcurrentHashMap<>();
    private final List<MetricName> taskMetricNames;

    BlobSinkMetrics(SinkTaskContext context, String mirror, IntSupplier pausedForRetry) {
        this.mirror = mirror;
        this.metrics = pluginMetrics(context);
        LinkedHashMap<String, String> tags = new LinkedHashMap<>();
        tags.put("mirror", mirror);
        this.taskMetricNames = metrics == null ? List.of() : List.of(
                register(BUFFERED_BYTES, "Payload bytes buffered by the task over all partitions", tags, bufferedBytes),
                register(RESTARTS_TOTAL, "Transient failures retried (store or source cluster unavailable)", tags, restarts),
                register(PAUSED_FOR_RETRY, "Partitions paused while the task retries opening them (store or source cluster"
                        + " unavailable); 0 when every partition is positioned", tags, (LongSupplier) pausedForRetry::getAsInt));
    }

    /** The context's plugin metrics, or null on a runtime older than Kafka 4.1 (one warning per worker). */
    static PluginMetrics pluginMetrics(SinkTaskContext context) {
        try {
            return context.pluginMetrics();
        } catch (LinkageError | UnsupportedOperationException e) {
            // NoSuchMethodError (connect-api < 4.1) or AbstractMethodError (a context built against it).
            if (WARNED_NO_PLUGIN_METRICS.compareAndSet(false, true)) {
                log.warn("this Connect runtime has no plugin metrics (Kafka < 4.1): mirror-v3 tasks export no metrics ({})",
                        e.toString());
            }
            return null;
        }
    }

    boolean enabled() {
        return metrics != null;
    }

    void bufferedBytes(long bytes) {
        bufferedBytes.set(bytes);
    }

    void restart() {
        restarts.incrementAndGet();
    }

    void opened(TopicPartition tp, long verifiedOffset) {
        PartitionMetrics pm = partitions.computeIfAbsent(tp, this::registerPartition);
        pm.verified.set(verifiedOffset);
    }

    void flushed(TopicPartition tp, long verifiedOffset, int records, long bytes, long nowMs) {
        PartitionMetrics pm = partitions.computeIfAbsent(tp, this::registerPartition);
        pm.verified.set(verifiedOffset);
        pm.records.addAndGet(records);
        pm.bytes.addAndGet(bytes);
        pm.flushes.incrementAndGet();
        pm.lastFlushSeconds.set(nowMs / 1000);
    }

    /**
     * compaction=log: what the newest snapshot holds and what it cost. Registered with the partition's first snapshot, so a
     * chain never shows them.
     */
    synchronized void snapshot(TopicPartition tp, long keys, long bytes, long durationMs, long tombstones) {
        PartitionMetrics pm = partitions.computeIfAbsent(tp, this::registerPartition);
        if (metrics != null && pm.snapshotNames.isEmpty()) {
            LinkedHashMap<String, String> tags = partitionTags(tp);
            pm.snapshotNames = List.of(
                    register(SNAPSHOT_KEYS, "Live keys in the newest snapshot (compaction=log)", tags, pm.snapshotKeys),
                    register(SNAPSHOT_BYTES, "Object bytes of the newest snapshot (compaction=log)", tags, pm.snapshotBytes),
                    register(SNAPSHOT_DURATION_MS, "Time to build the newest snapshot: merge of the previous one with the records"
                            + " since (compaction=log)", tags, pm.snapshotDurationMs),
                    register(SNAPSHOT_TOMBSTONES_TOTAL, "Tombstones applied to snapshots (compaction=log)", tags, pm.snapshotTombstones));
        }
        pm.snapshotKeys.set(keys);
        pm.snapshotBytes.set(bytes);
        pm.snapshotDurationMs.set(durationMs);
        pm.snapshotTombstones.addAndGet(tombstones);
    }

    /** The partitions whose metrics are registered (the open ones). */
    Set<TopicPartition> openPartitions() {
        return Set.copyOf(partitions.keySet());
    }

    /**
     * Records a partition's source high watermark; the lag gauge (high watermark − verified offset) is registered
     * with the first one, so a partition never reports a lag nobody measured. Ignored for a closed partition.
     */
    synchronized void highWatermark(TopicPartition tp, long highWatermark) {
        PartitionMetrics pm = partitions.get(tp);
        if (pm == null) {
            return;
        }
        pm.highWatermark.set(highWatermark);
        if (metrics != null && pm.lagName == null) {
            MetricName mn = metrics.metricName(SOURCE_LAG, "Source high watermark minus the next durable offset (refreshed on a"
                    + " timer): records in the source not yet durable in the destination", partitionTags(tp));
            PluginGauges.add(metrics, mn, () -> Math.max(0, pm.highWatermark.get() - pm.verified.get()));
            pm.lagName = mn;
        }
    }

    synchronized void closed(TopicPartition tp) {
        PartitionMetrics pm = partitions.remove(tp);
        if (pm != null && metrics != null) {
            pm.names.forEach(n -> PluginGauges.remove(metrics, n));
            pm.snapshotNames.forEach(n -> PluginGauges.remove(metrics, n));
            if (pm.lagName != null) {
                PluginGauges.remove(metrics, pm.lagName);
            }
        }
    }

    @Override
    public synchronized void close() {
        List.copyOf(partitions.keySet()).forEach(this::closed);
        if (metrics != null) {
            taskMetricNames.forEach(n -> PluginGauges.remove(metrics, n));
        }
    }

    private LinkedHashMap<String, String> partitionTags(TopicPartition tp) {
        LinkedHashMap<String, String> tags = new LinkedHashMap<>();
        tags.put("mirror", mirror);
        tags.put("topic", tp.topic());
        tags.put("partition", Integer.toString(tp.partition()));
        return tags;
    }

    private PartitionMetrics registerPartition(TopicPartition tp) {
        PartitionMetrics pm = new PartitionMetrics();
        if (metrics == null) {
            return pm;
        }
        LinkedHashMap<String, String> tags = partitionTags(tp);
        pm.names = List.of(
                register(OFFSET_VERIFIED, "Next offset durable in the destination (the chain's end)", tags, pm.verified),
                register(RECORDS_TOTAL, "Records written to the destination", tags, pm.records),
                register(BYTES_TOTAL, "Encoded object bytes written to the destination", tags, pm.bytes),
                register(FLUSHES_TOTAL, "Objects written to the destination", tags, pm.flushes),
                register(LAST_FLUSH_TS, "Unix time of the last object written", tags, pm.lastFlushSeconds));
        return pm;
    }

    private MetricName register(String name, String doc, LinkedHashMap<String, String> tags, AtomicLong value) {
        return register(name, doc, tags, (LongSupplier) value::get);
    }

    private MetricName register(String name, String doc, LinkedHashMap<String, String> tags, LongSupplier value) {
        MetricName mn = metrics.metricName(name, doc, tags);
        PluginGauges.add(metrics, mn, value);
        return mn;
    }

    private static final class PartitionMetrics {
        final AtomicLong verified = new AtomicLong();
        final AtomicLong records = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
        final AtomicLong flushes = new AtomicLong();
        final AtomicLong lastFlushSeconds = new AtomicLong();
        final AtomicLong highWatermark = new AtomicLong();
        final AtomicLong snapshotKeys = new AtomicLong();
        final AtomicLong snapshotBytes = new AtomicLong();
        final AtomicLong snapshotDurationMs = new AtomicLong();
        final AtomicLong snapshotTombstones = new AtomicLong();
        List<MetricName> names = List.of();
        List<MetricName> snapshotNames = List.of();
        MetricName lagName;
    }
}
