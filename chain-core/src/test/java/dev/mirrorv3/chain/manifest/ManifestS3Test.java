package dev.mirrorv3.chain.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.chain.store.s3.S3Identity;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.chain.write.ManifestKeeper;
import dev.mirrorv3.chain.write.TailGuard;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What opening a chain and checking it cost on S3 (ListObjectsV2 pages, counted by the store's request metric and by the
 * server): with manifests the same for a chain of 1,500 objects as for one of 4,500; without, one page per 1,000 objects.
 */
class ManifestS3Test {
    private static final String BUCKET = "backups";
    private static final EnvelopeFormat FORMAT = EnvelopeFormat.PARQUET;
    private static S3TestServer server;

    @BeforeAll
    static void start() {
        server = S3TestServer.start("admin", "admin-secret-value");
        server.createBucket(BUCKET);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static S3Store store(String prefix, StoreRequests requests) {
        S3Identity id = new S3Identity("admin", "admin", "admin-secret-value");
        return new S3Store(S3Settings.of(Optional.of(server.endpoint()), "us-east-1", BUCKET, prefix, true, id, id)
                .withCallTimeout(Duration.ofSeconds(10)), "m", requests);
    }

    /** A chain of {@code n} objects put straight into the bucket, with manifests written by a keeper when asked. */
    private static void chain(String prefix, int n, boolean manifests) {
        try (S3Store store = store(prefix, new StoreRequests())) {
            ChainListing listing = new ChainListing(store, 0, Manifest.Kind.CHAIN);
            ManifestKeeper keeper = new ManifestKeeper(listing, ChainHead.empty(store.location(0)), 0, Clock.systemUTC());
            for (long o = 0; o < n; o++) {
                byte[] bytes = ("o" + o).getBytes(StandardCharsets.UTF_8);
                ObjectName name = ObjectName.plain(o, o, FORMAT);
                server.putDirect(BUCKET, prefix + "/m/0/" + name.fileName(), bytes);
                keeper.committed(name, bytes.length, ManifestCodec.sha256(bytes));
            }
            if (manifests) {
                keeper.writeWaiting();
            }
        }
    }

    /** Opens the chain as a writer does and runs the periodic check; returns the ListObjectsV2 requests of each. */
    private static long[] listsToOpenAndCheck(String prefix) {
        StoreRequests requests = new StoreRequests();
        try (S3Store store = store(prefix, requests)) {
            ChainListing listing = new ChainListing(store, 0, Manifest.Kind.CHAIN);
            server.resetCalls();
            ChainHead head = listing.writersHead(FORMAT); // as the sink opens it: no request of its own to remove temporary files
            long open = requests.count(StoreRequests.Operation.LIST);
            assertThat(server.calls("list")).as("the server counts what the metric counts").isEqualTo((int) open);
            ManifestKeeper keeper = new ManifestKeeper(listing, head, 0, Clock.systemUTC());
            keeper.periodicCheck(FORMAT, head.last().orElseThrow(), null, TailGuard.Kind.CHAIN);
            return new long[] {open, requests.count(StoreRequests.Operation.LIST) - open};
        }
    }

    @Test
    void openingAndCheckingListOnlyAfterTheNewestManifestWhateverTheChainsLength() {
        chain("short", 1500, true);
        chain("long", 4500, true);
        chain("old", 4500, false);
        long[] shortChain = listsToOpenAndCheck("short");
        long[] longChain = listsToOpenAndCheck("long");
        assertThat(shortChain).as("1,500 objects: the manifests' listing, the objects after the newest and the chain's first"
                + " object (where it starts); then the objects after the newest and the probe").containsExactly(3, 2);
        assertThat(longChain).as("4,500 objects cost the same").containsExactly(3, 2);
        long[] withoutManifests = listsToOpenAndCheck("old");
        assertThat(withoutManifests[0]).as("without manifests: one page per 1,000 objects, and the manifests' empty listing")
                .isEqualTo(6);
    }
}
