package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PartitionException;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import dev.mirrorv3.kafka.sink.FatalFailure;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * What the destination producer's deliveries report, on its I/O thread (or the task's, for a send refused at once), in
 * send order per partition: an acknowledgement at the record's source offset moves its {@link Mirror} on; anything
 * else marks the mirror failed and aborts the producer, so nothing queued behind it reaches the destination. A
 * transient failure is kept for the recovery ({@link DestinationRecovery}); an acknowledgement at another offset means
 * the destination holds what this task did not write, and fails the task.
 */
final class Deliveries {
    private final FatalFailure fatal;
    /** partition.failure=partition: a record at another offset isolates its partition instead of failing the task. */
    private final boolean isolate;
    /** Set when a delivery landed at another offset since the last recovery (with {@link #isolate}). */
    private volatile boolean misplaced;
    /** The first transient delivery failure since the last recovery. */
    private final AtomicReference<Throwable> transientFailure = new AtomicReference<>();
    /** Set when the destination holds what this task did not write: nothing more may be sent, not even on close. */
    private volatile boolean destinationCorrupted;

    Deliveries(FatalFailure fatal, boolean isolate) {
        this.fatal = fatal;
        this.isolate = isolate;
    }

    /** Whether a delivery landed at another offset since the last recovery: the producer is aborted, a recovery isolates it. */
    boolean misplaced() {
        return misplaced;
    }

    /** The check of one record sent through {@code producer} for {@code mirror}'s source offset {@code sentFor}. */
    Callback check(AbortableProducer producer, Mirror mirror, long sentFor, long payload) {
        return (md, e) -> completed(producer, mirror, sentFor, payload, md, e);
    }

    /** The first transient failure since the last recovery, or null. */
    Throwable transientFailure() {
        return transientFailure.get();
    }

    /** Keeps {@code e} unless a transient failure was kept already. */
    void failedTransiently(Throwable e) {
        transientFailure.compareAndSet(null, e);
    }

    /** A recovery ended: the next failure starts the next one. */
    void recovered() {
        transientFailure.set(null);
        misplaced = false;
    }

    boolean destinationCorrupted() {
        return destinationCorrupted;
    }

    /** The destination holds what this task did not write. */
    void corrupted() {
        destinationCorrupted = true;
    }

    private void completed(AbortableProducer producer, Mirror mirror, long sentFor, long payload, RecordMetadata md, Exception e) {
        if (e == null && md.offset() == sentFor) {
            if (!mirror.failed) {
                mirror.acked.set(sentFor + 1);
                mirror.records.incrementAndGet();
                mirror.bytes.addAndGet(payload);
            }
            return;
        }
        mirror.failed = true;
        if (e == null) {
            String m = "destination " + mirror.destination + " stored the record of " + mirror.source + " offset " + sentFor
                    + " at offset " + md.offset() + ": another writer on the destination topic (a second connector, a zombie task"
                    + " of this one, a producer), or a record lost or duplicated. " + DestinationRecovery.RECREATE;
            if (isolate) {
                // Its partition only: the abort below keeps anything queued behind it off every partition, and the recovery
                // that follows isolates this one before it rewinds the others.
                if (mirror.corruption == null) {
                    mirror.corruption = new PartitionException(m);
                }
                misplaced = true;
            } else {
                destinationCorrupted = true;
                fatal.record(new ConnectException(m));
            }
        } else if (producer.aborted()) {
            return; // failed by the abort (or expired with it): lost in flight, the recovery re-reads the destination
        } else if (ConnectFailures.isTransient(e)) {
            transientFailure.compareAndSet(null, e);
        } else {
            fatal.record(new ConnectException("destination " + mirror.destination + " did not store the record of "
                    + mirror.source + " offset " + sentFor + ": " + Failures.describe(e), e));
        }
        // The first failed delivery: whatever is queued behind it must not reach the destination (an expired batch
        // followed by a later one that lands would put that one at the wrong offset).
        producer.abort();
    }
}
