package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import dev.mirrorv3.chain.store.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one partition's records to its chain: buffers them, and on a trigger writes the buffer as one object
 * named {@code <next>-<last offset>}, after checking that the chain's tail is still the one this writer left.
 * Records below the next expected offset are skipped (already durable or already buffered), so re-delivery is
 * harmless; offsets above it are holes and are kept as they are.
 *
 * <p>A commit that fails may still have landed (a lost reply, a failure after the link). Its object is therefore
 * frozen, name and exact bytes, until it is known durable: the next flush re-issues that same commit
 * ({@link Store#recommit}), and the store takes a name holding exactly those bytes as this commit (re-encoding
 * would not match: a grown buffer, random encryption nonces). Records appended meanwhile go into the next
 * object. Only an object that is not the pending one is another writer's.
 *
 * <p>A flush is two steps so that the commit can run off the task thread ({@link FlushPipeline}): {@link #cut} (task
 * thread) takes the next object's records, {@link Commit#run()} (any one thread at a time) checks the tail, encodes,
 * commits and only then advances {@link #durableNext()}. The task thread may append and read while a commit runs; the
 * writer's state is guarded by its monitor, held only for bookkeeping, never across encoding or store calls. Each object
 * committed is recorded for the chain's next manifest ({@link ManifestKeeper}).
 */
public final class ChainWriter implements PartitionWriter {
    private static final Logger log = LoggerFactory.getLogger(ChainWriter.class);

    private final Store store;
    private final int partition;
    private final EnvelopeCodec codec;
    private final FlushPolicy policy;
    private final Clock clock;
    private final String location;
    private final TailGuard guard;
    private final ManifestKeeper manifests;

    private volatile long durableNext;
    private ObjectName tail;
    /** Frozen records first (those of {@link #pending}), then the ones appended since. */
    private final List<BackupRecord> buffer = new ArrayList<>();
    private long bufferedBytes;
    /** When the first record not in {@link #pending} was appended; -1 if there is none. */
    private long firstBufferedAtMs = -1;
    private long lastFlushAtMs;
    private PendingCommit pending;
    /** True from {@link #cut} until that commit succeeded or failed: at most one commit per chain at a time. */
    private boolean committing;
    /** Records and payload bytes at the buffer's head that belong to the commit running or pending. */
    private int frozenRecords;
    private long frozenBytes;

    /** An object whose commit was issued but is not known durable: re-issued as it is until it is. */
    private record PendingCommit(ObjectName name, byte[] bytes, int records, long payloadBytes) {
    }

    /**
     * @param head the partition's chain as opened: its newest manifest and the objects after it
     * @param startOffset where the chain continues: its next offset, or the source's log-start offset if it is empty
     */
    public ChainWriter(Store store, int partition, EnvelopeCodec codec, FlushPolicy policy, Clock clock, ChainHead head,
            long startOffset) {
        this.store = store;
        this.partition = partition;
        this.codec = codec;
        this.policy = policy;
        this.clock = clock;
        this.location = store.location(partition);
        ChainListing listing = new ChainListing(store, partition, Manifest.Kind.CHAIN);
        this.guard = new TailGuard(listing, TailGuard.Kind.CHAIN);
        if (head.isEmpty() && startOffset > 0) {
            ChainStart.record(store, partition, startOffset); // a chain that begins after 0 says so before its first object
        }
        this.manifests = new ManifestKeeper(listing, head, startOffset, clock);
        this.tail = head.last().orElse(null);
        this.durableNext = startOffset;
        this.lastFlushAtMs = clock.millis();
    }

    /** The offset after the last durable record: what the backup holds, and where a restart continues. */
    @Override
    public long durableNext() {
        return durableNext;
    }

    /** The next offset this writer accepts: after the last buffered record, or {@link #durableNext()}. */
    @Override
    public synchronized long expectedNext() {
        return buffer.isEmpty() ? durableNext : buffer.get(buffer.size() - 1).offset() + 1;
    }

    /** Payload bytes of every buffered record, a pending or running commit's included. */
    @Override
    public synchronized long bufferedBytes() {
        return bufferedBytes;
    }

    /** Buffered records, a pending or running commit's included. */
    @Override
    public synchronized long bufferedRecords() {
        return buffer.size();
    }

    public String location() {
        return location;
    }

    public synchronized Optional<ObjectName> tail() {
        return Optional.ofNullable(tail);
    }

    /** Buffers a record; false if it lies below the next expected offset (a re-delivery) and was skipped. */
    @Override
    public synchronized boolean append(BackupRecord record) {
        if (record.offset() < expectedNext()) {
            return false;
        }
        if (buffer.size() == frozenRecords) {
            firstBufferedAtMs = clock.millis();
        }
        buffer.add(record);
        bufferedBytes += record.payloadBytes();
        return true;
    }

    /** The size or count trigger that has tripped for the records not in a running or pending commit, if any. */
    @Override
    public synchronized Optional<FlushTrigger> sizeTrigger() {
        if (buffer.size() - frozenRecords >= policy.maxRecords()) {
            return Optional.of(FlushTrigger.RECORDS);
        }
        if (bufferedBytes - frozenBytes >= policy.maxBytes()) {
            return Optional.of(FlushTrigger.BYTES);
        }
        return Optional.empty();
    }

    /**
     * Milliseconds until the time trigger trips (0 if it has, or if a failed commit is waiting to be re-issued);
     * {@code Long.MAX_VALUE} when no record waits outside a running commit.
     */
    @Override
    public synchronized long msUntilTimeTrigger(long nowMs) {
        if (pending != null && !committing) {
            return 0;
        }
        if (buffer.size() == frozenRecords) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, firstBufferedAtMs + policy.maxTimeMs() - nowMs);
    }

    /**
     * Writes one object on the calling thread: {@link #cut} and {@link Commit#run()}. The pending commit if an earlier
     * flush failed (re-issued as it was), else the buffer up to the size limits. Call again while {@link #bufferedRecords()} is not 0 to
     * write everything. On any exception the buffer is kept, and the object is kept as the pending commit once
     * encoded and past the tail check, so the caller can retry.
     *
     * @return the committed object, or empty if nothing was buffered
     * @throws ChainChangedException if the chain's tail is not the one this writer left
     */
    @Override
    public Optional<FlushResult> flush(FlushTrigger trigger) {
        return cut(trigger).map(Commit::run);
    }

    /**
     * Takes the next object's records (task thread): the pending commit if an earlier one failed, else the buffer up
     * to the size limits. Records appended from now on go into a later object. Empty if nothing is buffered.
     *
     * @throws IllegalStateException if a commit of this chain is still running
     */
    public synchronized Optional<Commit> cut(FlushTrigger trigger) {
        if (committing) {
            throw new IllegalStateException("a commit of " + location + " is still running");
        }
        if (buffer.isEmpty()) {
            return Optional.empty();
        }
        committing = true;
        Cut c;
        if (pending != null) {
            c = new Cut(trigger, null, pending.name(), pending.records(), pending.payloadBytes(), firstBufferedAtMs);
        } else {
            // At most what the size triggers allow: records that came while an earlier commit ran go into later objects,
            // so objects keep the sizes a flush on the task thread gave them.
            List<BackupRecord> records = List.copyOf(buffer.subList(0, policy.recordsInOneObject(buffer)));
            int n = records.size();
            ObjectName name = new ObjectName(durableNext, records.get(n - 1).offset(), codec.format(), codec.writeKeyId());
            c = new Cut(trigger, records, name, n, records.stream().mapToLong(BackupRecord::payloadBytes).sum(), firstBufferedAtMs);
            if (n == buffer.size()) {
                firstBufferedAtMs = -1;
            } // else the rest keeps the oldest record's time: its time trigger may fire early, never late
        }
        frozenRecords = c.records();
        frozenBytes = c.payloadBytes();
        return Optional.of(new Commit(c));
    }

    /**
     * One object's records cut from the buffer, what the commit needs.
     *
     * @param toEncode the records to encode; null when the pending commit is re-issued (its bytes are frozen)
     * @param firstBufferedAtMs the time trigger's start, given back to the buffer if the commit fails
     */
    private record Cut(FlushTrigger trigger, List<BackupRecord> toEncode, ObjectName name, int records, long payloadBytes,
                       long firstBufferedAtMs) {
    }

    /** One object cut from the buffer, committed by {@link #run()} on whichever thread runs it. */
    public final class Commit {
        private final Cut cut;

        private Commit(Cut cut) {
            this.cut = cut;
        }

        /** Payload bytes of the records this object holds. */
        public long payloadBytes() {
            return cut.payloadBytes();
        }

        public ObjectName name() {
            return cut.name();
        }

        /**
         * Encodes, checks the tail, commits (or re-issues the pending commit) and checks for a twin; only then are the
         * records durable and dropped from the buffer. On any exception the records stay buffered, the object stays
         * the pending commit once it passed the tail check, and the next {@link #cut} re-issues it.
         */
        public FlushResult run() {
            return commit(cut);
        }
    }

    private FlushResult commit(Cut c) {
        try {
            long started = clock.millis();
            PendingCommit commit;
            if (c.toEncode() != null) {
                byte[] bytes = codec.encode(c.toEncode());
                // The tail check comes after the encoding, right before the create: a task frozen or descheduled while it
                // encodes (its partition moved meanwhile) must meet the moved task's objects before it adds its own.
                checkTail();
                commit = new PendingCommit(c.name(), bytes, c.records(), c.payloadBytes());
                synchronized (this) {
                    pending = commit; // frozen before the store sees it: a commit whose outcome is unknown is re-issued as it is
                }
                store.create(partition, c.name().fileName(), commit.bytes());
            } else {
                checkTail();
                synchronized (this) {
                    commit = pending;
                }
                log.info("re-issuing the commit of {}/{} ({} records), whose outcome an earlier attempt could not learn",
                        location, commit.name(), commit.records());
                store.recommit(partition, commit.name().fileName(), commit.bytes());
            }
            guard.checkNoTwin(commit.name());
            manifests.committed(commit.name(), commit.bytes().length, ManifestCodec.sha256(commit.bytes()));

            long now = clock.millis();
            ObjectName name = commit.name();
            FlushResult result;
            synchronized (this) {
                result = new FlushResult(name, location + "/" + name, commit.records(), commit.payloadBytes(),
                        commit.bytes().length, now - started, now - lastFlushAtMs, c.trigger());
                tail = name;
                durableNext = name.to() + 1;
                lastFlushAtMs = now;
                buffer.subList(0, commit.records()).clear();
                bufferedBytes -= commit.payloadBytes();
                pending = null;
                frozenRecords = 0;
                frozenBytes = 0;
                committing = false;
            }
            log.info("flushed batch path={} from={} to={} records={} bytes={} elapsed_ms={} interval_ms={} trigger={}",
                    result.location(), name.from(), name.to(), result.records(), result.objectBytes(), result.elapsedMs(),
                    result.intervalMs(), c.trigger());
            return result;
        } finally {
            synchronized (this) {
                if (committing) { // failed: the pending commit (if encoded) stays frozen, the rest is buffered again
                    committing = false;
                    frozenRecords = pending == null ? 0 : pending.records();
                    frozenBytes = pending == null ? 0 : pending.payloadBytes();
                    if (pending == null && c.firstBufferedAtMs() >= 0) {
                        firstBufferedAtMs = c.firstBufferedAtMs();
                    }
                }
            }
        }
    }

    /**
     * Drops the buffer and any pending commit (the records are not known durable; the chain stays the truth, a
     * pending object that did land is found there when the partition is opened again, the rest is read again).
     */
    @Override
    public synchronized void discardBuffer() {
        if (committing) {
            throw new IllegalStateException("a commit of " + location + " is still running");
        }
        buffer.clear();
        frozenRecords = 0;
        frozenBytes = 0;
        bufferedBytes = 0;
        firstBufferedAtMs = -1;
        pending = null;
    }

    /** The periodic check ({@link ManifestKeeper#periodicCheck}), between this writer's commits. */
    @Override
    public synchronized void periodicCheck(EnvelopeFormat format) {
        manifests.periodicCheck(format, tail, pending == null ? null : pending.name(), TailGuard.Kind.CHAIN);
    }

    @Override
    public ManifestKeeper manifests() {
        return manifests;
    }

    /** The tail check of {@link TailGuard}, on what this writer holds now (a commit runs on another thread than cut). */
    private void checkTail() {
        ObjectName tail;
        PendingCommit pending;
        synchronized (this) {
            tail = this.tail;
            pending = this.pending;
        }
        guard.checkTail(tail, pending == null ? null : pending.name(), durableNext);
    }
}
