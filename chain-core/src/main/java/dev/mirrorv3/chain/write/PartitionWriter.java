package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import java.util.Optional;

/**
 * What the blob sink task needs of one partition's writer: a chain of history ({@link ChainWriter}) or snapshots of
 * the latest record per key ({@code SnapshotWriter}). Not thread-safe: one task thread owns it. Only what both do is
 * here; what one kind does alone (a snapshot writer spills its buffer to disk and reports each snapshot) is its own
 * method, which the task reaches through what it bound to the writer when it opened the partition, never by asking
 * every writer.
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
}
