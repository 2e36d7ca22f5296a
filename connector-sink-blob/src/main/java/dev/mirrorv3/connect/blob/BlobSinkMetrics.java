package dev.mirrorv3.connect.blob;

import dev.mirrorv3.kafka.metrics.PluginMetricsRegistry;
import dev.mirrorv3.kafka.metrics.TaskMetrics;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * The blob sink task's series (names, docs, values), registered through {@link PluginMetricsRegistry} (tags, the
 * fallback on a worker without plugin metrics, removal when a partition closes or the task stops), which
 * {@code config/jmx-exporter.yaml} maps to the {@code mirror_v3_*} series. Beside what happened, the task exports its
 * cadence (the effective flush.max.time.ms per partition, the periodic checks' intervals per task), so that the alerts
 * of {@code config/prometheus-rules.yaml} compare against each connector's own settings (docs/operations.md).
 */
final class BlobSinkMetrics extends TaskMetrics {
    static final String BUFFERED_BYTES = "buffered-bytes";
    static final String DESTINATION_LAG = "destination-lag-offsets";

    private final Cadence cadence;
    private final AtomicLong bufferedBytes = new AtomicLong();
    private final Map<TopicPartition, PartitionMetrics> partitions = new ConcurrentHashMap<>();

    BlobSinkMetrics(SinkTaskContext context, String mirror, IntSupplier pausedForRetry, Cadence cadence) {
        this(context, mirror, null, pausedForRetry, cadence);
    }

    /** @param destination the tag of one destination of a tee's, on every series; null for a task's one destination */
    BlobSinkMetrics(SinkTaskContext context, String mirror, String destination, IntSupplier pausedForRetry, Cadence cadence) {
        super(PluginMetricsRegistry.open(() -> context.pluginMetrics(), mirror, destination), "store or source cluster");
        this.cadence = cadence;
        metrics.gauge(BUFFERED_BYTES, "Payload bytes buffered by the task over all partitions", bufferedBytes::get);
        pausedForRetry("Partitions paused while the task retries opening them (store or source cluster"
                + " unavailable); 0 when every partition is positioned", pausedForRetry);
        metrics.gauge("chain-check-interval-ms", "chain.check.interval.ms: how often each partition's chain is checked",
                cadence::chainCheckIntervalMs);
        metrics.gauge("metadata-interval-ms", "metadata.interval.ms: how often the topics' metadata is snapshotted; 0 when off",
                cadence::metadataIntervalMs);
        metrics.gauge("metadata-groups-interval-ms", "groups.interval.ms: how often the groups' offsets are snapshotted; 0 when off",
                cadence::groupsIntervalMs);
    }

    void bufferedBytes(long bytes) {
        bufferedBytes.set(bytes);
    }

    /**
     * A partition is positioned at {@code verifiedOffset}. Until its first flush, its last flush time is the open's: the
     * alerts measure a flush's delay from it, so a restart with a backlog is not taken for a stall before the partition
     * had flush.max.time.ms to write.
     */
    void opened(TopicPartition tp, long verifiedOffset, long nowMs) {
        PartitionMetrics pm = partitions.computeIfAbsent(tp, this::registerPartition);
        pm.verified.set(verifiedOffset);
        pm.lastFlushSeconds.compareAndSet(0, nowMs / 1000);
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
        metrics.gauge(tp, "snapshot-keys", "Live keys in the newest snapshot (compaction=log)", pm.snapshotKeys::get);
        metrics.gauge(tp, "snapshot-bytes", "Object bytes of the newest snapshot (compaction=log)", pm.snapshotBytes::get);
        metrics.gauge(tp, "snapshot-duration-ms", "Time to build the newest snapshot: merge of the previous one with the records"
                + " since (compaction=log)", pm.snapshotDurationMs::get);
        metrics.gauge(tp, "snapshot-tombstones-applied-total",
                "Tombstones applied to snapshots (compaction=log)", pm.snapshotTombstones::get);
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
        metrics.gauge(tp, SOURCE_LAG, "Source high watermark minus the next durable offset (refreshed on a timer): records in"
                + " the source not yet durable in the destination", () -> Math.max(0, pm.highWatermark.get() - pm.verified.get()));
    }

    /**
     * A tee's destination: how many offsets its durable copy of the partition trails the most complete destination's
     * (mirror_v3_destination_lag_offsets, docs/blob-sink.md, "Several destinations").
     */
    void destinationLag(TopicPartition tp, LongSupplier lag) {
        metrics.gauge(tp, DESTINATION_LAG, "Offsets this destination's durable copy trails the furthest destination of the same"
                + " tee (0 when it holds as much as any)", lag);
    }

    synchronized void closed(TopicPartition tp) {
        partitions.remove(tp);
        metrics.removePartition(tp);
    }

    @Override
    public synchronized void close() {
        partitions.clear();
        super.close();
    }

    private PartitionMetrics registerPartition(TopicPartition tp) {
        PartitionMetrics pm = new PartitionMetrics();
        metrics.gauge(tp, OFFSET_VERIFIED, "Next offset durable in the destination (the chain's end)", pm.verified::get);
        metrics.gauge(tp, RECORDS_TOTAL, "Records written to the destination", pm.records::get);
        metrics.gauge(tp, BYTES_TOTAL, "Encoded object bytes written to the destination", pm.bytes::get);
        metrics.gauge(tp, "destination-flushes-total", "Objects written to the destination", pm.flushes::get);
        metrics.gauge(tp, "destination-last-flush-timestamp-seconds",
                "Unix time of the last object written (before the first: of the partition's open)",
                pm.lastFlushSeconds::get);
        metrics.gauge(tp, "destination-flush-max-time-ms",
                "The partition's flush.max.time.ms (compaction=log: one hour unless set): the longest a"
                + " record waits for its flush", cadence::flushMaxTimeMs);
        return pm;
    }

    /**
     * The task's cadence as configured: the flush time limit in effect (compaction=log has its own default) and the
     * intervals of the periodic checks, in milliseconds.
     */
    record Cadence(long flushMaxTimeMs, long chainCheckIntervalMs, long metadataIntervalMs, long groupsIntervalMs) {
        static Cadence of(BlobSinkConfig config) {
            return new Cadence(config.flushPolicy().maxTimeMs(), config.chainCheckIntervalMs(), config.metadataIntervalMs(),
                    config.groupsIntervalMs());
        }
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
    }
}
