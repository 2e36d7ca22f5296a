package dev.mirrorv3.chain.snapshot;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.SnapshotChain;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which snapshot of a partition a restore of a compaction=log backup produces. A snapshot is the state after its
 * {@code to}; there is none between two snapshots, so a point-in-time bound picks the newest snapshot at or before it
 * rather than cutting one: with {@code --until-offset O} the newest whose {@code to <= O}, with {@code --until-timestamp T}
 * the newest that took no record stamped after T ({@link TakenStamps}: tombstones and overwritten records count, so a
 * state that already reflects a later delete is never chosen; records without a timestamp do not count), with both the
 * newest meeting both. A snapshot that did not record its stamps (written before they were) is never chosen for a
 * timestamp on a guess: reaching one is refused (docs/decisions.md). Connect-free.
 */
public final class SnapshotChoice {

    /**
     * @param snapshot the snapshot restored
     * @param reason why it, in words for the summary (names the bound and what the restored state lacks)
     */
    public record Choice(ObjectName snapshot, String reason) {
    }

    private SnapshotChoice() {
    }

    /**
     * @param untilOffset the last backup offset wanted, or null
     * @param untilTimestampMs the last timestamp wanted (epoch ms), or null
     * @param takenStamps the stamps a snapshot took (empty when it did not record them); asked only with a timestamp
     *     bound, newest snapshot first, and only until one fits
     * @throws ChainException naming the oldest snapshot kept when none is at or before the bound, or the snapshot that did
     *     not record its stamps when the choice reaches one
     */
    public static Choice choose(SnapshotChain chain, Long untilOffset, Long untilTimestampMs,
            Function<ObjectName, Optional<TakenStamps>> takenStamps) {
        List<ObjectName> all = chain.objects();
        if (all.isEmpty()) {
            throw new ChainException(chain.location() + ": the directory holds no snapshots");
        }
        ObjectName newest = all.get(all.size() - 1);
        if (untilOffset == null && untilTimestampMs == null) {
            return new Choice(newest, "the newest");
        }
        ObjectName newerStamped = null; // the oldest snapshot skipped for its timestamps, to say why
        long newerStamp = 0;
        for (int i = all.size() - 1; i >= 0; i--) {
            ObjectName o = all.get(i);
            if (untilOffset != null && o.to() > untilOffset) {
                continue;
            }
            if (untilTimestampMs != null) {
                TakenStamps stamps = takenStamps.apply(o).orElseThrow(() -> new ChainException(chain.location() + "/" + o
                        + " does not record the timestamps of the records it took (written by an earlier version), and a delete or"
                        + " an overwrite leaves no other trace in a snapshot: whether it already reflects a change stamped after "
                        + Instant.ofEpochMilli(untilTimestampMs) + " cannot be told, so --until-timestamp does not choose it."
                        + " Restore with --until-offset, or without a bound for the newest snapshot"));
                if (!stamps.atOrBefore(untilTimestampMs)) {
                    newerStamped = o;
                    newerStamp = stamps.newestMs();
                    continue;
                }
            }
            return new Choice(o, reason(o, newest, untilOffset, untilTimestampMs, newerStamped, newerStamp));
        }
        ObjectName oldest = all.get(0);
        throw new ChainException(chain.location() + ": no snapshot is at or before " + bound(untilOffset, untilTimestampMs)
                + " (the oldest kept is " + oldest + ", the state up to offset " + oldest.to()
                + (newerStamped != null && newerStamped.equals(oldest) ? ", which took a record stamped "
                        + Instant.ofEpochMilli(newerStamp) : "")
                + "; older ones were removed). Restore with a later bound, or without one for the newest snapshot");
    }

    private static String reason(ObjectName o, ObjectName newest, Long untilOffset, Long untilTimestampMs, ObjectName newerStamped,
                                 long newerStamp) {
        if (o.equals(newest)) {
            return "the newest, at or before " + bound(untilOffset, untilTimestampMs);
        }
        StringBuilder s = new StringBuilder("the newest at or before ").append(bound(untilOffset, untilTimestampMs));
        if (newerStamped != null) {
            s.append("; the newer ").append(newerStamped).append(" took a record stamped ").append(Instant.ofEpochMilli(newerStamp));
        }
        s.append("; the records after offset ").append(o.to());
        if (untilOffset != null && untilOffset > o.to()) {
            s.append(" up to ").append(untilOffset);
        }
        s.append(" are in no snapshot at or before it, so the restored state is as of offset ").append(o.to());
        return s.toString();
    }

    private static String bound(Long untilOffset, Long untilTimestampMs) {
        String off = untilOffset == null ? null : "offset " + untilOffset;
        String ts = untilTimestampMs == null ? null : "timestamp " + Instant.ofEpochMilli(untilTimestampMs);
        return off != null && ts != null ? off + " and " + ts : off != null ? off : ts;
    }
}
