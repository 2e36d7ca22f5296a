package dev.mirrorv3.connect.source;

import dev.mirrorv3.kafka.PluginGauges;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chain source task's metrics through Connect's plugin metrics (KIP-877, Kafka >= 4.1), as the sinks register
 * theirs: MBeans {@code kafka.connect:type=plugins,connector=<name>,task=<id>,mirror=<name>[,topic=..,partition=..]},
 * which {@code config/jmx-exporter.yaml} turns into the {@code mirror_v3_follow_*} series. Per backup partition (the
 * backed-up topic and partition): records and bytes the target acknowledged, objects read, the lag in backup offsets
 * and in seconds of record time, the last successful look at the backup; per task the transient failures retried. On
 * an older runtime there are no metrics, with one warning per worker. Everything is removed when the task stops.
 */
final class ChainSourceMetrics implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChainSourceMetrics.class);
    private static final AtomicBoolean WARNED_NO_PLUGIN_METRICS = new AtomicBoolean();

    static final String RECORDS_TOTAL = "follow-records-total";
    static final String BYTES_TOTAL = "follow-bytes-total";
    static final String OBJECTS_TOTAL = "follow-objects-total";
    static final String LAG_OFFSETS = "follow-lag-offsets";
    static final String LAG_SECONDS = "follow-lag-seconds";
    static final String LAST_POLL_TS = "follow-last-poll-timestamp-seconds";
    static final String CUT_REACHED = "follow-cut-reached";
    static final String RESTARTS_TOTAL = "mirror-restarts-total";

    private final PluginMetrics metrics;
    private final String mirror;
    private final AtomicLong restarts = new AtomicLong();
    private final List<MetricName> names = new ArrayList<>();

    ChainSourceMetrics(SourceTaskContext context, String mirror) {
        this.mirror = mirror;
        this.metrics = pluginMetrics(context);
        LinkedHashMap<String, String> tags = new LinkedHashMap<>();
        tags.put("mirror", mirror);
        register(RESTARTS_TOTAL, "Transient failures retried (backup store or target cluster unavailable)", tags, restarts::get);
    }

    /** The context's plugin metrics, or null on a runtime older than Kafka 4.1 (one warning per worker). */
    private static PluginMetrics pluginMetrics(SourceTaskContext context) {
        try {
            return context.pluginMetrics();
        } catch (LinkageError | UnsupportedOperationException e) {
            // NoSuchMethodError (connect-api < 4.1) or AbstractMethodError (a context built against it).
            if (WARNED_NO_PLUGIN_METRICS.compareAndSet(false, true)) {
                log.warn("this Connect runtime has no plugin metrics (Kafka < 4.1): the chain source exports no metrics ({})",
                        e.toString());
            }
            return null;
        }
    }

    boolean enabled() {
        return metrics != null;
    }

    void restart() {
        restarts.incrementAndGet();
    }

    /** Registers one followed backup partition's series; the lag gauges follow with its first position. */
    synchronized Partition partition(String topic, int partition) {
        LinkedHashMap<String, String> tags = new LinkedHashMap<>();
        tags.put("mirror", mirror);
        tags.put("topic", topic);
        tags.put("partition", Integer.toString(partition));
        Partition p = new Partition(tags);
        register(RECORDS_TOTAL, "Records restored: written to the target and acknowledged", tags, p.records::get);
        register(BYTES_TOTAL, "Key, value and header bytes of the records restored", tags, p.bytes::get);
        register(OBJECTS_TOTAL, "Backup objects read (a renumbered resume reads the objects before its position too)", tags,
                p.objects::get);
        register(LAST_POLL_TS, "Unix time of the last successful look at the backup (a listing or an object read); 0 before the"
                + " first", tags, p.lastPollSeconds::get);
        register(CUT_REACHED, "1 once the target holds the backup up to until.timestamp/until.offset and the follower stopped"
                + " there; 0 before, and without a cut", tags, p.cutReached::get);
        return p;
    }

    @Override
    public synchronized void close() {
        if (metrics != null) {
            names.forEach(n -> PluginGauges.remove(metrics, n));
        }
        names.clear();
    }

    private synchronized void register(String name, String doc, LinkedHashMap<String, String> tags, LongSupplier value) {
        if (metrics == null) {
            return;
        }
        MetricName mn = metrics.metricName(name, doc, tags);
        PluginGauges.add(metrics, mn, value);
        names.add(mn);
    }

    /**
     * One backup partition's progress, in backup offsets (the target's offsets with offsets=preserve): the follower's
     * view, published by the task's thread after each look at the backup, and what the target acknowledged, written by
     * the producer's thread. The lag is what the backup held at the follower's last listing minus what the target
     * acknowledged, so it is 0 once the last listed record is acknowledged (an object always ends with the record of
     * its last offset).
     */
    final class Partition {
        private final LinkedHashMap<String, String> tags;
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

        private Partition(LinkedHashMap<String, String> tags) {
            this.tags = tags;
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
            register(LAG_OFFSETS, "Backup offsets not yet restored: the backup's end at the last listing minus the next backup"
                    + " offset the target lacks", tags, this::lagOffsets);
            register(LAG_SECONDS, "Record time not yet restored: the newest backed-up record's timestamp minus the last restored"
                    + " record's; 0 when caught up", tags, this::lagSeconds);
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
