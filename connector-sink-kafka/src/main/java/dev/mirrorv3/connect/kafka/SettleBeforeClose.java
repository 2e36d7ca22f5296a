package dev.mirrorv3.connect.kafka;

import static dev.mirrorv3.connect.kafka.DestinationRecovery.SETTLE_MS;

import dev.mirrorv3.connect.kafka.MirrorPositions.Pair;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What closing partitions waits for while {@link DestinationRecovery} has aborted the producer.
 *
 * @param destinationHighWatermarks reads the destination's high watermarks of the given pairs
 * @param destinationDescription    how messages name the destination cluster (its bootstrap servers)
 * @param closeSettleMs             how long it waits at most
 */
record SettleBeforeClose(Function<List<Pair>, Map<TopicPartition, Long>> destinationHighWatermarks, String destinationDescription,
                         long closeSettleMs) {
    /** Its lines are the recovery's: they tell the same story. */
    private static final Logger log = LoggerFactory.getLogger(DestinationRecovery.class);

    /**
     * The settle step of a recovery, done before the partitions are given up: records lost in flight may still land (a
     * broker that hung appends what it had received when it wakes up), and the next owner positions at the high
     * watermark it reads, so they must have landed first. Reads the destination's high watermarks until two reads
     * {@link DestinationRecovery#SETTLE_MS} apart agree, for at most {@code closeSettleMs}; a destination still
     * unreachable then is logged.
     */
    void await(Collection<Mirror> mirrors) {
        List<Mirror> lost = mirrors.stream().filter(m -> m.failed || m.acked.get() < m.expected).toList();
        if (lost.isEmpty()) {
            return;
        }
        List<Pair> pairs = lost.stream().map(m -> new Pair(m.source, m.destination)).toList();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(closeSettleMs);
        Map<TopicPartition, Long> previous = null;
        String failure = null;
        while (true) {
            try {
                Map<TopicPartition, Long> hwms = destinationHighWatermarks.apply(pairs);
                if (hwms.equals(previous)) {
                    log.info("destination {} high watermarks {} stable before the partitions are closed", destinationDescription, hwms);
                    return;
                }
                previous = hwms;
                failure = null;
            } catch (RuntimeException e) {
                if (!ConnectFailures.isTransient(e)) {
                    throw e;
                }
                previous = null; // two reads in a row must agree
                failure = Failures.describe(e);
            }
            if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MS) > deadline) {
                log.warn("closing {} during a recovery: the destination {} high watermarks did not settle within {} ms ({}): records"
                        + " lost in flight may still land after the next owner has positioned, which it then reports", pairs,
                        destinationDescription, closeSettleMs, failure == null ? "they kept moving" : failure);
                return;
            }
            try {
                Thread.sleep(SETTLE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
