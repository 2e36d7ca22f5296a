package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.bytes.ObjectBytes;
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
 * thread) takes the next object's records, {@link ChainCommit#run()} (another thread) encodes, checks the tail, commits and
 * only then advances {@link #durableNext()}. The task thread may append and read while commits run; the writer's state
 * is guarded by its monitor, held only for bookkeeping, never across encoding or store calls. Each object committed is
 * recorded for the chain's next manifest ({@link ManifestKeeper}).
 *
 * <p>Two commits may be in flight, so that the next object is encoded while one uploads ({@link #cutBehind}): the second
 * is created only after the first is durable and abandoned if it failed ({@link CommitAbandonedException}), so the
 * chain's names and objects are those of one commit at a time (docs/blob-sink.md, "Pipelined flush").
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
    /** Frozen records first (those of the commits in flight or {@link #pending}), then the ones appended since. */
    private final WriteBuffer buffer = new WriteBuffer();
    private long lastFlushAtMs;
    private PendingCommit pending;
    private final CommitOrder<ChainCommit> inFlight = new CommitOrder<>(this);

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
        return buffer.isEmpty() ? durableNext : buffer.lastOffset() + 1;
    }

    /** Payload bytes of every buffered record, those of pending or running commits included. */
    @Override
    public synchronized long bufferedBytes() {
        return buffer.bytes();
    }

    /** Buffered records, those of pending or running commits included. */
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
        buffer.append(record, clock.millis());
        return true;
    }

    /** The size or count trigger that has tripped for the records in no running or pending commit, if any. */
    @Override
    public synchronized Optional<FlushTrigger> sizeTrigger() {
        return buffer.sizeTrigger(policy);
    }

    /**
     * Milliseconds until the time trigger trips (0 if it has, or if a failed commit is waiting to be re-issued);
     * {@code Long.MAX_VALUE} when no record waits outside the running commits.
     */
    @Override
    public synchronized long msUntilTimeTrigger(long nowMs) {
        if (pending != null && inFlight.isEmpty()) {
            return 0;
        }
        return buffer.firstOutsideAtMs().map(first -> Math.max(0, first + policy.maxTimeMs() - nowMs)).orElse(Long.MAX_VALUE);
    }

    /**
     * Writes one object on the calling thread ({@link #cut}, {@link ChainCommit#run()}): the pending commit if an earlier
     * flush failed, else the buffer up to the size limits; call again while {@link #bufferedRecords()} is not 0. On any
     * exception the buffer is kept (and the object as the pending commit once past the tail check): the caller may retry.
     *
     * @return the committed object, or empty if nothing was buffered
     * @throws ChainChangedException if the chain's tail is not the one this writer left
     */
    @Override
    public Optional<FlushResult> flush(FlushTrigger trigger) {
        return cut(trigger).map(ChainCommit::run);
    }

    /**
     * Takes the next object's records (task thread): with no commit in flight, the pending commit if an earlier one
     * failed, else the buffer up to the size limits; while a fresh commit runs, a full object after it ({@link #cutBehind}).
     * Records appended from now on go into a later object. Empty if nothing is buffered (or no full object follows the
     * running commit).
     *
     * @throws IllegalStateException if two commits of this chain run, or one that no other may follow (a re-issue)
     */
    public synchronized Optional<ChainCommit> cut(FlushTrigger trigger) {
        if (!inFlight.isEmpty()) {
            ChainCommit running = inFlight.head();
            if (inFlight.size() > 1 || !followable(running)) {
                throw new IllegalStateException("a commit of " + location + " is still running");
            }
            return cutBehind(running, trigger);
        }
        if (buffer.isEmpty()) {
            return Optional.empty();
        }
        ChainCommit.Cut c = pending != null
                ? new ChainCommit.Cut(trigger, null, pending.name(), pending.records(), pending.payloadBytes(), -1)
                : cutOf(trigger, buffer.freezeNext(policy).orElseThrow(), durableNext);
        return Optional.of(inFlight.add(new ChainCommit(this, codec, c, null)));
    }

    /**
     * A second commit, behind {@code running} while it is the only one in flight and a fresh one (not a re-issue), for a
     * full object after it (a size trigger has tripped: it holds what a cut after the first's success would take), named
     * from the first's last offset on; empty otherwise, e.g. when {@code running} finished meanwhile. It encodes at once,
     * then waits: after the first's success it goes on as any commit (N+1 is created only after N is durable); after its
     * failure it is abandoned: nothing of it reached the store, its encoded bytes are dropped (it never passed the tail
     * check, so nothing of it is frozen), its records stay buffered and are cut again after the frozen commit is re-issued.
     */
    public synchronized Optional<ChainCommit> cutBehind(ChainCommit running, FlushTrigger trigger) {
        if (!canCutBehind(running)) {
            return Optional.empty();
        }
        ChainCommit.Cut c = cutOf(trigger, buffer.freezeNext(policy).orElseThrow(), running.name().to() + 1);
        return Optional.of(inFlight.add(new ChainCommit(this, codec, c, running.name())));
    }

    /** Whether {@link #cutBehind} would cut a commit behind {@code running} now. */
    public synchronized boolean canCutBehind(ChainCommit running) {
        return inFlight.size() == 1 && inFlight.head() == running && followable(running) && buffer.sizeTrigger(policy).isPresent();
    }

    /** Whether another commit may be cut behind {@code c}: a fresh one (not a re-issue), not abandoned. */
    private boolean followable(ChainCommit c) {
        return c.cut().toEncode() != null && !inFlight.abandoned(c);
    }

    private ChainCommit.Cut cutOf(FlushTrigger trigger, WriteBuffer.Taken t, long from) {
        List<BackupRecord> records = t.records();
        ObjectName name = new ObjectName(from, records.get(records.size() - 1).offset(), codec.format(), codec.writeKeyId());
        return new ChainCommit.Cut(trigger, records, name, records.size(), t.payloadBytes(), t.firstOutsideAtMs());
    }

    /**
     * Waits until the commit before {@code c} is settled; false if that one failed: {@code c} is abandoned.
     *
     * @throws CommitAbandonedException if the wait is interrupted (its records count for the triggers again)
     */
    synchronized boolean awaitTurn(ChainCommit c) {
        try {
            if (!inFlight.awaitTurn(c)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (inFlight.head() == c && !inFlight.abandoned(c)) {
                return true; // its turn came with the interrupt: it goes on, and fails as any commit if a store call sees it
            }
            if (!inFlight.abandoned(c)) { // its records are the last frozen ones
                buffer.thawAfter(buffer.frozenRecords() - c.cut().records(), buffer.frozenBytes() - c.cut().payloadBytes(),
                        c.cut().firstBufferedAtMs());
            }
            inFlight.remove(c);
            throw new CommitAbandonedException(location + "/" + c.name(), c.after(), "was interrupted while it waited for the");
        }
        inFlight.remove(c);
        return false;
    }

    FlushResult commit(ChainCommit c, ObjectBytes encoded, RuntimeException encodeFailure) {
        boolean done = false;
        try {
            if (encodeFailure != null) {
                throw encodeFailure;
            }
            long started = clock.millis();
            PendingCommit commit = c.cut().toEncode() != null ? create(c.cut(), encoded) : reissue();
            guard.checkNoTwin(commit.name());
            manifests.committed(commit.name(), commit.bytes().size(), ManifestCodec.sha256(commit.bytes()));
            long now = clock.millis();
            ObjectName name = commit.name();
            FlushResult result;
            synchronized (this) {
                result = new FlushResult(name, location + "/" + name, commit.records(), commit.payloadBytes(),
                        commit.bytes().size(), now - started, now - lastFlushAtMs, c.cut().trigger());
                tail = name;
                durableNext = name.to() + 1;
                lastFlushAtMs = now;
                buffer.durable(commit.records(), commit.payloadBytes());
                pending = null;
                inFlight.remove(c); // the commit behind it goes on
                done = true;
            }
            commit.bytes().release(); // durable and no longer pending: nothing reads them again
            log.info("flushed batch path={} from={} to={} records={} bytes={} elapsed_ms={} interval_ms={} trigger={}",
                    result.location(), name.from(), name.to(), result.records(), result.objectBytes(), result.elapsedMs(),
                    result.intervalMs(), c.cut().trigger());
            return result;
        } finally {
            if (!done) {
                failed(c);
            }
        }
    }

    /** Encodes (unless it was, behind another commit), checks the tail, freezes the object and its bytes as pending, creates it. */
    private PendingCommit create(ChainCommit.Cut c, ObjectBytes encoded) {
        PendingCommit commit = new PendingCommit(c.name(), encoded != null ? encoded : codec.encodeObject(c.toEncode()),
                c.records(), c.payloadBytes());
        try {
            // The tail check comes after the encoding, right before the create: a task frozen or descheduled while it
            // encodes (its partition moved meanwhile) must meet the moved task's objects before it adds its own.
            checkTail();
        } catch (RuntimeException e) {
            commit.bytes().release(); // not frozen: the records are encoded again at the next cut
            throw e;
        }
        synchronized (this) {
            pending = commit; // frozen before the store sees it: a commit whose outcome is unknown is re-issued as it is
        }
        store.create(partition, c.name().fileName(), commit.bytes());
        return commit;
    }

    private PendingCommit reissue() {
        checkTail();
        PendingCommit commit;
        synchronized (this) {
            commit = pending;
        }
        log.info("re-issuing the commit of {}/{} ({} records), whose outcome an earlier attempt could not learn",
                location, commit.name(), commit.records());
        store.recommit(partition, commit.name().fileName(), commit.bytes());
        return commit;
    }

    /** The head commit failed: the pending one (if encoded) stays frozen, the rest counts for the triggers again, the next is abandoned. */
    private synchronized void failed(ChainCommit c) {
        ChainCommit behind = inFlight.failed(c);
        long firstAtMs = pending == null ? c.cut().firstBufferedAtMs() : behind == null ? -1 : behind.cut().firstBufferedAtMs();
        buffer.thawAfter(pending == null ? 0 : pending.records(), pending == null ? 0 : pending.payloadBytes(), firstAtMs);
    }

    /**
     * Drops the buffer and any pending commit (the records are not known durable; the chain stays the truth, a pending
     * object that did land is found there when the partition is opened again, the rest is read again). Its bytes are
     * left to the garbage collector, not released for reuse: nothing is reused that anything might still read.
     */
    @Override
    public synchronized void discardBuffer() {
        if (!inFlight.isEmpty()) {
            throw new IllegalStateException("a commit of " + location + " is still running");
        }
        buffer.clear();
        pending = null;
    }

    /** The periodic check ({@link ManifestKeeper#periodicCheck}), between this writer's commits. */
    @Override
    public synchronized void periodicCheck(EnvelopeFormat format) {
        try {
            manifests.periodicCheck(format, tail, pending == null ? null : pending.name(), TailGuard.Kind.CHAIN);
        } catch (ChainChangedException e) {
            throw manifests.movedOn(tail, e);
        }
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
        try {
            guard.checkTail(tail, pending == null ? null : pending.name(), durableNext);
        } catch (ChainChangedException e) {
            throw manifests.movedOn(tail, e);
        }
    }
}
