package dev.mirrorv3.chain.snapshot;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * How long the work the blob sink does on its task thread with compaction=log takes for a large key space
 * (docs/blob-sink.md, "Compacted topics", time on the task thread): a partition's first snapshot of KEYS keys, the full read
 * and check of the newest snapshot that {@code open()} does, and the next snapshot, which merges UPDATES changed keys
 * with the previous one streamed back. Filesystem store, no encryption, 100-byte values, 16-byte keys, the builder
 * capped at buffer.max.bytes' default (128 MiB; it spills past it). Run by bench/run-snapshot-scale-bench.
 */
public final class SnapshotScaleBench {
    private static final String TOPIC = "states";
    private static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();
    private static final long MEMORY_CAP = 128L * 1024 * 1024;

    private SnapshotScaleBench() {
    }

    public static void main(String[] args) throws IOException {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int updates = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        Path root = Files.createTempDirectory("snapshot-scale");
        try {
            FilesystemStore store = new FilesystemStore(root.resolve("store"), "backup");
            SnapshotReader reader = new SnapshotReader(store, SETTINGS, KeyRing.empty());
            Random random = new Random(7);

            SnapshotWriter first = writer(store, reader, root, 0);
            for (int k = 0; k < keys; k++) {
                first.append(record(k, k, random));
            }
            long t0 = System.nanoTime();
            first.flush(FlushTrigger.TIME).orElseThrow();
            long firstMs = (System.nanoTime() - t0) / 1_000_000;
            SnapshotWriter.Stats stats = first.lastSnapshot().orElseThrow();

            t0 = System.nanoTime();
            ChainHead chain = reader.head(0); // what SnapshotPositioner.open does per partition
            long checked;
            try (CheckedSnapshot s = reader.open(0, chain.last().orElseThrow(), TOPIC, root.resolve("open"))) {
                checked = s.checkAll();
            }
            long openMs = (System.nanoTime() - t0) / 1_000_000;

            SnapshotWriter next = writer(store, reader, root, keys);
            for (int i = 0; i < updates; i++) {
                next.append(record(keys + i, random.nextInt(keys), random));
            }
            t0 = System.nanoTime();
            next.flush(FlushTrigger.TIME).orElseThrow();
            long nextMs = (System.nanoTime() - t0) / 1_000_000;

            System.out.printf("keys=%d snapshot_bytes=%d first_snapshot_ms=%d open_read_and_check_ms=%d (%d records)"
                    + " next_snapshot_ms=%d (%d changed keys merged)%n", keys, stats.objectBytes(), firstMs, openMs, checked, nextMs,
                    updates);
        } finally {
            try (var files = Files.walk(root)) {
                files.sorted(Comparator.reverseOrder()).forEach(SnapshotReader::deleteQuietly);
            }
        }
    }

    private static SnapshotWriter writer(FilesystemStore store, SnapshotReader reader, Path root, long start) {
        ChainHead chain = reader.head(0);
        return new SnapshotWriter(store, TOPIC, 0, new SnapshotWriter.Settings(SETTINGS,
                new ParquetCodec(SETTINGS, ObjectEncryption.none()), reader,
                new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000), Clock.systemUTC(), MEMORY_CAP), chain,
                chain.nextOffset().orElse(start), root.resolve("spill"));
    }

    private static BackupRecord record(long offset, int key, Random random) {
        byte[] value = new byte[100];
        random.nextBytes(value);
        return new BackupRecord(TOPIC, 0, offset, 1_000L + offset, TimestampType.CREATE_TIME,
                String.format("key-%012d", key).getBytes(StandardCharsets.UTF_8), value, List.of());
    }
}
