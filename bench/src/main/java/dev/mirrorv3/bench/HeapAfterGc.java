package dev.mirrorv3.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.InstanceNotFoundException;
import javax.management.ListenerNotFoundException;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * The heap a JVM holds after its collections, from the collector's own figures: every garbage collection notification
 * (through JMX) carries each memory pool's usage after that collection, and the heap after it is the sum over the heap
 * pools. The peak of those sums over a run bounds what the run kept alive from above, with less garbage than a sample of
 * the used heap counts, but not none: after a young collection the old generation still holds what was promoted and
 * died since its last collection, so the figure grows with the heap and the run's length (the many-partitions bench
 * forces full collections for its live-heap goal instead, and so does the blob sink bench's scaling mode through
 * {@link FullCollections}: the heap after those is kept apart as the live heap). The collectors' counters are read at the start and
 * the end, so that a run in which no collection happened, or one whose notifications were not all seen, is known: its
 * figure is then not a measure of anything.
 */
final class HeapAfterGc implements NotificationListener, AutoCloseable {
    private final MBeanServerConnection mbs;
    private final Set<String> heapPools;
    private final List<ObjectName> collectors;
    private final AtomicLong peak = new AtomicLong(-1);
    private final AtomicLong livePeak = new AtomicLong(-1);
    private final AtomicLong seen = new AtomicLong();
    private final long countAtStart;
    private long counted = -1;
    private boolean closed;

    HeapAfterGc(Set<String> heapPools) {
        this.mbs = null;
        this.heapPools = heapPools;
        this.collectors = List.of();
        this.countAtStart = 0;
    }

    private HeapAfterGc(MBeanServerConnection mbs, Set<String> heapPools, List<ObjectName> collectors) throws Exception {
        this.mbs = mbs;
        this.heapPools = heapPools;
        this.collectors = collectors;
        for (ObjectName c : collectors) {
            mbs.addNotificationListener(c, this, null, null);
        }
        this.countAtStart = collections();
    }

    /** Listens to every collector of the JVM behind {@code mbs}. */
    static HeapAfterGc listen(MBeanServerConnection mbs) throws Exception {
        Set<String> heap = new HashSet<>();
        for (ObjectName pool : mbs.queryNames(new ObjectName(ManagementFactory.MEMORY_POOL_MXBEAN_DOMAIN_TYPE + ",*"), null)) {
            if (MemoryType.HEAP.name().equals(String.valueOf(mbs.getAttribute(pool, "Type")))) {
                heap.add(String.valueOf(mbs.getAttribute(pool, "Name")));
            }
        }
        List<ObjectName> collectors = new ArrayList<>(
                mbs.queryNames(new ObjectName(ManagementFactory.GARBAGE_COLLECTOR_MXBEAN_DOMAIN_TYPE + ",*"), null));
        return new HeapAfterGc(mbs, Set.copyOf(heap), collectors);
    }

    @Override
    public void handleNotification(Notification n, Object handback) {
        if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            record(info.getGcInfo().getMemoryUsageAfterGc(), FORCED_CAUSE.equals(info.getGcCause()));
        }
    }

    /** The cause a collection asked for with {@code MemoryMXBean.gc()} (System.gc()) carries: a full collection. */
    static final String FORCED_CAUSE = "System.gc()";

    /**
     * One collection's figures: the heap after it is the sum of the heap pools' used bytes; after a forced full
     * collection ({@code forced}) that is the live heap.
     */
    void record(Map<String, MemoryUsage> afterGc, boolean forced) {
        long used = 0;
        for (Map.Entry<String, MemoryUsage> e : afterGc.entrySet()) {
            if (heapPools.contains(e.getKey())) {
                used += e.getValue().getUsed();
            }
        }
        peak.accumulateAndGet(used, Math::max);
        if (forced) {
            livePeak.accumulateAndGet(used, Math::max);
        }
        seen.incrementAndGet();
    }

    /**
     * Reads the collectors' counters (the collections of the run) and stops listening, after waiting up to 2 s for the
     * notifications of those collections: JMX delivers them after the fact.
     */
    @Override
    public void close() throws Exception {
        if (mbs == null || closed) {
            return;
        }
        closed = true;
        counted = collections() - countAtStart;
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (seen.get() < counted && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        for (ObjectName c : collectors) {
            try {
                mbs.removeNotificationListener(c, this);
            } catch (ListenerNotFoundException | InstanceNotFoundException e) {
                // the JVM is gone or the listener with it: nothing left to remove
            }
        }
    }

    private long collections() throws Exception {
        long n = 0;
        for (ObjectName c : collectors) {
            n += ((Number) mbs.getAttribute(c, "CollectionCount")).longValue();
        }
        return n;
    }

    /** The highest heap after a collection, in MiB; -1 when no collection was seen. */
    double peakMiB() {
        return peak.get() < 0 ? -1 : peak.get() / 1048576.0;
    }

    /** The highest heap after a forced full collection (the live heap), in MiB; -1 when none was seen. */
    double livePeakMiB() {
        return livePeak.get() < 0 ? -1 : livePeak.get() / 1048576.0;
    }

    /** Collections whose figures were seen. */
    long seen() {
        return seen.get();
    }

    /** Collections the collectors counted between the start and {@link #close()} (-1 before it). */
    long counted() {
        return counted;
    }
}
