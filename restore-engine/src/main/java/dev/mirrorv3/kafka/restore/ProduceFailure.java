package dev.mirrorv3.kafka.restore;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One produce pass's first failure, the records it sent and those still in flight: the sending thread and every
 * delivery callback report here, the sending thread stops once a record has failed, and waits while the pass has more
 * than {@link #IN_FLIGHT_LIMIT} records unacknowledged. One per pass, so a restorer keeps nothing of an earlier pass.
 */
final class ProduceFailure {
    /**
     * Records sent and not yet acknowledged that a pass keeps at most (give or take a check's worth). The
     * producer's {@code buffer.memory} bounds the bytes of its batches, not the records: each record in flight also holds
     * a few small objects until it is acknowledged (the producer's future, callbacks and thunk, about 230 bytes), so a
     * full 128 MiB buffer of 100 B records held some 280 MiB of them, which every young collection copied: with 8
     * partitions sending, collections took a third of the produce pass (docs/decisions.md, "Restore speed"). 200,000
     * records of 100 B are 20 MB of batches, enough to keep the producer's requests full.
     */
    static final long IN_FLIGHT_LIMIT = 200_000;
    /** Records sent between two looks at what is in flight (counters shared with the producer's thread, read rarely). */
    static final int CHECK_EVERY = 1024;
    private static final long WAIT_NANOS = 100_000;

    private final AtomicReference<RuntimeException> first = new AtomicReference<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong done = new AtomicLong();

    void fail(RuntimeException e) {
        first.compareAndSet(null, e);
    }

    /** The first failure, or null. */
    RuntimeException first() {
        return first.get();
    }

    void countSent(long records) {
        sent.addAndGet(records);
    }

    /** A record sent was acknowledged, or failed (on the producer's thread). */
    void delivered() {
        done.incrementAndGet();
    }

    /**
     * Waits while more than {@link #IN_FLIGHT_LIMIT} records counted as sent are not delivered yet.
     *
     * @return false once the pass has failed: send nothing more
     * @throws InterruptedException when the sending thread is interrupted (the pass is being stopped)
     */
    boolean awaitRoom() throws InterruptedException {
        while (sent.get() - done.get() > IN_FLIGHT_LIMIT && first() == null) {
            LockSupport.parkNanos(WAIT_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException("stopped while waiting for records in flight to be acknowledged");
            }
        }
        return first() == null;
    }

    long sent() {
        return sent.get();
    }
}
