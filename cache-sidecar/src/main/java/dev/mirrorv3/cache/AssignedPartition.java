package dev.mirrorv3.cache;

/**
 * A partition of a cache as the consumer found it when it was assigned: its low watermark and the high watermark the
 * cache must reach to be caught up.
 */
public record AssignedPartition(int partition, long lowWatermark, long endOffsetAtStart) {

    /** Records between the two watermarks. */
    long recordsAtStart() {
        return endOffsetAtStart - lowWatermark;
    }
}
