package dev.mirrorv3.connect.kafka;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;

/** One opened partition: where its copy stands. {@code expected} is the task thread's; the rest is shared. */
final class Mirror {
    final TopicPartition source;
    final TopicPartition destination;
    /** The source offset of the next record to send (= the destination offset it must get). */
    long expected;
    /** The destination offset after the last record acknowledged at its source offset. */
    final AtomicLong acked;
    final AtomicLong records = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    /** Set by the first failed delivery: the destination may hold less than was sent. */
    volatile boolean failed;
    /** Set when a delivery landed at another offset (another writer): the partition is isolated by the next recovery. */
    volatile RuntimeException corruption;
    volatile long sourceHwm;
    long sinceHeartbeat;

    Mirror(TopicPartition source, TopicPartition destination, long next, long sourceHwm) {
        this.source = source;
        this.destination = destination;
        this.expected = next;
        this.acked = new AtomicLong(next);
        this.sourceHwm = sourceHwm;
    }
}
