package dev.mirrorv3.cache.notify;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Changed keys not yet notified, merged by key (a key changed twice is notified once, at its latest offset), plus the
 * consumer positions they were observed at. Bounded by the number of distinct keys, so a slow target never makes the
 * consumer wait. Thread-safe: the consumer appends, the notifier takes.
 */
final class NotifyBuffer {

    private record Pending(int partition, long offset, int bodyBytes) { }

    private final String topic;
    private final LinkedHashMap<String, Pending> pending = new LinkedHashMap<>();
    private final Map<Integer, Long> positions = new HashMap<>();
    private long pendingBodyBytes;
    private long firstPendingNanos;
    private boolean positionsChanged;

    NotifyBuffer(String topic) {
        this.topic = topic;
    }

    /** Adds changes seen up to {@code newPositions} (next offsets per partition). */
    synchronized void append(List<KeyChange> changes, Map<Integer, Long> newPositions) {
        for (KeyChange c : changes) {
            if (pending.isEmpty()) {
                firstPendingNanos = System.nanoTime();
            }
            Pending old = pending.remove(c.key());
            if (old != null) {
                pendingBodyBytes -= old.bodyBytes();
            }
            Pending p = new Pending(c.partition(), c.offset(), UpdateBatch.bodyBytesOf(c.key()));
            pending.put(c.key(), p);
            pendingBodyBytes += p.bodyBytes();
        }
        if (!newPositions.equals(positions)) {
            positions.putAll(newPositions);
            positionsChanged = true;
        }
        notifyAll();
    }

    synchronized int pendingKeys() {
        return pending.size();
    }

    synchronized long pendingBodyBytes() {
        return pendingBodyBytes;
    }

    /** Nanos since the oldest pending change was added; 0 when nothing is pending. */
    synchronized long pendingAgeNanos() {
        return pending.isEmpty() ? 0 : System.nanoTime() - firstPendingNanos;
    }

    synchronized void awaitChange(long millis) throws InterruptedException {
        if (millis > 0) {
            wait(millis);
        }
    }

    synchronized void wakeUp() {
        notifyAll();
    }

    /**
     * Takes the oldest pending keys whose body fits {@code maxBodyBytes}. If that empties the buffer, the batch
     * carries the positions it covers. A single key too long for any body is dropped and returned in
     * {@code oversized}.
     */
    synchronized UpdateBatch take(int maxBodyBytes, List<String> oversized) {
        int budget = maxBodyBytes - UpdateBatch.fixedBodyBytes(topic);
        List<String> keys = new ArrayList<>();
        TreeMap<Integer, Long> offsets = new TreeMap<>();
        Iterator<Map.Entry<String, Pending>> it = pending.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Pending> e = it.next();
            Pending p = e.getValue();
            if (p.bodyBytes() > budget && keys.isEmpty()) {
                oversized.add(e.getKey());
                it.remove();
                pendingBodyBytes -= p.bodyBytes();
                continue;
            }
            if (p.bodyBytes() > budget) {
                break;
            }
            budget -= p.bodyBytes();
            keys.add(e.getKey());
            offsets.merge(p.partition(), p.offset(), Math::max);
            it.remove();
            pendingBodyBytes -= p.bodyBytes();
        }
        if (!pending.isEmpty()) {
            firstPendingNanos = System.nanoTime();
        }
        Map<Integer, Long> commit = pending.isEmpty() ? Map.copyOf(positions) : null;
        if (commit != null) {
            positionsChanged = false;
        }
        return keys.isEmpty() && commit == null ? null : new UpdateBatch(topic, keys, offsets, commit);
    }

    /** The positions, if nothing is pending and they moved since last asked (for idle commits). */
    synchronized Map<Integer, Long> idlePositions() {
        if (!pending.isEmpty() || !positionsChanged) {
            return null;
        }
        positionsChanged = false;
        return Map.copyOf(positions);
    }
}
