package dev.mirrorv3.chain.prune;

import dev.mirrorv3.chain.ObjectName;
import java.util.List;
import java.util.OptionalLong;

/**
 * What prune did (or, in a dry run, would do) to one partition's chain.
 *
 * @param newStart the start recorded before anything was deleted; empty when nothing was to be removed
 * @param removed the objects removed (to be removed in a dry run), oldest first, with their sizes
 * @param locked objects left because an Object Lock retention has not ended, each with the store's reason
 * @param keptObjects how many objects the chain still holds; @param keptBytes their bytes
 */
public record PartitionPrune(int partition, OptionalLong newStart, List<Removed> removed, List<Locked> locked, long keptObjects,
                             long keptBytes) {

    /** One object removed, with its size in bytes. */
    public record Removed(ObjectName name, long bytes) {
    }

    /** One object left under a retention, with the store's message (the retention's mode and end). */
    public record Locked(ObjectName name, String reason) {
    }

    public PartitionPrune {
        removed = List.copyOf(removed);
        locked = List.copyOf(locked);
    }

    public long removedBytes() {
        return removed.stream().mapToLong(Removed::bytes).sum();
    }
}
