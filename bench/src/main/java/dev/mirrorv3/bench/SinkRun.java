package dev.mirrorv3.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.quickstart.BlobSinkSettings;
import dev.mirrorv3.quickstart.ConnectorStatus;
import dev.mirrorv3.quickstart.TopicOffsets;
import dev.mirrorv3.quickstart.WaitCaughtUp;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * One timed sink run against a running worker: deploys a connector (PUT /connectors/name/config), and measures
 * the time from the deploy until every record of the topic is durable (blob sink: every partition's chain ends at
 * its high watermark, read from the filesystem) or consumed (FileStreamSink: the connector's consumer group has
 * committed the end offsets, via Admin listConsumerGroupOffsets). Meanwhile it samples the worker's heap through
 * JMX every 50 ms, and with {@code --profile} the sink task thread's stack (a simple sampling profiler: the most
 * frequent top frames and the most frequent frames anywhere on the stack). Deletes the connector at the end.
 *
 * <p>Prints {@code RESULT <label> <records> <seconds> <records/s> <peak heap MiB>} for the script's summary.
 *
 * <p>Usage: {@code SinkRun <label> <blob|file> <connect-url> <connector-config.json> <bootstrap> <topic> <jmx host:port>
 * <timeout s> [--profile]}
 */
public final class SinkRun {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private SinkRun() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 8) {
            System.err.println("usage: SinkRun <label> <blob|file> <connect-url> <config.json> <bootstrap> <topic> <jmx host:port>"
                    + " <timeout s> [--profile]");
            System.exit(2);
        }
        String label = args[0];
        boolean blob = args[1].equals("blob");
        String connectUrl = args[2];
        Path configFile = Path.of(args[3]);
        String bootstrap = args[4];
        String topic = args[5];
        String jmx = args[6];
        long timeoutNanos = Long.parseLong(args[7]) * 1_000_000_000L;
        boolean profile = args.length > 8 && args[8].equals("--profile");
        @SuppressWarnings("unchecked")
        Map<String, Object> config = new ObjectMapper().readValue(Files.readString(configFile), Map.class);
        String name = (String) config.get("name");

        try (TopicOffsets offsets = new TopicOffsets(bootstrap);
             JMXConnector jmxc = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + jmx + "/jmxrmi"))) {
            Map<Integer, Long> hw = offsets.highWatermarks(topic);
            Map<Integer, Long> logStart = offsets.logStartOffsets(topic);
            long records = 0;
            for (int p : hw.keySet()) {
                records += hw.get(p) - logStart.get(p);
            }
            MBeanServerConnection mbs = jmxc.getMBeanServerConnection();
            MemoryMXBean memory = ManagementFactory.newPlatformMXBeanProxy(mbs, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
            ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(mbs, ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
            memory.gc();
            long baseline = memory.getHeapMemoryUsage().getUsed();

            AtomicLong peakHeap = new AtomicLong(baseline);
            AtomicReference<Boolean> running = new AtomicReference<>(true);
            Map<String, Integer> selfFrames = new HashMap<>();
            Map<String, Integer> anyFrames = new HashMap<>();
            AtomicLong samples = new AtomicLong();
            Thread sampler = new Thread(() -> sample(memory, threads, "task-thread-" + name + "-0", profile, running, peakHeap,
                    selfFrames, anyFrames, samples), "sampler");
            sampler.setDaemon(true);

            BlobSinkSettings blobSettings = blob ? BlobSinkSettings.load(configFile, name) : null;
            Store store = blob ? blobSettings.store() : null;
            ChainReader reader = blob ? blobSettings.reader(store) : null;

            sampler.start();
            long t0 = System.nanoTime();
            put(connectUrl, name, Files.readString(configFile));
            long lastStatusCheck = t0;
            boolean done = false;
            while (System.nanoTime() - t0 < timeoutNanos) {
                Map<Integer, Long> position;
                try {
                    position = blob
                            ? WaitCaughtUp.chainNextOffsets(reader, hw.keySet(), logStart)
                            : offsets.committed("connect-" + name, topic);
                } catch (ChainException e) {
                    position = Map.of(); // an upload in progress shows in the store's listing (see WaitCaughtUp): poll again
                }
                if (position.equals(hw)) {
                    done = true;
                    break;
                }
                if (System.nanoTime() - lastStatusCheck > 1_000_000_000L) {
                    lastStatusCheck = System.nanoTime();
                    Optional<String> failed = ConnectorStatus.failure(connectUrl, name);
                    if (failed.isPresent()) {
                        System.err.println(label + ": " + failed.get());
                        break;
                    }
                }
                Thread.sleep(50);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            running.set(false);
            sampler.join(2000);
            delete(connectUrl, name);
            if (store != null) {
                store.close();
            }
            if (!done) {
                System.err.printf("%s: not caught up after %.0f s%n", label, seconds);
                System.exit(1);
            }
            System.out.printf("%s: %,d records in %.2f s = %,.0f records/s; worker heap peak %.0f MiB (%.0f MiB before the run)%n",
                    label, records, seconds, records / seconds, peakHeap.get() / 1048576.0, baseline / 1048576.0);
            if (profile) {
                printProfile(label, samples.get(), selfFrames, anyFrames);
            }
            System.out.printf("RESULT %s %d %.3f %.0f %.0f%n", label, records, seconds, records / seconds, peakHeap.get() / 1048576.0);
        }
    }

    private static void sample(MemoryMXBean memory, ThreadMXBean threads, String threadName, boolean profile,
                               AtomicReference<Boolean> running, AtomicLong peakHeap, Map<String, Integer> selfFrames,
                               Map<String, Integer> anyFrames, AtomicLong samples) {
        long taskThreadId = -1;
        long n = 0;
        while (running.get()) {
            try {
                peakHeap.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                if (profile) {
                    if (taskThreadId < 0 && n++ % 10 == 0) {
                        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
                            if (t != null && t.getThreadName().equals(threadName)) {
                                taskThreadId = t.getThreadId();
                            }
                        }
                    }
                    if (taskThreadId >= 0) {
                        ThreadInfo t = threads.getThreadInfo(taskThreadId, 60);
                        if (t != null && t.getStackTrace().length > 0) {
                            samples.incrementAndGet();
                            StackTraceElement[] st = t.getStackTrace();
                            synchronized (selfFrames) {
                                selfFrames.merge(t.getThreadState() + " " + frame(st[0]), 1, Integer::sum);
                                java.util.Set<String> seen = new java.util.HashSet<>();
                                for (StackTraceElement e : st) {
                                    String f = frame(e);
                                    if (seen.add(f)) {
                                        anyFrames.merge(f, 1, Integer::sum);
                                    }
                                }
                            }
                        }
                    }
                }
                Thread.sleep(profile ? 20 : 50);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // the worker is busy or a sample failed: skip this sample
            }
        }
    }

    private static String frame(StackTraceElement e) {
        return e.getClassName() + "." + e.getMethodName();
    }

    private static void printProfile(String label, long samples, Map<String, Integer> self, Map<String, Integer> any) {
        System.out.printf("%s: task thread profile, %d samples (20 ms)%n  top of stack:%n", label, samples);
        top(self, 12).forEach((f, c) -> System.out.printf("    %5.1f%%  %s%n", 100.0 * c / Math.max(1, samples), f));
        System.out.println("  anywhere on the stack (mirror-v3, Parquet, zstd, Connect, consumer):");
        Map<String, Integer> ours = new HashMap<>();
        any.forEach((f, c) -> {
            if (f.startsWith("dev.mirrorv3") || f.startsWith("org.apache.parquet") || f.startsWith("com.github.luben")
                    || f.startsWith("org.apache.kafka.connect.runtime.WorkerSinkTask") || f.startsWith("org.apache.kafka.clients.consumer.KafkaConsumer")
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

    static void put(String connectUrl, String name, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(connectUrl + "/connectors/" + name + "/config"))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException("Connect refused connector " + name + " (HTTP " + r.statusCode() + "): " + r.body());
        }
    }

    static void delete(String connectUrl, String name) throws Exception {
        HTTP.send(HttpRequest.newBuilder(URI.create(connectUrl + "/connectors/" + name)).DELETE().build(),
                HttpResponse.BodyHandlers.discarding());
    }
}
