package dev.mirrorv3.cache;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Notices a JVM that spends most of its time collecting garbage: the share of wall time spent in collections over a
 * sliding window. The memory budget keeps the stores below that in the first place; this is the guard for what it
 * does not count (a heap too small for the Kafka client and HTTP besides the stores). It works with any collector:
 * the parallel collector's {@code -XX:+UseGCOverheadLimit} does nothing on G1, the launcher's default.
 */
public final class GcTimeWatchdog {

    /** More than half of the time in GC ... */
    static final double MAX_SHARE = 0.5;
    /** ... over 30 s: long enough that one full collection of a large heap does not count as a loop. */
    static final Duration WINDOW = Duration.ofSeconds(30);

    private final LongSupplier gcMillis;
    private final LongSupplier nowMillis;
    private final double maxShare;
    private final long windowMs;
    /** {time, GC time} samples, oldest first; the first one is the window's start. */
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();
    private boolean tripped;

    /**
     * @param gcMillis  total milliseconds the JVM spent in collections so far (monotonic)
     * @param nowMillis a monotonic clock in milliseconds
     */
    GcTimeWatchdog(LongSupplier gcMillis, LongSupplier nowMillis, double maxShare, Duration window) {
        this.gcMillis = gcMillis;
        this.nowMillis = nowMillis;
        this.maxShare = maxShare;
        this.windowMs = window.toMillis();
    }

    /** This JVM's collectors, more than {@link #MAX_SHARE} of the time over {@link #WINDOW}. */
    static GcTimeWatchdog ofThisJvm() {
        return new GcTimeWatchdog(GcTimeWatchdog::collectionMillis, () -> System.nanoTime() / 1_000_000, MAX_SHARE,
                WINDOW);
    }

    private static long collectionMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime()); // -1: this collector does not report it
        }
        return total;
    }

    /**
     * Takes a sample (call it about once a second). Returns the message, once, when the share of the last window spent
     * in collections exceeds the limit; null otherwise, and always after that.
     */
    public synchronized String sample() {
        long now = nowMillis.getAsLong();
        long gc = gcMillis.getAsLong();
        samples.addLast(new long[] {now, gc});
        while (samples.size() > 2 && now - second()[0] >= windowMs) {
            samples.removeFirst();
        }
        long[] start = samples.peekFirst();
        long span = now - start[0];
        if (tripped || span < windowMs) {
            return null;
        }
        long inGc = gc - start[1];
        if (inGc <= maxShare * span) {
            return null;
        }
        tripped = true;
        return String.format(Locale.ROOT, "the JVM spent %d ms of the last %d ms in garbage collection (%.0f %%, over "
                + "the sidecar's limit of %.0f %% over %d s): its heap (-Xmx, %.1f MiB) is too small for the caches "
                + "and their Kafka consumers. Give it a larger heap, or a lower memory.max-bytes so that the caches "
                + "stop reading before the heap is full", inGc, span, 100.0 * inGc / span, 100 * maxShare,
                windowMs / 1000, Runtime.getRuntime().maxMemory() / 1048576.0);
    }

    private long[] second() {
        Iterator<long[]> it = samples.iterator();
        it.next();
        return it.next();
    }
}
