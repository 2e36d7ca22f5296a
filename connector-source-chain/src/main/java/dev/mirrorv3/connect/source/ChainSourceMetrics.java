package dev.mirrorv3.connect.source;

import dev.mirrorv3.kafka.metrics.PluginMetricsRegistry;
import dev.mirrorv3.kafka.metrics.TaskMetrics;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.source.SourceTaskContext;

/**
 * The chain source task's series, which {@code config/jmx-exporter.yaml} maps to the {@code mirror_v3_follow_*} series. Per
 * backup partition (the backed-up topic and partition): records and bytes the target acknowledged, objects read, the lag
 * in backup offsets and in seconds of record time, the last successful look at the backup; per task the transient
 * failures retried. {@link PluginMetricsRegistry} registers them (tags, the fallback on a worker without plugin metrics,
 * removal when the task stops).
 */
final class ChainSourceMetrics extends TaskMetrics {
    private final long pollIntervalMs;

    /** @param pollIntervalMs poll.interval.ms, exported per partition so that the alert on a blind standby scales with it */
    ChainSourceMetrics(SourceTaskContext context, String mirror, long pollIntervalMs) {
        super(PluginMetricsRegistry.open(() -> context.pluginMetrics(), mirror), "backup store or target cluster");
        this.pollIntervalMs = pollIntervalMs;
    }

    /**
     * Registers one followed backup partition's series (replacing those of an earlier call); the lag gauges follow with
     * its first position.
     */
    Partition partition(String topic, int partition) {
        TopicPartition tp = new TopicPartition(topic, partition);
        Partition p = new Partition(tp);
        metrics.removePartition(tp);
        metrics.gauge(tp, "follow-records-total", "Records restored: written to the target and acknowledged", p.records::get);
        metrics.gauge(tp, "follow-bytes-total", "Key, value and header bytes of the records restored", p.bytes::get);
        metrics.gauge(tp, "follow-objects-total", "Backup objects read (a renumbered resume reads the objects before its position too)",
                p.objects::get);
        metrics.gauge(tp, "follow-last-poll-timestamp-seconds",
                "Unix time of the last successful look at the backup (a listing or an object read); 0"
                + " before the first", p.lastPollSeconds::get);
        metrics.gauge(tp, "follow-cut-reached", "1 once the target holds the backup up to until.timestamp/until.offset and the follower"
                + " stopped there; 0 before, and without a cut", p.cutReached::get);
        metrics.gauge(tp, "follow-poll-interval-ms", "poll.interval.ms: how often the follower lists the backup once caught up",
                () -> pollIntervalMs);
        return p;
    }

    /**
     * One backup partition's progress, in backup offsets (the target's offsets with offsets=preserve): the follower's
     * view, published by the task's thread after each look at the backup, and what the target acknowledged, written by
     * the producer's thread. The lag is what the backup held at the follower's last listing minus what the target
     * acknowledged, so it is 0 once the last listed record is acknowledged (an object always ends with the record of
     * its last offset).
     */
    final class Partition {
        private final TopicPartition tp;
        final AtomicLong records = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
        final AtomicLong objects = new AtomicLong();
        final AtomicLong lastPollSeconds = new AtomicLong();
        final AtomicLong cutReached = new AtomicLong();
        private boolean positioned;
        private long backupEnd;
        private Long newestTimestamp;
        private long restoredNext;
        private Long restoredTimestamp;

        private Partition(TopicPartition tp) {
            this.tp = tp;
        }

        /** The backup partition (the backed-up topic and partition) these series are of. */
        TopicPartition partition() {
            return tp;
        }

        /**
         * The follower is positioned: the target holds the backup up to {@code restoredNext} (exclusive), its last record
         * stamped {@code restoredTimestamp} (null: nothing restored yet, or no timestamp).
         */
        void positioned(long restoredNext, Long restoredTimestamp) {
            synchronized (this) {
                this.restoredNext = restoredNext;
                this.restoredTimestamp = restoredTimestamp;
                if (positioned) {
                    return;
                }
                positioned = true;
            }
            metrics.gauge(tp, "follow-lag-offsets", "Backup offsets not yet restored: the backup's end at the last listing minus the next"
                    + " backup offset the target lacks", this::lagOffsets);
            metrics.gauge(tp, "follow-lag-seconds", "Record time not yet restored: the newest backed-up record's timestamp minus the last"
                    + " restored record's; 0 when caught up", this::lagSeconds);
        }

        /** A successful look at the backup: its end and newest record as of the follower's last listing. */
        synchronized void polled(long backupEnd, OptionalLong newestTimestamp, long objectsRead, long nowMs) {
            this.backupEnd = backupEnd;
            if (newestTimestamp.isPresent()) {
                this.newestTimestamp = newestTimestamp.getAsLong();
            }
            objects.set(objectsRead);
            lastPollSeconds.set(nowMs / 1000);
        }

        /**
         * Records were handed to Connect, the first stamped {@code firstTimestamp}: with nothing restored yet, the lag in
         * seconds counts from it (the backup's oldest record's time).
         */
        synchronized void handedOut(Long firstTimestamp) {
            if (restoredTimestamp == null) {
                restoredTimestamp = firstTimestamp;
            }
        }

        /** The target acknowledged the record of {@code backupOffset}. */
        synchronized void restored(long backupOffset, Long timestamp, long recordBytes) {
            records.incrementAndGet();
            bytes.addAndGet(recordBytes);
            if (backupOffset >= restoredNext) {
                restoredNext = backupOffset + 1;
                if (timestamp != null) {
                    restoredTimestamp = timestamp;
                }
            }
        }

        synchronized long lagOffsets() {
            return Math.max(0, backupEnd - restoredNext);
        }

        /** 0 when caught up, or when a timestamp is unknown (records without one): the lag in offsets still shows. */
        synchronized long lagSeconds() {
            if (restoredNext >= backupEnd || newestTimestamp == null || restoredTimestamp == null) {
                return 0;
            }
            return Math.max(0, newestTimestamp - restoredTimestamp) / 1000;
        }
    }
}
