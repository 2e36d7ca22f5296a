package dev.mirrorv3.chain.snapshot;

import dev.mirrorv3.chain.read.ObjectCheckException;
import java.util.Map;
import java.util.Optional;

/**
 * The newest timestamp of every record a snapshot took, since the partition's first snapshot: live records, and also the
 * tombstones and overwritten records the merge dropped, which leave no other trace. A snapshot is the state as of a
 * timestamp T only if nothing it took is stamped after T ({@link SnapshotChoice}). The writer records it in the
 * snapshot's Parquet footer (key-value metadata {@value #FOOTER_KEY}: epoch milliseconds, or {@value #NONE} when no record
 * taken had a timestamp); a snapshot written before this was recorded has no such entry.
 *
 * @param newestMs the newest stamp taken, or null when no record taken had one (records without a timestamp, or stamped
 *     before the epoch, do not count)
 */
public record TakenStamps(Long newestMs) {
    public static final String FOOTER_KEY = "mirror-v3.snapshot.taken-max-timestamp-ms";
    static final String NONE = "none";
    /** What a partition's first snapshot starts from. */
    static final TakenStamps NOTHING = new TakenStamps(null);

    /** Whether every record taken is stamped at or before {@code timestampMs}. */
    public boolean atOrBefore(long timestampMs) {
        return newestMs == null || newestMs <= timestampMs;
    }

    /** These stamps and one more record's ({@code null}: without a timestamp). */
    TakenStamps and(Long timestampMs) {
        if (timestampMs == null || timestampMs < 0 || (newestMs != null && newestMs >= timestampMs)) {
            return this;
        }
        return new TakenStamps(timestampMs);
    }

    /** The footer entry to record. */
    Map<String, String> footer() {
        return Map.of(FOOTER_KEY, newestMs == null ? NONE : Long.toString(newestMs));
    }

    /**
     * The stamps a snapshot's footer recorded, or empty when it has none (written before they were recorded).
     *
     * @throws ObjectCheckException naming the snapshot when the entry is not a number
     */
    static Optional<TakenStamps> fromFooter(Map<String, String> footer, String where) {
        String v = footer.get(FOOTER_KEY);
        if (v == null) {
            return Optional.empty();
        }
        if (v.equals(NONE)) {
            return Optional.of(NOTHING);
        }
        try {
            return Optional.of(new TakenStamps(Long.parseLong(v)));
        } catch (NumberFormatException e) {
            throw new ObjectCheckException(where + ": its footer entry " + FOOTER_KEY + " is '" + v + "', not epoch milliseconds or '"
                    + NONE + "': not written by this product; move it out of the directory or restore it from a copy");
        }
    }
}
