package dev.mirrorv3.chain.store;

import java.util.List;

/**
 * What a writer's open of a partition lists ({@link Store#removeTemporaryFilesAndListFrom}): the names from a name on, and
 * how many temporary files an earlier writer left there were removed.
 */
public record OpeningListing(List<String> names, int temporaryFilesRemoved) {
    public OpeningListing {
        names = List.copyOf(names);
    }
}
