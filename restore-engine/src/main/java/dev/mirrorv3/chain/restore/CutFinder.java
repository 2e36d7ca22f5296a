package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.envelope.BackupRecord;

/**
 * Finds one partition's cut while its records are read in order: accepts the records of the prefix and refuses every record
 * from the first one past the cut on. With a timestamp the prefix ends before the first record stamped after it, so a
 * late-stamped record in the middle of a CreateTime topic ends it there (records after it are not looked at); a record
 * without a timestamp does not end it. Not thread-safe: one per partition.
 */
public final class CutFinder {
    private final String requested;
    private final Long untilTimestampMs;
    private final Long untilOffset;
    private boolean reached;
    private long records;
    private long lastOffset = -1;
    private Long lastTimestampMs;
    private long firstExcludedOffset = -1;
    private Long firstExcludedTimestampMs;

    CutFinder(String requested, Long untilTimestampMs, Long untilOffset) {
        this.requested = requested;
        this.untilTimestampMs = untilTimestampMs;
        this.untilOffset = untilOffset;
    }

    /** A finder that accepts every record. */
    public static CutFinder none() {
        return new CutFinder(null, null, null);
    }

    /** Whether {@code r}, the partition's next record, is restored. Once this answers false it always does. */
    public boolean accept(BackupRecord r) {
        if (reached && firstExcludedOffset >= 0) {
            return false;
        }
        Long ts = r.timestampMs() != null && r.timestampMs() >= 0 ? r.timestampMs() : null;
        boolean in = !reached
                && (untilOffset == null || r.offset() <= untilOffset)
                && (untilTimestampMs == null || ts == null || ts <= untilTimestampMs);
        if (!in) {
            reached = true;
            firstExcludedOffset = r.offset();
            firstExcludedTimestampMs = ts;
            return false;
        }
        records++;
        lastOffset = r.offset();
        if (ts != null) {
            lastTimestampMs = ts;
        }
        if (untilOffset != null && r.offset() == untilOffset) {
            reached = true; // nothing after it can be in the prefix: no need to read on
        }
        return true;
    }

    /** Whether the cut is known: a record past it was seen, or the offset cut itself. Records after it need not be read. */
    public boolean reached() {
        return reached;
    }

    /** The cut in words ("until timestamp ...", "until offset ..."), or null without one. */
    public String requested() {
        return requested;
    }

    public Long untilOffset() {
        return untilOffset;
    }

    public long records() {
        return records;
    }

    /** The last restored record's offset, or -1. */
    public long lastOffset() {
        return lastOffset;
    }

    /** The last restored record's timestamp that has one, or null. */
    public Long lastTimestampMs() {
        return lastTimestampMs;
    }

    /** The first record not restored, or -1 (none seen: the chain ended first, or an offset cut stopped reading). */
    public long firstExcludedOffset() {
        return firstExcludedOffset;
    }

    public Long firstExcludedTimestampMs() {
        return firstExcludedTimestampMs;
    }
}
