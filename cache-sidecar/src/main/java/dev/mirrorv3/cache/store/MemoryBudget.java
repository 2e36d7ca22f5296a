package dev.mirrorv3.cache.store;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory every cache store of a sidecar may take together ({@code memory.max-bytes}), counted with the stores'
 * real footprint: their page arrays (records with their headers, garbage not compacted yet, unused page tails) and
 * their index tables. A store reserves before it allocates, so a cache that would exceed the budget fails that
 * allocation instead of driving the JVM into back-to-back full collections.
 */
public final class MemoryBudget {

    /** Share of the heap's long-lived part that the stores may fill by default. */
    static final double DEFAULT_SHARE = 0.70;

    private final long max;
    private final String origin;
    private final AtomicLong used = new AtomicLong();

    private MemoryBudget(long max, String origin) {
        this.max = max;
        this.origin = origin;
    }

    /** An explicit budget ({@code memory.max-bytes}). */
    public static MemoryBudget of(long maxBytes) {
        return new MemoryBudget(maxBytes, "memory.max-bytes");
    }

    /** No limit (tests of the store alone). */
    public static MemoryBudget unlimited() {
        return new MemoryBudget(Long.MAX_VALUE, "unlimited");
    }

    /**
     * The default: 70 % of the heap part where a long-lived store ends up, the old generation's maximum (with the
     * parallel collector 2/3 of {@code -Xmx} by default), or of {@link Runtime#maxMemory()} when the collector reports
     * no such pool. A store filling more than that would leave the collector no room: full GCs back to back.
     */
    public static MemoryBudget fromHeap() {
        long heap = Runtime.getRuntime().maxMemory();
        long old = oldGenerationMax();
        long base = old > 0 && old < heap ? old : heap;
        String what = old > 0 && old < heap ? "the old generation's " + mib(old) + " (heap " + mib(heap) + ")"
                : "the " + mib(heap) + " heap";
        return new MemoryBudget((long) (base * DEFAULT_SHARE), "the default memory.max-bytes, "
                + Math.round(DEFAULT_SHARE * 100) + " % of " + what);
    }

    private static long oldGenerationMax() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            String name = pool.getName();
            if (pool.getType() == MemoryType.HEAP && (name.contains("Old Gen") || name.contains("Tenured"))) {
                return pool.getUsage().getMax();
            }
        }
        return -1;
    }

    static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    /** Takes {@code bytes} from the budget, or returns false (taking nothing) when they do not fit. */
    public boolean tryReserve(long bytes) {
        while (true) {
            long u = used.get();
            if (u + bytes > max) {
                return false;
            }
            if (used.compareAndSet(u, u + bytes)) {
                return true;
            }
        }
    }

    /** Takes {@code bytes} whether or not they fit (a store's first few hundred bytes). */
    void reserve(long bytes) {
        used.addAndGet(bytes);
    }

    public void release(long bytes) {
        used.addAndGet(-bytes);
    }

    public long maxBytes() {
        return max;
    }

    public long usedBytes() {
        return used.get();
    }

    /** Where the limit comes from, for messages: the setting, or how the default was derived. */
    public String origin() {
        return origin;
    }
}
