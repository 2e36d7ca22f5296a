package dev.mirrorv3.chain;

import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A partition's snapshots ({@code compaction=log}), sorted by offset. Unlike a chain, older snapshots may have been
 * removed ({@code mirror-v3 prune}), so gaps between them are allowed; overlaps never are: each snapshot starts after
 * the previous one's {@code to}. The newest snapshot is the backup.
 */
public record SnapshotChain(String location, List<ObjectName> objects) {

    public SnapshotChain {
        objects = List.copyOf(objects);
    }

    /** Validates the names listed in a partition's directory: ours, Parquet, {@code to >= from}, no overlap. */
    public static SnapshotChain validate(String location, Collection<String> names) {
        List<ObjectName> objects = ChainValidator.sortedObjects(location, names, EnvelopeFormat.PARQUET, true);
        return new SnapshotChain(location, objects);
    }

    public boolean isEmpty() {
        return objects.isEmpty();
    }

    /** The newest snapshot: the backup, and the sink's position ({@code to + 1}). */
    public Optional<ObjectName> newest() {
        return newest(OptionalLong.empty());
    }

    /**
     * The newest snapshot whose state is at or before {@code upTo} (its {@code to <= upTo}), or the newest of all when
     * empty: the one restore produces (a point-in-time bound picks an older one).
     */
    public Optional<ObjectName> newest(OptionalLong upTo) {
        for (int i = objects.size() - 1; i >= 0; i--) {
            if (upTo.isEmpty() || objects.get(i).to() <= upTo.getAsLong()) {
                return Optional.of(objects.get(i));
            }
        }
        return Optional.empty();
    }

    /** Where the sink continues: after the newest snapshot. */
    public OptionalLong nextOffset() {
        return newest().map(o -> OptionalLong.of(o.to() + 1)).orElse(OptionalLong.empty());
    }
}
