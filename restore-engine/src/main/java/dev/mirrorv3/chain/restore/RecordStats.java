package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.envelope.BackupRecord;

/**
 * What a verify pass measured of the records it restores, each record's size as the pass measured it (restore: as a
 * Kafka batch of one, {@code RecordSizes.batchOfOne}). One home for these figures: the chain's verify pass
 * ({@link BackupVerifier}) and the snapshot restore's take them alike.
 *
 * @param firstNullKeyOffset the first record without a key, or -1 (a compacted target refuses it)
 * @param minTimestampMs the oldest record timestamp, or {@code Long.MAX_VALUE} if no record has one
 * @param maxTimestampMs the newest record timestamp, or {@code Long.MIN_VALUE} if no record has one
 * @param maxRecordSize the largest record's size, or -1 without records
 * @param maxRecordOffset that record's offset, or -1
 * @param recordBytes the records' sizes summed
 */
public record RecordStats(long records, long firstNullKeyOffset, long minTimestampMs, long maxTimestampMs, long maxRecordSize,
        long maxRecordOffset, long recordBytes) {

    /** Before the first record. */
    public static RecordStats none() {
        return new RecordStats(0, -1, Long.MAX_VALUE, Long.MIN_VALUE, -1, -1, 0);
    }

    /** These figures with one more record of {@code size} bytes. */
    public RecordStats plus(BackupRecord r, long size) {
        Long ts = r.timestampMs() != null && r.timestampMs() >= 0 ? r.timestampMs() : null;
        boolean largest = size > maxRecordSize;
        return new RecordStats(records + 1, firstNullKeyOffset < 0 && r.key() == null ? r.offset() : firstNullKeyOffset,
                ts == null ? minTimestampMs : Math.min(minTimestampMs, ts), ts == null ? maxTimestampMs : Math.max(maxTimestampMs, ts),
                largest ? size : maxRecordSize, largest ? r.offset() : maxRecordOffset, recordBytes + size);
    }
}
