package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ChainValidator;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.store.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one partition's records to its chain: buffers them, and on a trigger writes the buffer as one object
 * named {@code <next>-<last offset>}, after checking that the chain's tail is still the one this writer left.
 * Records below the next expected offset are skipped (already durable or already buffered), so re-delivery is
 * harmless; offsets above it are holes and are kept as they are. Not thread-safe: one task thread owns it.
 *
 * <p>A commit that fails may still have landed (a lost reply, a failure after the link). Its object is therefore
 * frozen, name and exact bytes, until it is known durable: the next flush re-issues that same commit
 * ({@link Store#recommit}), and the store takes a name holding exactly those bytes as this commit (re-encoding
 * would not match: a grown buffer, random encryption nonces). Records appended meanwhile go into the next
 * object. Only an object that is not the pending one is another writer's.
 */
public final class ChainWriter implements PartitionWriter {
    private static final Logger log = LoggerFactory.getLogger(ChainWriter.class);

    private final Store store;
    private final int partition;
    private final EnvelopeCodec codec;
    private final FlushPolicy policy;
    private final Clock clock;
    private final String location;

    private long durableNext;
    private ObjectName tail;
    /** Frozen records first (those of {@link #pending}), then the ones appended since. */
    private final List<BackupRecord> buffer = new ArrayList<>();
    private long bufferedBytes;
    /** When the first record not in {@link #pending} was appended; -1 if there is none. */
    private long firstBufferedAtMs = -1;
    private long lastFlushAtMs;
    private PendingCommit pending;

    /** An object whose commit was issued but is not known durable: re-issued as it is until it is. */
    private record PendingCommit(ObjectName name, byte[] bytes, int records, long payloadBytes) {
    }

    /**
     * @param chain the partition's validated chain, as listed when the partition was opened
     * @param startOffset where the chain continues: its next offset, or the source's log-start offset if it is empty
     */
    public ChainWriter(Store store, int partition, EnvelopeCodec codec, FlushPolicy policy, Clock clock, Chain chain, long startOffset) {
        this.store = store;
        this.partition = partition;
        this.codec = codec;
        this.policy = policy;
        this.clock = clock;
        this.location = store.location(partition);
        this.tail = chain.last().orElse(null);
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
    public long expectedNext() {
        return buffer.isEmpty() ? durableNext : buffer.get(buffer.size() - 1).offset() + 1;
    }

    /** Payload bytes of every buffered record, a pending commit's included. */
    @Override
    public long bufferedBytes() {
        return bufferedBytes;
    }

    /** Buffered records, a pending commit's included. */
    @Override
    public long bufferedRecords() {
        return buffer.size();
    }

    public String location() {
        return location;
    }

    public Optional<ObjectName> tail() {
        return Optional.ofNullable(tail);
    }

    /** Buffers a record; false if it lies below the next expected offset (a re-delivery) and was skipped. */
    @Override
    public boolean append(BackupRecord record) {
        if (record.offset() < expectedNext()) {
            return false;
        }
        if (buffer.size() == frozenRecords()) {
            firstBufferedAtMs = clock.millis();
        }
        buffer.add(record);
        bufferedBytes += record.payloadBytes();
        return true;
    }

    /** The size or count trigger that has tripped, if any. */
    @Override
    public Optional<FlushTrigger> sizeTrigger() {
        if (buffer.size() >= policy.maxRecords()) {
            return Optional.of(FlushTrigger.RECORDS);
        }
        if (bufferedBytes >= policy.maxBytes()) {
            return Optional.of(FlushTrigger.BYTES);
        }
        return Optional.empty();
    }

    /**
     * Milliseconds until the time trigger trips (0 if it has, or if a failed commit is waiting to be re-issued);
     * {@code Long.MAX_VALUE} with an empty buffer.
     */
    @Override
    public long msUntilTimeTrigger(long nowMs) {
        if (pending != null) {
            return 0;
        }
        if (buffer.isEmpty()) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, firstBufferedAtMs + policy.maxTimeMs() - nowMs);
    }

    /**
     * Writes one object: the pending commit if an earlier flush failed (re-issued as it was), else the whole
     * buffer. Call again while {@link #bufferedRecords()} is not 0 to write everything. On any exception the
     * buffer is kept, and the object is kept as the pending commit once encoded, so the caller can retry.
     *
     * @return the committed object, or empty if nothing was buffered
     * @throws ChainChangedException if the chain's tail is not the one this writer left
     */
    @Override
    public Optional<FlushResult> flush(FlushTrigger trigger) {
        if (buffer.isEmpty()) {
            return Optional.empty();
        }
        long started = clock.millis();
        PendingCommit commit = pending;
        if (commit == null) {
            ObjectName name = new ObjectName(durableNext, buffer.get(buffer.size() - 1).offset(), codec.format(), codec.writeKeyId());
            byte[] bytes = codec.encode(buffer);
            // The tail check comes after the encoding, right before the create: a task frozen or descheduled while it
            // encodes (its partition moved meanwhile) must meet the moved task's objects before it adds its own.
            checkTail();
            commit = new PendingCommit(name, bytes, buffer.size(), bufferedBytes);
            pending = commit;
            firstBufferedAtMs = -1;
            store.create(partition, name.fileName(), commit.bytes());
        } else {
            checkTail();
            log.info("re-issuing the commit of {}/{} ({} records), whose outcome an earlier attempt could not learn",
                    location, commit.name(), commit.records());
            store.recommit(partition, commit.name().fileName(), commit.bytes());
        }
        checkNoTwin(commit.name());

        long now = clock.millis();
        ObjectName name = commit.name();
        FlushResult result = new FlushResult(name, location + "/" + name, commit.records(), commit.payloadBytes(),
                commit.bytes().length, now - started, now - lastFlushAtMs, trigger);
        log.info("flushed batch path={} from={} to={} records={} bytes={} elapsed_ms={} interval_ms={} trigger={}",
                result.location(), name.from(), name.to(), result.records(), result.objectBytes(), result.elapsedMs(),
                result.intervalMs(), trigger);
        tail = name;
        durableNext = name.to() + 1;
        lastFlushAtMs = now;
        buffer.subList(0, commit.records()).clear();
        bufferedBytes -= commit.payloadBytes();
        pending = null;
        return Optional.of(result);
    }

    /**
     * Drops the buffer and any pending commit (the records are not known durable; the chain stays the truth, a
     * pending object that did land is found there when the partition is opened again, the rest is read again).
     */
    @Override
    public void discardBuffer() {
        buffer.clear();
        bufferedBytes = 0;
        firstBufferedAtMs = -1;
        pending = null;
    }

    private int frozenRecords() {
        return pending == null ? 0 : pending.records();
    }

    /**
     * The full check (on a timer): the whole listing is a valid chain that ends exactly where this writer's does.
     */
    @Override
    public void fullCheck(EnvelopeFormat format) {
        Chain chain;
        try {
            chain = ChainValidator.validate(location, store.list(partition), format, OptionalLong.empty());
        } catch (dev.mirrorv3.chain.ChainException e) {
            throw new ChainChangedException("the chain changed under this task: " + e.getMessage());
        }
        Optional<ObjectName> last = chain.last();
        if (!last.equals(Optional.ofNullable(tail)) && !(pending != null && last.equals(Optional.of(pending.name())))) {
            throw new ChainChangedException(last.map(o -> location + "/" + o + " is the chain's last object")
                    .orElse(location + " holds no object any more") + ", and the last object this task wrote or found is "
                    + (tail == null ? "none" : tail.toString()) + changedAdvice());
        }
    }

    /**
     * O(1) in chain length: this writer's last object is still there and nothing starts at or after its start
     * except itself and the pending commit, which may have landed (one short listing). Whether an object at the
     * pending name is ours is up to the store's recommit: it holds exactly the pending bytes or it is not.
     */
    private void checkTail() {
        String startAt = tail == null ? "" : ObjectName.pad(tail.from());
        List<String> names = new ArrayList<>(store.listFrom(partition, startAt, pending == null ? 2 : 3));
        if (pending != null) {
            int at = tail == null ? 0 : 1;
            if (names.size() > at && names.get(at).equals(pending.name().fileName())) {
                names.remove(at);
            }
        }
        if (tail == null) {
            if (!names.isEmpty()) {
                throw new ChainChangedException(location + "/" + names.get(0)
                        + " appeared in an empty chain that this task is about to start at offset " + durableNext + changedAdvice());
            }
            return;
        }
        if (names.isEmpty() || !names.get(0).equals(tail.fileName())) {
            String found = names.isEmpty() ? "nothing" : names.get(0);
            throw new ChainChangedException(location + "/" + tail + ", the last object this task wrote or found, is gone or"
                    + " preceded by " + found + changedAdvice());
        }
        if (names.size() > 1) {
            throw new ChainChangedException(location + "/" + names.get(1) + " was not written by this task; this task's chain"
                    + " ends at " + tail + ", next offset " + durableNext + changedAdvice());
        }
    }

    /** After a commit: no other object starts where ours does (a zombie or a second writer racing us). */
    private void checkNoTwin(ObjectName written) {
        List<String> names = store.listFrom(partition, ObjectName.pad(written.from()), 2);
        for (String n : names) {
            if (!n.equals(written.fileName()) && n.startsWith(ObjectName.pad(written.from()))) {
                throw new ChainChangedException(location + "/" + n + " starts at the same offset as " + written
                        + ", which this task just wrote: two writers on one partition" + changedAdvice());
            }
        }
    }

    private String changedAdvice() {
        return ". A second writer (another connector or a zombie task on the same destination) or a manual change;"
                + " stop the other writer, check the chain (mirror-v3 restore --verify-only), then restart the task";
    }
}
