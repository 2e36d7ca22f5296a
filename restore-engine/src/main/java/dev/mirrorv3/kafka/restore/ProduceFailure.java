package dev.mirrorv3.kafka.restore;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One produce pass's first failure and the records it sent: every partition's thread and every delivery callback
 * reports here, and each partition stops sending once one has failed. One per pass, so a restorer keeps nothing of an
 * earlier pass.
 */
final class ProduceFailure {
    private final AtomicReference<RuntimeException> first = new AtomicReference<>();
    private final AtomicLong sent = new AtomicLong();

    void fail(RuntimeException e) {
        first.compareAndSet(null, e);
    }

    /** The first failure, or null. */
    RuntimeException first() {
        return first.get();
    }

    void countSent() {
        sent.incrementAndGet();
    }

    long sent() {
        return sent.get();
    }
}
