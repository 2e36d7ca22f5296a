package dev.mirrorv3.chain;

import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;

/**
 * Validates the names listed in one partition's chain directory (docs/design.md, object names and chain continuity): every name ours and of
 * the configured format, sorted by {@code from}, no gap, no overlap, no duplicate {@code from},
 * {@code to >= from}. Temporary files of our own writer are ignored.
 */
public final class ChainValidator {
    private ChainValidator() {
    }

    /**
     * @param requiredStart where the chain must start (restore's {@code --chain-start}); empty accepts a chain whose
     *     oldest objects were removed (the sink validates from the first object present)
     */
    public static Chain validate(String location, Collection<String> names, EnvelopeFormat format, OptionalLong requiredStart) {
        List<ObjectName> objects = sortedObjects(location, names, format, false);
        if (requiredStart.isPresent() && !objects.isEmpty() && objects.get(0).from() != requiredStart.getAsLong()) {
            ObjectName first = objects.get(0);
            if (first.from() > requiredStart.getAsLong()) {
                throw new ChainException.WrongChainStart(location, first, requiredStart.getAsLong());
            }
            // Starting before the requested start is fine: the reader skips what lies before it.
        }
        return new Chain(location, objects);
    }

    /**
     * The names of a partition's directory, ours and of {@code format}, {@code to >= from}, sorted by offset, each starting
     * after the previous one's {@code to}; with {@code gapsAllowed} false also each right after it. Shared with
     * {@link SnapshotChain}, whose older snapshots may be gone.
     */
    static List<ObjectName> sortedObjects(String location, Collection<String> names, EnvelopeFormat format, boolean gapsAllowed) {
        List<ObjectName> objects = new ArrayList<>(names.size());
        for (String name : names) {
            if (TemporaryFiles.isTemporary(name)) {
                continue;
            }
            ObjectName o = ObjectName.parse(name).orElseThrow(() -> new ChainException.ForeignObject(location, name, format.extension()));
            if (o.format() != format) {
                throw new ChainException.WrongExtension(location, o, format.extension());
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
            if (!gapsAllowed && next.from() > prev.to() + 1) {
                throw new ChainException.Gap(location, prev.to() + 1, next);
            }
        }
        return objects;
    }
}
