package dev.mirrorv3.chain.manifest;

import dev.mirrorv3.chain.FutureReads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads a partition's manifests, several at once: one per 1,000 objects, so a chain of years has hundreds, and reading
 * them one after the other makes a verify pass wait for each request in turn. They come back in their names' order, and a
 * read's failure is thrown when its turn comes, never a later manifest's first: what reading them one after the other
 * would throw.
 */
final class ManifestReads {
    private ManifestReads() {
    }

    /** @param parallel how many reads run at once at most (1 or less: one after the other, on the caller's thread) */
    static List<StoredManifest> read(ChainListing listing, List<ManifestName> names, int parallel) {
        if (parallel < 2 || names.size() < 2) {
            return names.stream().map(listing::read).toList();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallel, names.size()), r -> {
            Thread t = new Thread(r, "mirror-v3-manifests-" + listing.partition());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<StoredManifest>> reads = new ArrayList<>(names.size());
            names.forEach(n -> reads.add(pool.submit(() -> listing.read(n))));
            List<StoredManifest> read = new ArrayList<>(names.size());
            for (Future<StoredManifest> f : reads) {
                read.add(FutureReads.take(f, "the manifests of " + listing.location()));
            }
            return read;
        } finally {
            pool.shutdownNow(); // after a failure, the reads not taken are dropped
        }
    }
}
