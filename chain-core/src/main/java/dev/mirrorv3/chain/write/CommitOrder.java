package dev.mirrorv3.chain.write;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The commits of one chain cut and not settled yet, in the chain's order: at most two, the second cut while the first
 * runs and waiting for it. Guarded by the writer's monitor, on which the second waits.
 *
 * @param <C> a commit
 */
final class CommitOrder<C> {
    private final Object monitor;
    private final List<C> inFlight = new ArrayList<>(2);
    /** Commits whose commit before failed: they give up when they look. */
    private final Set<C> abandoned = new HashSet<>();

    CommitOrder(Object monitor) {
        this.monitor = monitor;
    }

    boolean isEmpty() {
        return inFlight.isEmpty();
    }

    int size() {
        return inFlight.size();
    }

    C head() {
        return inFlight.get(0);
    }

    /** Returns {@code c}, added after the commits in flight. */
    C add(C c) {
        inFlight.add(c);
        return c;
    }

    /**
     * Waits (on the monitor, which the caller holds) until {@code c} is the head, or abandoned.
     *
     * @return true if it was abandoned
     */
    boolean awaitTurn(C c) throws InterruptedException {
        while (inFlight.get(0) != c && !abandoned.contains(c)) {
            monitor.wait();
        }
        return abandoned.contains(c);
    }

    boolean abandoned(C c) {
        return abandoned.contains(c);
    }

    /** {@code c} is settled or gave up; the one behind it (if any) may go on. */
    void remove(C c) {
        inFlight.remove(c);
        abandoned.remove(c);
        monitor.notifyAll();
    }

    /** The head failed: removed, and the commit behind it (returned, null if none) abandoned. */
    C failed(C head) {
        remove(head);
        C behind = inFlight.isEmpty() ? null : inFlight.get(0);
        if (behind != null) {
            abandoned.add(behind);
        }
        return behind;
    }
}
