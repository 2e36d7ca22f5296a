package dev.mirrorv3.kafka.groups;

/**
 * A committed offset copied to another cluster, clamped into the destination partition's readable range (the double
 * clamp of KIP-1279's group mirroring): {@code max(logStart, min(committed, logEnd))}. Above the log end a resuming
 * consumer would get OFFSET_OUT_OF_RANGE and, with {@code auto.offset.reset=latest}, skip every record in between;
 * below the log start its records are gone, and the log start is where it would be reset to anyway. The worst case is
 * re-reading what the destination lagged behind, never a skip.
 *
 * @param committed the offset on the source (cluster or backup)
 * @param applied the offset to commit on the destination
 * @param bound which bound clamped it, {@link Bound#NONE} if none did
 */
public record OffsetClamp(long committed, long applied, Bound bound) {

    /** Which end of the destination's range moved the offset. */
    public enum Bound { NONE, LOG_START, LOG_END }

    /**
     * @param logStart the destination partition's log-start offset
     * @param logEnd the destination partition's high watermark (or, for a follow-restore, what is restored so far)
     */
    public static OffsetClamp of(long committed, long logStart, long logEnd) {
        if (committed > logEnd) {
            // logEnd < logStart cannot happen on a partition; if a caller mixes readings, the log start still wins.
            return new OffsetClamp(committed, Math.max(logStart, logEnd), Bound.LOG_END);
        }
        if (committed < logStart) {
            return new OffsetClamp(committed, logStart, Bound.LOG_START);
        }
        return new OffsetClamp(committed, committed, Bound.NONE);
    }

    public boolean clamped() {
        return bound != Bound.NONE;
    }
}
