package dev.mirrorv3.kafka.restore;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * A finished restore: records produced per partition (sorted by partition), and the batches sent as the producer's metrics report them
 * ({@code batch-size-max}, {@code batch-size-avg}, {@code records-per-request-avg}, {@code request-total}).
 */
public record RestoreResult(Map<Integer, Long> recordsPerPartition, long records, long elapsedMs, long batchSizeMaxBytes,
        double batchSizeAvgBytes, double recordsPerRequestAvg, long requests) {

    /**
     * @param produced records produced per partition
     * @param producerMetrics the producer's metrics ({@code Producer#metrics()}); empty: the batch figures are 0
     */
    public static RestoreResult of(Map<Integer, Long> produced, long elapsedMs, Map<MetricName, ? extends Metric> producerMetrics) {
        double batchMax = 0;
        double batchAvg = 0;
        double perRequest = 0;
        double requests = 0;
        for (Map.Entry<MetricName, ? extends Metric> m : producerMetrics.entrySet()) {
            if (!"producer-metrics".equals(m.getKey().group())) {
                continue;
            }
            Object v = m.getValue().metricValue();
            double d = v instanceof Number n ? n.doubleValue() : 0;
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                d = 0;
            }
            switch (m.getKey().name()) {
                case "batch-size-max" -> batchMax = d;
                case "batch-size-avg" -> batchAvg = d;
                case "records-per-request-avg" -> perRequest = d;
                case "request-total" -> requests = d;
                default -> { }
            }
        }
        long total = produced.values().stream().mapToLong(Long::longValue).sum();
        return new RestoreResult(Collections.unmodifiableSortedMap(new TreeMap<>(produced)), total, elapsedMs,
                (long) batchMax, batchAvg, perRequest, (long) requests);
    }
}
