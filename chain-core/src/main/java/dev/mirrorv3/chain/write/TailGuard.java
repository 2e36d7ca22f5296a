package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.manifest.ChainListing;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks around a writer's create that keep a second writer (a zombie task, another connector) from extending a
 * partition's objects unnoticed (docs/design.md): before the create, the writer's last object is still the newest and
 * nothing but its own pending commit follows it (one short listing, O(1) in the number of objects); after it, no other
 * object starts where the new one does. Shared by {@link ChainWriter} and the snapshot writer.
 */
public record TailGuard(ChainListing listing, Kind kind) {
    /**
     * How the messages name what is written: a chain's objects or a compacted topic's snapshots.
     *
     * @param newest what the last one listed is, e.g. "the chain's last object"
     * @param none what the listing says when it holds nothing, e.g. "holds no object any more"
     */
    public record Kind(String tail, String appearedInEmpty, String endsAt, String whatToCheck, String newest, String none) {
        public static final Kind CHAIN = new Kind("the last object this task wrote or found",
                "appeared in an empty chain that this task is about to start at offset ", "this task's chain ends at ", "the chain",
                "the chain's last object", "holds no object any more");
        public static final Kind SNAPSHOTS = new Kind("the newest snapshot this task wrote or found",
                "appeared where this task is about to write its first snapshot from offset ", "its newest snapshot is ", "the snapshots",
                "the newest snapshot", "holds no snapshot any more");
    }

    /**
     * Before a create: {@code tail} (null: none yet) is still the newest object, followed by nothing but {@code pending}
     * (null: none), which may have landed in an earlier attempt. Whether an object at the pending name is ours is up to
     * the store's recommit: it holds exactly the pending bytes or it is not.
     *
     * @throws ChainChangedException naming the object that differs
     */
    public void checkTail(ObjectName tail, ObjectName pending, long durableNext) {
        String startAt = tail == null ? "" : ObjectName.pad(tail.from());
        List<String> names = new ArrayList<>(listing.namesFrom(startAt, pending == null ? 2 : 3));
        if (pending != null) {
            int at = tail == null ? 0 : 1;
            if (names.size() > at && names.get(at).equals(pending.fileName())) {
                names.remove(at);
            }
        }
        if (tail == null) {
            if (!names.isEmpty()) {
                throw new ChainChangedException(where() + names.get(0) + " " + kind.appearedInEmpty() + durableNext + advice());
            }
            return;
        }
        if (names.isEmpty() || !names.get(0).equals(tail.fileName())) {
            String found = names.isEmpty() ? "nothing" : names.get(0);
            throw new ChainChangedException(where() + tail + ", " + kind.tail() + ", is gone or preceded by " + found + advice());
        }
        if (names.size() > 1) {
            throw new ChainChangedException(where() + names.get(1) + " was not written by this task; " + kind.endsAt() + tail
                    + ", next offset " + durableNext + advice());
        }
    }

    /** After a create: no other object starts where {@code written} does (a zombie or a second writer racing us). */
    public void checkNoTwin(ObjectName written) {
        for (String n : listing.namesFrom(ObjectName.pad(written.from()), 2)) {
            if (!n.equals(written.fileName()) && n.startsWith(ObjectName.pad(written.from()))) {
                throw new ChainChangedException(where() + n + " starts at the same offset as " + written
                        + ", which this task just wrote: two writers on one partition" + advice());
            }
        }
    }

    /** What to do when the destination changed under the writer. */
    public String advice() {
        return adviceFor(kind.whatToCheck());
    }

    /** What to do when the destination changed under a writer, for messages about {@code whatToCheck} (e.g. the chain). */
    static String adviceFor(String whatToCheck) {
        return ". A second writer (another connector or a zombie task on the same destination) or a manual change;"
                + " stop the other writer, check " + whatToCheck + " (mirror-v3 restore --verify-only), then restart the task";
    }

    /** Where an object of the partition is, for the messages: the partition's location and a slash. */
    private String where() {
        return listing.location() + "/";
    }
}
