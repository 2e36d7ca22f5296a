package dev.mirrorv3.chain.prune;

import dev.mirrorv3.chain.meta.MetaName;
import java.util.List;

/**
 * What prune did (or, in a dry run, would do) to a backup's {@code _meta/} snapshots.
 *
 * @param removed the snapshots removed (to be removed in a dry run), oldest first within each kind, with their sizes
 * @param locked snapshots left because an Object Lock retention has not ended, each with the store's reason
 * @param kept how many snapshots of both kinds are left
 */
public record MetaPrune(List<Removed> removed, List<Locked> locked, long kept) {

    /** One snapshot removed: its directory ({@code _meta/topic} or {@code _meta/groups}), name and size in bytes. */
    public record Removed(String dir, MetaName name, long bytes) {
    }

    /** One snapshot left under a retention, with the store's message (the retention's mode and end). */
    public record Locked(String dir, MetaName name, String reason) {
    }

    public MetaPrune {
        removed = List.copyOf(removed);
        locked = List.copyOf(locked);
    }

    /** Nothing looked at: {@code --partition} prunes one chain and leaves the backup's metadata. */
    public static MetaPrune none() {
        return new MetaPrune(List.of(), List.of(), 0);
    }

    public long removedBytes() {
        return removed.stream().mapToLong(Removed::bytes).sum();
    }
}
