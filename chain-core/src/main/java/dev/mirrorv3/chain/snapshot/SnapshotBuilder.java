package dev.mirrorv3.chain.snapshot;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordStream;
import dev.mirrorv3.chain.envelope.RecordTypeCheck;
import dev.mirrorv3.chain.envelope.ValueTypeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Gathers one partition's records since its last snapshot and merges them with that snapshot into the next one, without
 * holding the key space on the heap: the latest record per key is kept in a sorted map until it reaches its memory cap
 * (or the task asks, {@link #spill()}), then written as a sorted run to the spill directory; {@link #merge} is a k-way
 * merge of the previous snapshot, the runs and the map, by key (unsigned bytes, as the snapshot is sorted), where the
 * record with the highest offset wins and a winning tombstone (null value) removes its key. Memory: the map's cap plus
 * one buffered reader per run. Not thread-safe.
 */
public final class SnapshotBuilder implements AutoCloseable {
    /** Rough heap cost of one map entry beyond its payload (map node, record, arrays' headers). */
    static final long ENTRY_OVERHEAD = 160;
    private static final Comparator<byte[]> KEY_ORDER = Arrays::compareUnsigned;

    private final String topic;
    private final int partition;
    private final Path spillDir;
    private final long maxMemoryBytes;
    private final RecordTypeCheck typeCheck;
    private final TreeMap<byte[], BackupRecord> latest = new TreeMap<>(KEY_ORDER);
    private final List<Path> runs = new ArrayList<>();
    private long memoryBytes;
    private long records;
    private long tombstones;
    private long payloadBytes;
    private TakenStamps stamps = TakenStamps.NOTHING;

    /**
     * @param spillDir where sorted runs go (created if needed; this builder's own)
     * @param maxMemoryBytes the map is spilled when it holds more than this
     */
    public SnapshotBuilder(String topic, int partition, Path spillDir, long maxMemoryBytes, RecordTypeCheck typeCheck) {
        this.topic = topic;
        this.partition = partition;
        this.spillDir = spillDir;
        this.maxMemoryBytes = maxMemoryBytes;
        this.typeCheck = typeCheck;
    }

    /**
     * Takes the partition's next record (offsets increasing).
     *
     * @throws ValueTypeException for a null key or a key or value that does not fit its type (names topic, partition, offset)
     */
    public void add(BackupRecord r) {
        if (r.key() == null) {
            throw new ValueTypeException("record " + r.topic() + "/" + r.partition() + " at offset " + r.offset() + " has a null key,"
                    + " and compaction=log keeps the latest record per key: a compacted topic has no records without a key."
                    + " Back this topic up as a chain (compaction=none)");
        }
        typeCheck.check(r);
        BackupRecord old = latest.put(r.key(), r);
        if (old != null) {
            memoryBytes -= cost(old);
        }
        memoryBytes += cost(r);
        records++;
        payloadBytes += r.payloadBytes();
        if (r.value() == null) {
            tombstones++;
        }
        stamps = stamps.and(r.timestampMs()); // every record taken, also one the merge drops (TakenStamps)
        if (memoryBytes > maxMemoryBytes) {
            spill();
        }
    }

    private static long cost(BackupRecord r) {
        return r.payloadBytes() + ENTRY_OVERHEAD;
    }

    /** Heap bytes the map holds (an estimate). */
    public long memoryBytes() {
        return memoryBytes;
    }

    /** Records taken since the last {@link #clear()}. */
    public long records() {
        return records;
    }

    /** Payload bytes of the records taken since the last {@link #clear()} (what {@code flush.max.bytes} counts). */
    public long payloadBytes() {
        return payloadBytes;
    }

    /** Tombstones taken since the last {@link #clear()}. */
    public long tombstones() {
        return tombstones;
    }

    /** The newest stamp of the records taken since the last {@link #clear()}. */
    public TakenStamps stamps() {
        return stamps;
    }

    /** Sorted runs on disk. */
    public int runs() {
        return runs.size();
    }

    /** Writes the map as a sorted run and empties it; returns the heap bytes released. */
    public long spill() {
        if (latest.isEmpty()) {
            return 0;
        }
        Path run;
        try {
            Files.createDirectories(spillDir);
            run = Files.createTempFile(spillDir, "run-", ".bin");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a spill file in " + spillDir + ": check its free space and permissions, or"
                    + " set compaction.spill.dir", e);
        }
        SpillRun.write(run, latest.values());
        runs.add(run);
        long released = memoryBytes;
        latest.clear();
        memoryBytes = 0;
        return released;
    }

    /**
     * Merges the previous snapshot (or none) with everything taken, in key order, into {@code out}.
     *
     * @param previous the previous snapshot's records in key order, or null for the first snapshot
     * @return the number of keys written
     */
    public long merge(RecordStream previous, Consumer<BackupRecord> out) {
        List<RecordStream> sources = new ArrayList<>();
        try {
            if (previous != null) {
                sources.add(previous);
            }
            for (Path run : runs) {
                sources.add(SpillRun.read(run, topic, partition));
            }
            sources.add(iterate(latest.values()));
            return merge(sources, out);
        } finally {
            for (int i = previous == null ? 0 : 1; i < sources.size(); i++) {
                sources.get(i).close();
            }
        }
    }

    private static long merge(List<RecordStream> sources, Consumer<BackupRecord> out) {
        record Head(BackupRecord record, RecordStream source) {
        }
        PriorityQueue<Head> heads = new PriorityQueue<>(Math.max(1, sources.size()), (a, b) -> {
            int c = KEY_ORDER.compare(a.record().key(), b.record().key());
            return c != 0 ? c : Long.compare(b.record().offset(), a.record().offset()); // newest first
        });
        for (RecordStream s : sources) {
            BackupRecord r = s.next();
            if (r != null) {
                heads.add(new Head(r, s));
            }
        }
        long keys = 0;
        while (!heads.isEmpty()) {
            Head winner = heads.poll();
            advance(heads, winner.source(), Head::new);
            while (!heads.isEmpty() && Arrays.equals(heads.peek().record().key(), winner.record().key())) {
                advance(heads, heads.poll().source(), Head::new);
            }
            if (winner.record().value() != null) {
                out.accept(winner.record());
                keys++;
            }
        }
        return keys;
    }

    private static <H> void advance(PriorityQueue<H> heads, RecordStream source,
            java.util.function.BiFunction<BackupRecord, RecordStream, H> head) {
        BackupRecord next = source.next();
        if (next != null) {
            heads.add(head.apply(next, source));
        }
    }

    private static RecordStream iterate(Iterable<BackupRecord> records) {
        var it = records.iterator();
        return new RecordStream() {
            @Override
            public BackupRecord next() {
                return it.hasNext() ? it.next() : null;
            }

            @Override
            public void close() {
            }
        };
    }

    /** Forgets everything taken and removes the runs (after a snapshot is durable, or when the partition is closed). */
    public void clear() {
        latest.clear();
        memoryBytes = 0;
        records = 0;
        tombstones = 0;
        payloadBytes = 0;
        stamps = TakenStamps.NOTHING;
        for (Path run : runs) {
            SnapshotReader.deleteQuietly(run);
        }
        runs.clear();
    }

    @Override
    public void close() {
        clear();
    }
}
