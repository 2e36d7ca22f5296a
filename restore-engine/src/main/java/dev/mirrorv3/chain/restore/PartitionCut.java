package dev.mirrorv3.chain.restore;

/**
 * What the verify pass restores of a partition: the prefix up to the cut and its digest ({@link RecordDigest}).
 *
 * @param requested the cut in words, or null when the whole chain is restored
 * @param records records in the prefix
 * @param lastOffset the last restored record's offset
 * @param lastTimestampMs its timestamp (the last one that has one), or null
 * @param firstExcludedOffset the first record not restored, or -1 (none was read)
 * @param firstExcludedTimestampMs its timestamp, or null
 * @param sha256 the {@link RecordDigest} of the prefix, hex
 */
public record PartitionCut(String requested, long records, long lastOffset, Long lastTimestampMs, long firstExcludedOffset,
        Long firstExcludedTimestampMs, String sha256) {

    static PartitionCut of(CutFinder finder, RecordDigest digest) {
        return new PartitionCut(finder.requested(), finder.records(), finder.lastOffset(), finder.lastTimestampMs(),
                finder.firstExcludedOffset(), finder.firstExcludedTimestampMs(), digest.hex());
    }
}
