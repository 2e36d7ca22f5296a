package dev.mirrorv3.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServerConnection;

/**
 * Samples a worker through JMX during a timed run: its used heap every 50 ms (the peak; garbage not yet collected
 * included, so it bounds the live heap only loosely: {@link HeapAfterGc} has the collector's after-GC figures), and
 * with {@code --profile} the sink task thread's stack every 20 ms (a simple sampling profiler: the most frequent top
 * frames and the most frequent frames anywhere on the stack).
 */
final class HeapSampler {
    private final MemoryMXBean memory;
    private final ThreadMXBean threads;
    private final String threadName;
    private final boolean profile;
    private final long baseline;
    private final AtomicLong peakHeap;
    private final AtomicLong samples = new AtomicLong();
    private final Map<String, Integer> selfFrames = new HashMap<>();
    private final Map<String, Integer> anyFrames = new HashMap<>();
    private final Thread thread = new Thread(this::run, "sampler");
    private volatile boolean running = true;
    private long taskThreadId = -1;

    /** Collects the worker's garbage first: the heap before the run is the baseline. */
    HeapSampler(MBeanServerConnection mbs, String connector, boolean profile) throws Exception {
        this.memory = ManagementFactory.newPlatformMXBeanProxy(mbs, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
        this.threads = ManagementFactory.newPlatformMXBeanProxy(mbs, ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
        this.threadName = "task-thread-" + connector + "-0";
        this.profile = profile;
        memory.gc();
        this.baseline = memory.getHeapMemoryUsage().getUsed();
        this.peakHeap = new AtomicLong(baseline);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void stop() throws InterruptedException {
        running = false;
        thread.join(2000);
    }

    /** Stops sampling without waiting for the last sample. */
    void abandon() {
        running = false;
    }

    boolean profiling() {
        return profile;
    }

    double baselineMiB() {
        return baseline / 1048576.0;
    }

    double peakMiB() {
        return peakHeap.get() / 1048576.0;
    }

    private void run() {
        long n = 0;
        while (running) {
            try {
                peakHeap.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                if (profile) {
                    sampleStack(n++);
                }
                Thread.sleep(profile ? 20 : 50);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // the worker is busy or a sample failed: skip this sample
            }
        }
    }

    private void sampleStack(long n) {
        if (taskThreadId < 0 && n % 10 == 0) {
            for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
                if (t != null && t.getThreadName().equals(threadName)) {
                    taskThreadId = t.getThreadId();
                }
            }
        }
        if (taskThreadId < 0) {
            return;
        }
        ThreadInfo t = threads.getThreadInfo(taskThreadId, 60);
        if (t != null && t.getStackTrace().length > 0) {
            samples.incrementAndGet();
            StackTraceElement[] st = t.getStackTrace();
            synchronized (selfFrames) {
                selfFrames.merge(t.getThreadState() + " " + frame(st[0]), 1, Integer::sum);
                Set<String> seen = new HashSet<>();
                for (StackTraceElement e : st) {
                    String f = frame(e);
                    if (seen.add(f)) {
                        anyFrames.merge(f, 1, Integer::sum);
                    }
                }
            }
        }
    }

    private static String frame(StackTraceElement e) {
        return e.getClassName() + "." + e.getMethodName();
    }

    void printProfile(String label) {
        long samples = this.samples.get();
        System.out.printf("%s: task thread profile, %d samples (20 ms)%n  top of stack:%n", label, samples);
        top(selfFrames, 12).forEach((f, c) -> System.out.printf("    %5.1f%%  %s%n", 100.0 * c / Math.max(1, samples), f));
        System.out.println("  anywhere on the stack (mirror-v3, Parquet, zstd, Connect, consumer):");
        Map<String, Integer> ours = new HashMap<>();
        anyFrames.forEach((f, c) -> {
            if (f.startsWith("dev.mirrorv3") || f.startsWith("org.apache.parquet") || f.startsWith("com.github.luben")
                    || f.startsWith("org.apache.kafka.connect.runtime.WorkerSinkTask")
                    || f.startsWith("org.apache.kafka.clients.consumer.KafkaConsumer")
                    || f.startsWith("java.nio.channels") || f.startsWith("sun.nio.ch.FileChannelImpl")) {
                ours.put(f, c);
            }
        });
        top(ours, 25).forEach((f, c) -> System.out.printf("    %5.1f%%  %s%n", 100.0 * c / Math.max(1, samples), f));
    }

    private static Map<String, Integer> top(Map<String, Integer> m, int n) {
        Map<String, Integer> out = new LinkedHashMap<>();
        m.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(n).forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }
}
