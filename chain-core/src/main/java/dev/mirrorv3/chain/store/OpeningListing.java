package dev.mirrorv3.chain.store;

import java.util.List;
import java.util.Optional;

/**
 * What a writer's open of a partition lists ({@link Store#removeTemporaryFilesAndListFrom}): the names from a name on, how
 * many temporary files an earlier writer left there were removed, and the partition's first name when the listing saw
 * every name anyway (a filesystem's directory read), so that the chain's start is known without another read.
 */
public record OpeningListing(List<String> names, int temporaryFilesRemoved, Optional<String> first) {
    public OpeningListing {
        names = List.copyOf(names);
    }

    /** A listing that saw only the names from its start on. */
    public OpeningListing(List<String> names, int temporaryFilesRemoved) {
        this(names, temporaryFilesRemoved, Optional.empty());
    }
}
