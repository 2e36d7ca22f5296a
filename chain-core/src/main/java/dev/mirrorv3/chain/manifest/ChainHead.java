package dev.mirrorv3.chain.manifest;

import dev.mirrorv3.chain.ObjectName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The end of a partition's chain as a writer opens it ({@link ChainListing#head}): the newest manifest, if any, and the
 * objects after the last one it covers (every object when there is no manifest), validated. What the sink needs to
 * continue a chain, found without listing what the manifests cover.
 *
 * @param location the partition's location, for messages
 * @param after the objects after the newest manifest's last object, in order
 */
public record ChainHead(String location, Optional<StoredManifest> manifest, List<ObjectName> after) {

    public ChainHead {
        after = List.copyOf(after);
    }

    /** A partition that holds nothing yet. */
    public static ChainHead empty(String location) {
        return new ChainHead(location, Optional.empty(), List.of());
    }

    public boolean isEmpty() {
        return manifest.isEmpty() && after.isEmpty();
    }

    /** The chain's last object (the newest snapshot of a series). */
    public Optional<ObjectName> last() {
        return after.isEmpty() ? manifest.map(m -> m.manifest().last()) : Optional.of(after.get(after.size() - 1));
    }

    /** The offset after the chain's last object; empty for an empty chain. */
    public OptionalLong nextOffset() {
        return last().map(o -> OptionalLong.of(o.to() + 1)).orElse(OptionalLong.empty());
    }

    /**
     * One object per key id the whole chain uses (the newest manifest lists those of the objects it and the manifests
     * before it cover), and the objects after it: what a reader needs keys for.
     */
    public List<ObjectName> keyedObjects() {
        List<ObjectName> objects = new ArrayList<>();
        manifest.ifPresent(m -> m.manifest().keyIds().values().forEach(n -> ObjectName.parse(n).ifPresent(objects::add)));
        objects.addAll(after);
        return objects;
    }

    /** For logs: how the chain's end was found. */
    public String describe() {
        return manifest.map(m -> "newest manifest " + m.name() + " (up to " + m.manifest().last() + "), " + after.size()
                + " object(s) after it").orElse(after.size() + " object(s), no manifest yet");
    }
}
