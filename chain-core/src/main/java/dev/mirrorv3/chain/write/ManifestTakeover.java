package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.manifest.Manifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Whether a writer can take another writer's manifest, found right after the newest one it knows, as the newest instead
 * of stopping (docs/blob-sink.md, "Chain manifests"). This happens when a task instance that Connect gave up on (its stop
 * timed out) closes the partition after the new instance opened it: the old one writes the manifest of its last objects,
 * which the new one found after the newest manifest and was about to cover itself. The manifest can be taken when it
 * continues the hash chain from the manifest the writer knows, records the same chain start, and covers only objects the
 * writer knows, from the first on: those it found after the newest manifest when it opened the partition, then those it
 * committed itself (recorded with the same size and SHA-256), then those listed after its own (the old instance's last
 * object, written after the new one opened). Anything else is work the writer must not build on.
 *
 * @param covered how many objects the manifest covers
 * @param foundCovered how many of the objects found at open it covers
 * @param waitingCovered how many of the writer's own committed objects it covers
 * @param refusal why it cannot be taken, or null when it can
 */
record ManifestTakeover(int covered, int foundCovered, int waitingCovered, String refusal) {

    boolean taken() {
        return refusal == null;
    }

    /**
     * @param newest the link to the newest manifest the writer knows (null: none)
     * @param found the objects the writer found after it when it opened the partition and has not covered yet
     * @param waiting the objects the writer committed since, oldest first
     * @param beyond objects listed after the writer's own, whose bytes it never saw (empty: none)
     */
    static ManifestTakeover of(Manifest other, Manifest.Link newest, long start, List<ObjectName> found, List<Manifest.Entry> waiting,
                               List<ObjectName> beyond) {
        if (!Objects.equals(other.previous(), newest)) {
            return refused("it does not follow that manifest but " + (other.previous() == null ? "none" : other.previous().name()));
        }
        if (other.start() != start) {
            return refused("it records the chain's start at offset " + other.start() + ", this task at " + start);
        }
        List<ObjectName> known = new ArrayList<>(found);
        waiting.forEach(e -> known.add(e.name()));
        known.addAll(beyond);
        int covered = other.recorded() ? other.objects().size() : known.indexOf(other.last()) + 1;
        if (covered == 0 || covered > known.size() || !known.get(0).equals(firstOf(other, known))) {
            return refused("it covers objects up to " + other.last() + ", beyond those this task found or wrote");
        }
        for (int i = 0; i < covered && other.recorded(); i++) {
            Manifest.Entry e = other.objects().get(i);
            if (!e.name().equals(known.get(i))) {
                return refused("it records " + e.name() + " where this task knows " + known.get(i));
            }
            int own = i - found.size();
            if (own >= 0 && own < waiting.size() && !e.equals(waiting.get(own))) {
                return refused("its record of " + e.name() + " (size, SHA-256) differs from what this task wrote");
            }
        }
        int fromFound = Math.min(covered, found.size());
        return new ManifestTakeover(covered, fromFound, Math.min(covered - fromFound, waiting.size()), null);
    }

    /** The first object the manifest covers, as far as can be told: recorded, or the range's start in the writer's list. */
    private static ObjectName firstOf(Manifest other, List<ObjectName> known) {
        if (other.recorded()) {
            return other.objects().get(0).name();
        }
        return known.get(0).from() == other.range().from() ? known.get(0) : null;
    }

    private static ManifestTakeover refused(String why) {
        return new ManifestTakeover(0, 0, 0, why);
    }
}
