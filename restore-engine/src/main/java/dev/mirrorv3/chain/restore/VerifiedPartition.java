package dev.mirrorv3.chain.restore;

import java.util.List;
import java.util.Optional;

/**
 * The verify pass's result for one partition's chain: every object read and checked.
 *
 * @param location the chain's location (directory or prefix)
 * @param firstHole the first position of the chain without a record, or -1
 * @param minTimestampMs the oldest record timestamp, or {@code Long.MAX_VALUE} if no record has one
 * @param maxRecordSize the largest record's size as the verify pass measured it (restore: as a Kafka batch of one)
 * @param maxRecordOffset that record's offset
 * @param firstNullKeyOffset the first record without a key, or -1 (a compacted target refuses it)
 * @param cut the prefix restored and its digest, or null (then every record of the objects)
 * @param maxTimestampMs the newest record timestamp, or {@code Long.MIN_VALUE} if no record has one
 * @param recordBytes the restored records' sizes summed, each as the verify pass measured it (restore: a batch of one)
 */
public record VerifiedPartition(String location, String topic, int partition, List<VerifiedObject> objects, long records,
        long firstHole, long minTimestampMs, long maxRecordSize, long maxRecordOffset, long firstNullKeyOffset, PartitionCut cut,
        long maxTimestampMs, long recordBytes) {

    public VerifiedPartition {
        objects = List.copyOf(objects);
    }

    public VerifiedPartition(String location, String topic, int partition, List<VerifiedObject> objects, long records,
            long firstHole, long minTimestampMs, long maxRecordSize, long maxRecordOffset, long firstNullKeyOffset) {
        this(location, topic, partition, objects, records, firstHole, minTimestampMs, maxRecordSize, maxRecordOffset,
                firstNullKeyOffset, null, Long.MIN_VALUE, 0);
    }

    public long firstOffset() {
        return objects.get(0).name().from();
    }

    /** The last restored offset: the last object's last, or the cut inside it. */
    public long lastOffset() {
        return cut != null && cut.lastOffset() >= 0 ? cut.lastOffset() : objects.get(objects.size() - 1).name().to();
    }

    public long holes() {
        return lastOffset() - firstOffset() + 1 - records;
    }

    /**
     * Why the mode cannot restore this chain, naming the first hole; empty if it can. Preserve needs a chain that
     * starts at 0 (a Kafka topic starts there) and has no hole (a topic cannot be written with one).
     */
    public Optional<String> problemWith(OffsetMode mode) {
        if (mode != OffsetMode.PRESERVE) {
            return Optional.empty();
        }
        if (firstOffset() > 0) {
            return Optional.of("--offsets preserve cannot restore " + location + ": the first hole is at offset 0 (the chain starts at "
                    + firstOffset() + ", offsets 0-" + (firstOffset() - 1) + " are in no object) and a Kafka topic starts at 0;"
                    + " use --offsets renumber");
        }
        if (firstHole >= 0) {
            return Optional.of("--offsets preserve cannot restore " + location + ": the first hole is at offset " + firstHole
                    + " (no record there: compaction, a transaction marker or an aborted record; " + holes()
                    + " holes in all) and a Kafka topic cannot be written with holes; use --offsets renumber");
        }
        return Optional.empty();
    }
}
