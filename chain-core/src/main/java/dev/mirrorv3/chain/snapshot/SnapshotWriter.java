package dev.mirrorv3.chain.snapshot;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.RecordTypeCheck;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushResult;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.chain.write.ManifestKeeper;
import dev.mirrorv3.chain.write.PartitionWriter;
import dev.mirrorv3.chain.write.TailGuard;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.apache.parquet.hadoop.ParquetWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one partition's snapshots ({@code compaction=log}): gathers the records since the newest snapshot in a
 * {@link SnapshotBuilder}, and on a trigger merges them with that snapshot (streamed back from the store) into the next
 * one, {@code <previous to + 1>-<last offset taken>}, holding the latest record per live key sorted by key bytes. The
 * snapshot is built in a local file and committed from it with the store's no-overwrite commit, after the same O(1)
 * tail check as a chain; a commit that fails is frozen (that file, that name) and re-issued as it is until it is known
 * durable, while later records gather for the snapshot after it. Each snapshot committed is recorded for the series'
 * next manifest ({@link ManifestKeeper}).
 */
public final class SnapshotWriter implements PartitionWriter {
    private static final Logger log = LoggerFactory.getLogger(SnapshotWriter.class);
    /** Footer key-value metadata that tells a snapshot from a chain object (tools, and people reading footers). */
    public static final Map<String, String> FOOTER = Map.of("mirror-v3.compaction", "log");
    /** Row groups are cut at this size, so parquet-mr's write buffer stays small however many keys there are. */
    static final long ROW_GROUP_BYTES = 8L * 1024 * 1024;

    private final Store store;
    private final String topic;
    private final int partition;
    private final ParquetCodec codec;
    private final SnapshotReader reader;
    private final FlushPolicy policy;
    private final Clock clock;
    private final Path spillDir;
    private final String location;
    private final TailGuard guard;
    private final ManifestKeeper manifests;
    private final SnapshotBuilder builder;

    private long durableNext;
    private ObjectName tail;
    private long lastTaken = -1;
    private long firstTakenAtMs = -1;
    private long lastFlushAtMs;
    private Pending pending;
    private Stats last;

    /** A snapshot whose commit was issued but is not known durable. */
    private record Pending(ObjectName name, Path file, long records, long memoryBytes, long keys, long tombstones, long buildMs) {
    }

    /** What the last committed snapshot holds, for metrics. */
    public record Stats(ObjectName name, long keys, long objectBytes, long durationMs, long tombstones) {
    }

    /**
     * What a partition's snapshots are encoded, read back, triggered and buffered with.
     *
     * @param envelope the records' format, checked as they are taken
     * @param reader reads the newest snapshot back, to merge the next one with it
     * @param maxMemoryBytes the builder's cap before it spills on its own
     */
    public record Settings(EnvelopeSettings envelope, ParquetCodec codec, SnapshotReader reader, FlushPolicy policy, Clock clock,
                           long maxMemoryBytes) {
    }

    /**
     * @param head the partition's snapshots as opened: the newest manifest and the snapshots after it
     * @param startOffset the newest snapshot's {@code to + 1}, or the source's log-start offset if there is none
     * @param spillDir this partition's own spill directory (emptied now: leftovers of an earlier task)
     */
    public SnapshotWriter(Store store, String topic, int partition, Settings settings, ChainHead head, long startOffset,
                          Path spillDir) {
        this.store = store;
        this.topic = topic;
        this.partition = partition;
        this.codec = settings.codec();
        this.reader = settings.reader();
        this.policy = settings.policy();
        this.clock = settings.clock();
        this.spillDir = spillDir;
        this.location = store.location(partition);
        ChainListing listing = new ChainListing(store, partition, Manifest.Kind.SNAPSHOTS);
        this.guard = new TailGuard(listing, TailGuard.Kind.SNAPSHOTS);
        this.manifests = new ManifestKeeper(listing, head, startOffset, clock);
        this.tail = head.last().orElse(null);
        this.durableNext = startOffset;
        this.lastFlushAtMs = clock.millis();
        emptyDirectory(spillDir);
        this.builder = new SnapshotBuilder(topic, partition, spillDir.resolve("runs"), settings.maxMemoryBytes(),
                new RecordTypeCheck(settings.envelope()));
    }

    @Override
    public long durableNext() {
        return durableNext;
    }

    @Override
    public long expectedNext() {
        return lastTaken >= 0 ? lastTaken + 1 : pending != null ? pending.name().to() + 1 : durableNext;
    }

    @Override
    public long bufferedBytes() {
        return builder.memoryBytes() + (pending == null ? 0 : pending.memoryBytes());
    }

    @Override
    public long bufferedRecords() {
        return builder.records() + (pending == null ? 0 : pending.records());
    }

    public Optional<ObjectName> tail() {
        return Optional.ofNullable(tail);
    }

    /** The last snapshot committed (its metrics); empty before the first. */
    public Optional<Stats> lastSnapshot() {
        return Optional.ofNullable(last);
    }

    @Override
    public boolean append(BackupRecord record) {
        if (record.offset() < expectedNext()) {
            return false;
        }
        builder.add(record);
        if (firstTakenAtMs < 0) {
            firstTakenAtMs = clock.millis();
        }
        lastTaken = record.offset();
        return true;
    }

    /** Moves the gathered records to disk (the task-wide buffer cap); returns the heap bytes released. */
    public long spill() {
        return builder.spill();
    }

    @Override
    public Optional<FlushTrigger> sizeTrigger() {
        if (builder.records() >= policy.maxRecords()) {
            return Optional.of(FlushTrigger.RECORDS);
        }
        if (builder.payloadBytes() >= policy.maxBytes()) {
            return Optional.of(FlushTrigger.BYTES);
        }
        return Optional.empty();
    }

    @Override
    public long msUntilTimeTrigger(long nowMs) {
        if (pending != null) {
            return 0;
        }
        if (builder.records() == 0) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, firstTakenAtMs + policy.maxTimeMs() - nowMs);
    }

    @Override
    public Optional<FlushResult> flush(FlushTrigger trigger) {
        if (pending == null && builder.records() == 0) {
            return Optional.empty();
        }
        long started = clock.millis();
        Pending commit = pending;
        if (commit == null) {
            commit = build();
            pending = commit;
            // The tail check comes after the build, right before the create: a task frozen or descheduled while it
            // merges (its partition moved meanwhile) must meet the moved task's snapshot before it adds its own.
            guard.checkTail(tail, pending == null ? null : pending.name(), durableNext);
            store.createFrom(partition, commit.name().fileName(), commit.file(), false);
        } else {
            guard.checkTail(tail, pending == null ? null : pending.name(), durableNext);
            log.info("re-issuing the commit of snapshot {}/{}, whose outcome an earlier attempt could not learn", location, commit.name());
            store.createFrom(partition, commit.name().fileName(), commit.file(), true);
        }
        guard.checkNoTwin(commit.name());
        long bytes = size(commit.file());
        manifests.committed(commit.name(), bytes, ManifestCodec.sha256(commit.file()));

        long now = clock.millis();
        ObjectName name = commit.name();
        FlushResult result = new FlushResult(name, location + "/" + name, (int) Math.min(Integer.MAX_VALUE, commit.records()),
                commit.memoryBytes(), bytes, now - started, now - lastFlushAtMs, trigger);
        log.info("flushed snapshot path={} from={} to={} records={} keys={} tombstones={} bytes={} build_ms={} elapsed_ms={}"
                        + " interval_ms={} trigger={}", result.location(), name.from(), name.to(), commit.records(), commit.keys(),
                commit.tombstones(), bytes, commit.buildMs(), result.elapsedMs(), result.intervalMs(), trigger);
        last = new Stats(name, commit.keys(), bytes, commit.buildMs(), commit.tombstones());
        tail = name;
        durableNext = name.to() + 1;
        lastFlushAtMs = now;
        SnapshotReader.deleteQuietly(commit.file());
        pending = null;
        return Optional.of(result);
    }

    /** Merges the newest snapshot with the gathered records into a local file; the builder starts over. */
    private Pending build() {
        long started = clock.millis();
        ObjectName name = new ObjectName(durableNext, lastTaken, EnvelopeFormat.PARQUET, codec.writeKeyId());
        Path file = spillDir.resolve("snapshot-" + name.fileName());
        SnapshotReader.deleteQuietly(file);
        long keys;
        try (ParquetWriter<BackupRecord> out = codec.openWriter(file, ROW_GROUP_BYTES, footer());
             CheckedSnapshot previous = tail == null ? null : reader.open(partition, tail, topic, spillDir)) {
            keys = builder.merge(previous, r -> {
                try {
                    out.write(r);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write the snapshot " + file, e);
                }
            });
        } catch (IOException e) {
            SnapshotReader.deleteQuietly(file);
            throw new UncheckedIOException("cannot write the snapshot " + file, e);
        } catch (RuntimeException e) {
            SnapshotReader.deleteQuietly(file);
            throw e;
        }
        Pending p = new Pending(name, file, builder.records(), builder.memoryBytes(), keys, builder.tombstones(), clock.millis() - started);
        builder.clear();
        lastTaken = -1;
        firstTakenAtMs = -1;
        return p;
    }

    /**
     * {@link #FOOTER} with the stamps of every record taken up to this snapshot: the previous snapshot's and the gathered
     * records'. Without the previous one's (written before they were recorded) this one records none either, as a guess
     * could let {@code --until-timestamp} pick a state that already reflects a later delete (docs/decisions.md).
     */
    private Map<String, String> footer() {
        Optional<TakenStamps> before = tail == null ? Optional.of(TakenStamps.NOTHING) : reader.takenStamps(partition, tail);
        if (before.isEmpty()) {
            log.info("the next snapshot of {} records no taken timestamps: {} was written before they were recorded, so"
                    + " --until-timestamp cannot choose this partition's snapshots (--until-offset can)", location, tail);
            return FOOTER;
        }
        Map<String, String> footer = new java.util.HashMap<>(FOOTER);
        footer.putAll(before.get().and(builder.stamps().newestMs()).footer());
        return footer;
    }

    @Override
    public void discardBuffer() {
        builder.clear();
        lastTaken = -1;
        firstTakenAtMs = -1;
        if (pending != null) {
            SnapshotReader.deleteQuietly(pending.file());
            pending = null;
        }
    }

    @Override
    public void periodicCheck(EnvelopeFormat format) {
        manifests.periodicCheck(EnvelopeFormat.PARQUET, tail, pending == null ? null : pending.name(), TailGuard.Kind.SNAPSHOTS);
    }

    @Override
    public ManifestKeeper manifests() {
        return manifests;
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return -1;
        }
    }

    private static void emptyDirectory(Path dir) {
        try {
            if (Files.isDirectory(dir)) {
                try (var files = Files.walk(dir)) {
                    files.sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(dir)).forEach(SnapshotReader::deleteQuietly);
                }
            }
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the snapshot spill directory " + dir + ": check its permissions, or set"
                    + " compaction.spill.dir", e);
        }
    }
}
