package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.chain.restore.VerifiedPartition;

/**
 * What a restore writes into one target partition, as the checks of its target need it: a chain's verified prefix or a
 * snapshot, so --create-topic and the target checks treat both backup kinds alike.
 *
 * @param minTimestampMs the oldest record timestamp, or {@code Long.MAX_VALUE} if no record has one
 * @param maxTimestampMs the newest record timestamp, or {@code Long.MIN_VALUE} if no record has one
 * @param logBytes the least the records take in the target's log ({@link RecordSizes#inLog}), uncompressed as restore writes them
 */
public record RestoredPartition(int partition, String location, long minTimestampMs, long maxTimestampMs, long logBytes) {

    public static RestoredPartition of(VerifiedPartition vp) {
        return new RestoredPartition(vp.partition(), vp.location(), vp.stats().minTimestampMs(), vp.stats().maxTimestampMs(),
                RecordSizes.inLog(vp.stats().recordBytes(), vp.records()));
    }

    public static RestoredPartition of(SnapshotRestorer.Verified v) {
        return new RestoredPartition(v.partition(), v.location() + "/" + v.snapshot(), v.minTimestampMs(),
                v.maxTimestampMs() == null ? Long.MIN_VALUE : v.maxTimestampMs(), RecordSizes.inLog(v.recordBytes(), v.keys()));
    }

    public boolean hasTimestamps() {
        return minTimestampMs != Long.MAX_VALUE;
    }
}
