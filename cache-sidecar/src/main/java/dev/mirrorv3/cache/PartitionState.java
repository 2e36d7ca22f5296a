package dev.mirrorv3.cache;

/**
 * Progress of one assigned partition of a cache. Written by the consumer thread, read by HTTP threads.
 */
public final class PartitionState {

    private final AssignedPartition assigned;
    private volatile long lastSeenOffset;
    private volatile long position;
    private volatile long lag;

    PartitionState(AssignedPartition assigned) {
        this.assigned = assigned;
        this.lastSeenOffset = assigned.lowWatermark() - 1;
        this.position = assigned.lowWatermark();
    }

    public AssignedPartition assigned() {
        return assigned;
    }

    public int partition() {
        return assigned.partition();
    }

    /** Offset of the last consumed record (kkv: not +1), low watermark − 1 before any. */
    public long lastSeenOffset() {
        return lastSeenOffset;
    }

    /** The consumer's position: the next offset it will read. */
    public long position() {
        return position;
    }

    /** Records behind the broker's current high watermark, as the consumer last knew it. */
    public long lag() {
        return lag;
    }

    public boolean caughtUp() {
        return position >= assigned.endOffsetAtStart();
    }

    void seen(long offset) {
        if (offset > lastSeenOffset) {
            lastSeenOffset = offset;
        }
    }

    void position(long newPosition, long newLag) {
        if (newPosition > position) {
            position = newPosition;
        }
        lag = newLag;
    }
}
