package dev.mirrorv3.chain.restore;

import java.util.List;
import java.util.Optional;

/**
 * The verify pass's result for one partition's chain: every object read and checked, the chain's range with its first hole,
 * what the records restored measure ({@link RecordStats}) and the cut.
 *
 * @param location the chain's location (directory or prefix)
 * @param firstHole the first position of the chain without a record, or -1
 * @param cut the prefix restored and its digest, or null (then every record of the objects)
 * @param manifests what the partition's manifests cover and what was checked against them ({@code ManifestTrail#summary})
 */
public record VerifiedPartition(String location, String topic, int partition, List<VerifiedObject> objects, long firstHole,
        RecordStats stats, PartitionCut cut, String manifests) {

    public VerifiedPartition {
        objects = List.copyOf(objects);
    }

    /** A result without manifests to report. */
    public VerifiedPartition(String location, String topic, int partition, List<VerifiedObject> objects, long firstHole,
            RecordStats stats, PartitionCut cut) {
        this(location, topic, partition, objects, firstHole, stats, cut, "none");
    }

    /** The records restored ({@link RecordStats#records()}). */
    public long records() {
        return stats.records();
    }

    public long firstOffset() {
        return objects.get(0).name().from();
    }

    /** The last restored offset: the last object's last, or the cut inside it. */
    public long lastOffset() {
        return cut != null && cut.lastOffset() >= 0 ? cut.lastOffset() : objects.get(objects.size() - 1).name().to();
    }

    public long holes() {
        return lastOffset() - firstOffset() + 1 - records();
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
