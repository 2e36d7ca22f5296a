package dev.mirrorv3.chain;

import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A partition's snapshots ({@code compaction=log}), sorted by offset. Unlike a chain, older snapshots may have been
 * removed (a bucket lifecycle rule), so gaps between them are allowed; overlaps never are: each snapshot starts after
 * the previous one's {@code to}. The newest snapshot is the backup.
 */
public record SnapshotChain(String location, List<ObjectName> objects) {

    public SnapshotChain {
        objects = List.copyOf(objects);
    }

    /** Validates the names listed in a partition's directory: ours, Parquet, {@code to >= from}, no overlap. */
    public static SnapshotChain validate(String location, Collection<String> names) {
        List<ObjectName> objects = new ArrayList<>(names.size());
        for (String name : names) {
            if (TemporaryFiles.isTemporary(name)) {
                continue;
            }
            ObjectName o = ObjectName.parse(name).orElseThrow(
                    () -> new ChainException.ForeignObject(location, name, EnvelopeFormat.PARQUET.extension()));
            if (o.format() != EnvelopeFormat.PARQUET) {
                throw new ChainException.WrongExtension(location, o, EnvelopeFormat.PARQUET.extension());
            }
            if (o.to() < o.from()) {
                throw new ChainException.InvertedRange(location, o);
            }
            objects.add(o);
        }
        Collections.sort(objects);
        for (int i = 1; i < objects.size(); i++) {
            ObjectName prev = objects.get(i - 1);
            ObjectName next = objects.get(i);
            if (next.from() == prev.from()) {
                throw new ChainException.DuplicateFrom(location, prev, next);
            }
            if (next.from() <= prev.to()) {
                throw new ChainException.Overlap(location, prev, next);
            }
        }
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
