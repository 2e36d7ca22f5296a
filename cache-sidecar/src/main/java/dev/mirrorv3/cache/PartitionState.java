package dev.mirrorv3.cache;

/**
 * Progress of one assigned partition of a cache. Written by the consumer thread, read by HTTP threads.
 */
public final class PartitionState {

    private final int partition;
    private final long lowWatermark;
    /** The high watermark seen at assignment: the cache is caught up once its position reaches it. */
    private final long endOffsetAtStart;
    private volatile long lastSeenOffset;
    private volatile long position;
    private volatile long lag;

    PartitionState(int partition, long lowWatermark, long endOffsetAtStart) {
        this.partition = partition;
        this.lowWatermark = lowWatermark;
        this.endOffsetAtStart = endOffsetAtStart;
        this.lastSeenOffset = lowWatermark - 1;
        this.position = lowWatermark;
    }

    public int partition() {
        return partition;
    }

    public long lowWatermark() {
        return lowWatermark;
    }

    public long endOffsetAtStart() {
        return endOffsetAtStart;
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
        return position >= endOffsetAtStart;
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
