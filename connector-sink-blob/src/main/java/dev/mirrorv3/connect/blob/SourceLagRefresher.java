package dev.mirrorv3.connect.blob;

import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import java.util.Set;
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
    private final BackgroundTimer timer;
    private final BackgroundTimer.Streak passes = new BackgroundTimer.Streak(log, "source lag of {} is measured again");

    SourceLagRefresher(LogOffsets sourceOffsets, BlobSinkMetrics metrics, String mirror, long intervalMs) {
        this.sourceOffsets = sourceOffsets;
        this.metrics = metrics;
        this.timer = new BackgroundTimer("mirror-v3-source-lag-" + mirror);
        timer.every(intervalMs, this::refresh);
    }

    /** Refreshes as soon as possible (after partitions were opened), besides the regular interval. */
    void refreshSoon() {
        timer.soon(this::refresh);
    }

    void refresh() {
        Set<TopicPartition> open = metrics.openPartitions();
        if (open.isEmpty()) {
            return;
        }
        passes.run(() -> sourceOffsets.highWatermarks(open).forEach(metrics::highWatermark), e -> log.warn(
                "cannot measure the source lag of {} (the metric keeps its last value): {}", open, Failures.describe(e)), open);
    }

    @Override
    public void close() {
        timer.close();
    }
}
