package dev.mirrorv3.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;

/**
 * Asks the worker's JVM for a full collection ({@code MemoryMXBean.gc()} through JMX, System.gc()) every so often while
 * a run lasts, so that {@link HeapAfterGc} sees its live heap: after a young collection the old generation still holds
 * whatever died since its last collection. Costs the run a full pause each time, so only the scaling mode, which judges
 * the heap, uses it.
 */
final class FullCollections implements AutoCloseable {
    private final ScheduledExecutorService timer;

    private FullCollections(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Every {@code everyMs} from now until {@link #close()}; none when {@code everyMs} is 0. */
    static FullCollections every(MBeanServerConnection mbs, long everyMs) throws Exception {
        if (everyMs <= 0) {
            return new FullCollections(null);
        }
        MemoryMXBean memory = ManagementFactory.newPlatformMXBeanProxy(mbs, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "full-collections");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                memory.gc();
            } catch (RuntimeException e) {
                // the worker is busy or going away: the next one tries again, and a run without any has no live figure
            }
        }, everyMs, everyMs, TimeUnit.MILLISECONDS);
        return new FullCollections(timer);
    }

    @Override
    public void close() throws InterruptedException {
        if (timer != null) {
            timer.shutdownNow();
            timer.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
