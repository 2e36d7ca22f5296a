package dev.mirrorv3.connect.blob;

import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refreshes the source lag metric on its own thread: one admin query for the high watermarks of all the task's
 * open partitions every interval, so a slow source cluster never stalls {@code put()}. A failed query keeps the
 * last values and logs once until a query succeeds again.
 */
final class SourceLagRefresher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SourceLagRefresher.class);

    private final LogOffsets sourceOffsets;
    private final BlobSinkMetrics metrics;
    private final ScheduledExecutorService timer;
    private boolean failing;

    SourceLagRefresher(LogOffsets sourceOffsets, BlobSinkMetrics metrics, String mirror, long intervalMs) {
        this.sourceOffsets = sourceOffsets;
        this.metrics = metrics;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mirror-v3-source-lag-" + mirror);
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::refresh, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    /** Refreshes as soon as possible (after partitions were opened), besides the regular interval. */
    void refreshSoon() {
        if (!timer.isShutdown()) {
            timer.execute(this::refresh);
        }
    }

    void refresh() {
        Set<TopicPartition> open = metrics.openPartitions();
        if (open.isEmpty()) {
            return;
        }
        try {
            Map<TopicPartition, Long> highWatermarks = sourceOffsets.highWatermarks(open);
            highWatermarks.forEach(metrics::highWatermark);
            if (failing) {
                log.info("source lag of {} is measured again", open);
                failing = false;
            }
        } catch (RuntimeException e) {
            if (!failing) {
                log.warn("cannot measure the source lag of {} (the metric keeps its last value): {}", open, Failures.describe(e));
                failing = true;
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
