package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import java.util.Optional;

/**
 * What the blob sink task needs of one partition's writer: a chain of history ({@link ChainWriter}) or snapshots of
 * the latest record per key ({@link SnapshotWriter}). Not thread-safe: one task thread owns it. What differs between
 * the two is asked here, so that the task never needs to know which one it holds.
 */
public interface PartitionWriter {

    /** The offset after the last durable record: where a restart continues. */
    long durableNext();

    /** The next offset this writer accepts. */
    long expectedNext();

    /** Bytes this writer holds on the heap for records not yet durable (what the task-wide buffer cap counts). */
    long bufferedBytes();

    /** Records not yet durable. */
    long bufferedRecords();

    /** Takes a record; false if it lies below {@link #expectedNext()} (a re-delivery) and was skipped. */
    boolean append(BackupRecord record);

    Optional<FlushTrigger> sizeTrigger();

    long msUntilTimeTrigger(long nowMs);

    /** Writes one object; empty if nothing was buffered. On any exception the caller may call it again. */
    Optional<FlushResult> flush(FlushTrigger trigger);

    /** Drops what is not durable (it is read again from the position when the partition is opened next). */
    void discardBuffer();

    /**
     * The periodic check on a timer: the chain, listed from its newest manifest on, still ends where this writer's objects
     * do, and its manifests are intact ({@link ManifestKeeper#periodicCheck}).
     */
    void periodicCheck(EnvelopeFormat format);

    /** The writer's manifests: the objects waiting for one, when the next is due, and writing it. */
    ManifestKeeper manifests();

    /**
     * Moves buffered records off the heap without writing them (the task-wide buffer cap); returns the heap bytes
     * released: 0 for a writer that cannot, whose buffer is written instead.
     */
    default long spill() {
        return 0;
    }

    /** The last snapshot committed, for a writer of snapshots (its metrics); empty for a chain. */
    default Optional<SnapshotWriter.Stats> lastSnapshot() {
        return Optional.empty();
    }
}
