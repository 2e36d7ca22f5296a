package dev.mirrorv3.bench.chains;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.Compression;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.write.ManifestKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Synthesises a long chain quickly: {@code objects} tiny NDJSON objects of one record each ({@code [i, i]}), created through
 * the product's own store ({@link Store#create}: the filesystem's link and fsyncs, S3's conditional PutObject) on a few
 * threads, and, when asked, the manifests a writer would have written for them (one per 1,000 objects, through
 * {@link ManifestKeeper}). What the sink then finds is exactly what it would find after that many flushes.
 */
public final class ChainSynth {
    /** The chain's format: NDJSON (a one-record object encodes in microseconds; the connector's format must match). */
    public static final EnvelopeSettings SETTINGS = new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED,
            ValueType.BYTES, ValueType.BYTES);
    private static final int BATCH = ManifestKeeper.MAX_OBJECTS;

    private ChainSynth() {
    }

    /**
     * Writes objects {@code [0, objects)} of partition 0 of {@code topic}'s chain into {@code store}.
     *
     * @param manifests whether to write the manifests too (a chain written by a version with manifests)
     */
    public static void write(Store store, String topic, int objects, boolean manifests, int threads) throws Exception {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(SETTINGS);
        ChainListing listing = new ChainListing(store, 0, Manifest.Kind.CHAIN);
        ManifestKeeper keeper = new ManifestKeeper(listing, ChainHead.empty(store.location(0)), 0, Clock.systemUTC());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int from = 0; from < objects; from += BATCH) {
                int to = Math.min(objects, from + BATCH);
                List<Future<byte[]>> created = new ArrayList<>();
                for (int i = from; i < to; i++) {
                    long offset = i;
                    created.add(pool.submit(() -> create(store, offset, codec.encode(List.of(record(topic, offset))))));
                }
                for (int i = from; i < to; i++) {
                    byte[] bytes = created.get(i - from).get();
                    keeper.committed(name(i), bytes.length, ManifestCodec.sha256(bytes));
                }
                if (manifests) {
                    keeper.writeWaiting();
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Creates one object, re-issuing a commit that failed transiently (an S3Proxy busy with the other threads' PUTs) as
     * the sink does: the same bytes, a name holding exactly them taken as this commit.
     */
    private static byte[] create(Store store, long offset, byte[] bytes) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                if (attempt == 1) {
                    store.create(0, name(offset).fileName(), bytes);
                } else {
                    store.recommit(0, name(offset).fileName(), bytes);
                }
                return bytes;
            } catch (TransientStoreException e) {
                if (attempt == 10) {
                    throw e;
                }
                Thread.sleep(200L * attempt);
            }
        }
    }

    public static ObjectName name(long offset) {
        return ObjectName.plain(offset, offset, SETTINGS.format());
    }

    private static BackupRecord record(String topic, long offset) {
        return new BackupRecord(topic, 0, offset, 1_700_000_000_000L + offset, TimestampType.CREATE_TIME, null,
                ("v" + offset).getBytes(StandardCharsets.UTF_8), List.of());
    }
}
