package dev.mirrorv3.chain.restore;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records done per partition out of a known total, updated by the workers and read by a progress display
 * (thread-safe). One instance per phase (verify, produce).
 */
public final class Progress {
    private final String phase;
    private final Map<Integer, AtomicLong> done = new TreeMap<>();
    private final Map<Integer, Long> totals = new TreeMap<>();
    private final long startNanos = System.nanoTime();

    /** @param totals records to do per partition; -1 when unknown (the verify pass before reading) */
    public Progress(String phase, Map<Integer, Long> totals) {
        this.phase = phase;
        this.totals.putAll(totals);
        totals.keySet().forEach(p -> done.put(p, new AtomicLong()));
    }

    public String phase() {
        return phase;
    }

    public void add(int partition, long records) {
        done.get(partition).addAndGet(records);
    }

    public Map<Integer, Long> totals() {
        return totals;
    }

    public long done(int partition) {
        return done.get(partition).get();
    }

    public long doneTotal() {
        return done.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /** Sum of known totals, or -1 if any is unknown. */
    public long total() {
        long sum = 0;
        for (long t : totals.values()) {
            if (t < 0) {
                return -1;
            }
            sum += t;
        }
        return sum;
    }

    public long elapsedNanos() {
        return System.nanoTime() - startNanos;
    }
}
