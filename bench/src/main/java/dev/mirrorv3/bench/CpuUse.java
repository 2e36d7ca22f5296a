package dev.mirrorv3.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import javax.management.MBeanServerConnection;

/**
 * Where a run's CPU went, read from outside the product: the worker's process CPU time and each of its Java threads'
 * (the JVM's own {@code OperatingSystemMXBean} and {@code ThreadMXBean} through JMX), and the broker's process CPU time
 * from {@code /proc/<pid>/stat} (Linux; unknown elsewhere), and so the S3 server's when it runs on the same machine. Two
 * snapshots, at the deploy and at the end, so nothing samples during the run. The worker's threads are grouped as the
 * sink's task thread ({@code task-thread-<connector>-0}), the blob sink's flush threads
 * ({@code mirror-v3-flush-<connector>-*}), its other Java threads, and the rest of the process: the JVM's own threads
 * (garbage collection, JIT compilation) and Java threads that ended during the run.
 */
final class CpuUse {
    private final com.sun.management.ThreadMXBean threads;
    private final com.sun.management.OperatingSystemMXBean os;
    private final String taskThread;
    private final String flushThreadPrefix;
    private final Path brokerStat;
    private final Path storeServerStat;
    private Snapshot start;

    /** The pid files may be null or absent: that process's CPU is then unknown (-1). */
    CpuUse(MBeanServerConnection mbs, String connector, Path brokerPidFile, Path storeServerPidFile) throws IOException {
        threads = ManagementFactory.newPlatformMXBeanProxy(mbs, ManagementFactory.THREAD_MXBEAN_NAME,
                com.sun.management.ThreadMXBean.class);
        os = ManagementFactory.newPlatformMXBeanProxy(mbs, ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME,
                com.sun.management.OperatingSystemMXBean.class);
        taskThread = "task-thread-" + connector + "-0";
        flushThreadPrefix = "mirror-v3-flush-" + connector + "-";
        brokerStat = procStat(brokerPidFile);
        storeServerStat = procStat(storeServerPidFile);
    }

    private static Path procStat(Path pidFile) throws IOException {
        return pidFile != null && Files.isRegularFile(pidFile) ? Path.of("/proc", Files.readString(pidFile).trim(), "stat") : null;
    }

    void start() {
        start = snapshot();
    }

    /** The CPU seconds each part used since {@link #start}. */
    Use stop() {
        return between(start, snapshot());
    }

    /** A reading of every part's CPU time so far, to take {@link #between} two of them. */
    Snapshot mark() {
        return snapshot();
    }

    /** The CPU seconds each part used from one reading to a later one. */
    Use between(Snapshot from, Snapshot to) {
        double task = 0;
        double flush = 0;
        double otherJava = 0;
        for (Map.Entry<Long, Long> t : to.threadNanos().entrySet()) {
            double seconds = (t.getValue() - from.threadNanos().getOrDefault(t.getKey(), 0L)) / 1e9;
            String name = to.threadNames().get(t.getKey());
            if (name.equals(taskThread)) {
                task += seconds;
            } else if (name.startsWith(flushThreadPrefix)) {
                flush += seconds;
            } else {
                otherJava += seconds;
            }
        }
        double worker = (to.processNanos() - from.processNanos()) / 1e9;
        return new Use(worker, task, flush, otherJava, Math.max(0, worker - task - flush - otherJava),
                seconds(from.brokerTicks(), to.brokerTicks()), seconds(from.storeServerTicks(), to.storeServerTicks()),
                seconds(from.machineTicks(), to.machineTicks()), os.getAvailableProcessors());
    }

    /** Clock ticks (USER_HZ, 100 on Linux) as seconds, or -1 when either reading is unknown. */
    private static double seconds(long fromTicks, long toTicks) {
        return fromTicks < 0 || toTicks < 0 ? -1 : (toTicks - fromTicks) / 100.0;
    }

    private Snapshot snapshot() {
        long process = os.getProcessCpuTime();
        long[] ids = threads.getAllThreadIds();
        long[] nanos = threads.getThreadCpuTime(ids);
        ThreadInfo[] infos = threads.getThreadInfo(ids);
        Map<Long, Long> byThread = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && nanos[i] >= 0) {
                byThread.put(ids[i], nanos[i]);
                names.put(ids[i], infos[i].getThreadName());
            }
        }
        return new Snapshot(process, byThread, names, ticks(brokerStat), ticks(storeServerStat), machineBusyTicks());
    }

    /** utime + stime of a process in clock ticks (USER_HZ, 100 on Linux), or -1. */
    private static long ticks(Path procStat) {
        if (procStat == null) {
            return -1;
        }
        try {
            String stat = Files.readString(procStat);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * The whole machine's busy clock ticks over all its CPUs, from the first line of {@code /proc/stat}: user, nice,
     * system, irq, softirq and steal (time the hypervisor gave elsewhere), not idle or iowait; every process and the
     * kernel's own threads (writeback, network) count. -1 elsewhere than Linux.
     */
    private static long machineBusyTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split(" +");
            return Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6]) + Long.parseLong(f[7])
                    + Long.parseLong(f[8]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    record Snapshot(long processNanos, Map<Long, Long> threadNanos, Map<Long, String> threadNames, long brokerTicks,
                    long storeServerTicks, long machineTicks) {
    }

    /**
     * CPU seconds over a run.
     *
     * @param jvm the worker's CPU outside its live Java threads: garbage collection, JIT compilation, threads that ended
     * @param broker the broker process's, or -1 when unknown
     * @param storeServer the S3 server's process (S3Proxy on the same machine), or -1 when unknown or none
     * @param machine the whole machine's busy CPU (every process and the kernel), or -1 when unknown
     */
    record Use(double worker, double taskThread, double flushThreads, double otherJava, double jvm, double broker, double storeServer,
               double machine, int cores) {
        String describe(double seconds) {
            return String.format(Locale.ROOT, "CPU: worker %.2f s (task thread %.2f, flush threads %.2f, its other Java"
                    + " threads %.2f, the JVM's own (GC, JIT) and ended threads %.2f), broker %s%s; %d cores x %.2f s = %.2f"
                    + " core-s, %.0f%% used by them%s", worker, taskThread, flushThreads, otherJava, jvm,
                    broker < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f s", broker),
                    storeServer < 0 ? "" : String.format(Locale.ROOT, ", S3 server %.2f s", storeServer), cores, seconds,
                    cores * seconds, 100 * (worker + Math.max(0, broker) + Math.max(0, storeServer)) / (cores * seconds),
                    machine < 0 ? "" : String.format(Locale.ROOT, ", %.0f%% by the whole machine", 100 * machine / (cores * seconds)));
        }

        /** The S3 server's CPU and the whole machine's busy CPU, a RESULT line's last two fields (-1: unknown or none). */
        String lastFields() {
            return String.format(Locale.ROOT, "%.2f %.2f", storeServer, machine);
        }

        /** The RESULT line's fields: worker, task thread, flush threads, other Java threads, JVM, broker (-1: unknown). */
        String fields() {
            return String.format(Locale.ROOT, "%.2f %.2f %.2f %.2f %.2f %.2f", worker, taskThread, flushThreads, otherJava, jvm, broker);
        }
    }
}
