package dev.mirrorv3.kafka.restore;

import java.util.Map;

/**
 * A finished restore: records produced per partition (sorted by partition), and the batches sent as the producer's metrics report them
 * ({@code batch-size-max}, {@code batch-size-avg}, {@code records-per-request-avg}, {@code request-total}).
 */
public record RestoreResult(Map<Integer, Long> recordsPerPartition, long records, long elapsedMs, long batchSizeMaxBytes,
        double batchSizeAvgBytes, double recordsPerRequestAvg, long requests) {
}
