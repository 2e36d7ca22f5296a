package dev.mirrorv3.chain;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** A validated chain: objects sorted by offset, contiguous, no overlap. Possibly empty. */
public record Chain(String location, List<ObjectName> objects) {

    public Chain {
        objects = List.copyOf(objects);
    }

    public boolean isEmpty() {
        return objects.isEmpty();
    }

    /** The offset after the chain's last object ({@code max(to) + 1}); empty for an empty chain. */
    public OptionalLong nextOffset() {
        return objects.isEmpty() ? OptionalLong.empty() : OptionalLong.of(objects.get(objects.size() - 1).to() + 1);
    }

    public Optional<ObjectName> first() {
        return objects.isEmpty() ? Optional.empty() : Optional.of(objects.get(0));
    }

    public Optional<ObjectName> last() {
        return objects.isEmpty() ? Optional.empty() : Optional.of(objects.get(objects.size() - 1));
    }
}
