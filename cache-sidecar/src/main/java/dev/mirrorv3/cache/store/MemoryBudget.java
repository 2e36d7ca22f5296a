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
     * parallel collector 2/3 of {@code -Xmx} by default). A collector that does not bound its old generation (G1, the
     * launcher's, reports the whole heap) gets 70 % of 2/3 of {@link Runtime#maxMemory()} too: a store filling 70 % of
     * a small G1 heap left the Kafka client's fetches and the young collections too little room: G1 ran full
     * collections at the budget, or the JVM ran out of heap before it (ProcessIT with 128 MiB). A store filling more
     * than that would leave the collector no room: full GCs back to back.
     */
    public static MemoryBudget fromHeap() {
        return fromHeap(Runtime.getRuntime().maxMemory(), oldGenerationMax());
    }

    /** As {@link #fromHeap()} for a heap of {@code heap} bytes whose old generation may grow to {@code old}. */
    static MemoryBudget fromHeap(long heap, long old) {
        boolean bounded = old > 0 && old < heap;
        long base = bounded ? old : heap / 3 * 2;
        String what = bounded ? "the old generation's " + mib(old) + " (heap " + mib(heap) + ")"
                : "2/3 of the " + mib(heap) + " heap, its collector not bounding the old generation";
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
