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
 */
public final class ChainWriter {
    private static final Logger log = LoggerFactory.getLogger(ChainWriter.class);

    private final Store store;
    private final int partition;
    private final EnvelopeCodec codec;
    private final FlushPolicy policy;
    private final Clock clock;
    private final String location;

    private long durableNext;
    private ObjectName tail;
    private final List<BackupRecord> buffer = new ArrayList<>();
    private long bufferedBytes;
    private long firstBufferedAtMs = -1;
    private long lastFlushAtMs;

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
    public long durableNext() {
        return durableNext;
    }

    /** The next offset this writer accepts: after the last buffered record, or {@link #durableNext()}. */
    public long expectedNext() {
        return buffer.isEmpty() ? durableNext : buffer.get(buffer.size() - 1).offset() + 1;
    }

    public long bufferedBytes() {
        return bufferedBytes;
    }

    public int bufferedRecords() {
        return buffer.size();
    }

    public String location() {
        return location;
    }

    public Optional<ObjectName> tail() {
        return Optional.ofNullable(tail);
    }

    /** Buffers a record; false if it lies below the next expected offset (a re-delivery) and was skipped. */
    public boolean append(BackupRecord record) {
        if (record.offset() < expectedNext()) {
            return false;
        }
        if (buffer.isEmpty()) {
            firstBufferedAtMs = clock.millis();
        }
        buffer.add(record);
        bufferedBytes += record.payloadBytes();
        return true;
    }

    /** The size or count trigger that has tripped, if any. */
    public Optional<FlushTrigger> sizeTrigger() {
        if (buffer.size() >= policy.maxRecords()) {
            return Optional.of(FlushTrigger.RECORDS);
        }
        if (bufferedBytes >= policy.maxBytes()) {
            return Optional.of(FlushTrigger.BYTES);
        }
        return Optional.empty();
    }

    /** Milliseconds until the time trigger trips (0 if it has); {@code Long.MAX_VALUE} with an empty buffer. */
    public long msUntilTimeTrigger(long nowMs) {
        if (buffer.isEmpty()) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, firstBufferedAtMs + policy.maxTimeMs() - nowMs);
    }

    /**
     * Writes the buffer as one object. On any exception the buffer is kept as it was, so the caller can retry.
     *
     * @return the committed object, or empty if nothing was buffered
     * @throws ChainChangedException if the chain's tail is not the one this writer left
     */
    public Optional<FlushResult> flush(FlushTrigger trigger) {
        if (buffer.isEmpty()) {
            return Optional.empty();
        }
        long started = clock.millis();
        checkTail();
        ObjectName name = new ObjectName(durableNext, buffer.get(buffer.size() - 1).offset(), codec.format(), codec.writeKeyId());
        byte[] bytes = codec.encode(buffer);
        store.create(partition, name.fileName(), bytes);
        checkNoTwin(name);

        long now = clock.millis();
        FlushResult result = new FlushResult(name, location + "/" + name, buffer.size(), bufferedBytes, bytes.length,
                now - started, now - lastFlushAtMs, trigger);
        log.info("flushed batch path={} from={} to={} records={} bytes={} elapsed_ms={} interval_ms={} trigger={}",
                result.location(), name.from(), name.to(), result.records(), result.objectBytes(), result.elapsedMs(),
                result.intervalMs(), trigger);
        tail = name;
        durableNext = name.to() + 1;
        lastFlushAtMs = now;
        buffer.clear();
        bufferedBytes = 0;
        firstBufferedAtMs = -1;
        return Optional.of(result);
    }

    /** Drops the buffer (the records are not durable; the chain stays the truth and they will be read again). */
    public void discardBuffer() {
        buffer.clear();
        bufferedBytes = 0;
        firstBufferedAtMs = -1;
    }

    /**
     * The full check (on a timer): the whole listing is a valid chain that ends exactly where this writer's does.
     */
    public void fullCheck(EnvelopeFormat format) {
        Chain chain;
        try {
            chain = ChainValidator.validate(location, store.list(partition), format, OptionalLong.empty());
        } catch (dev.mirrorv3.chain.ChainException e) {
            throw new ChainChangedException("the chain changed under this task: " + e.getMessage());
        }
        Optional<ObjectName> last = chain.last();
        if (!last.equals(Optional.ofNullable(tail))) {
            throw new ChainChangedException(last.map(o -> location + "/" + o + " is the chain's last object")
                    .orElse(location + " holds no object any more") + ", and the last object this task wrote or found is "
                    + (tail == null ? "none" : tail.toString()) + changedAdvice());
        }
    }

    /**
     * O(1) in chain length: this writer's last object is still there and nothing starts at or after its start
     * except itself (one short listing).
     */
    private void checkTail() {
        String startAt = tail == null ? "" : ObjectName.pad(tail.from());
        List<String> names = store.listFrom(partition, startAt, 2);
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
