package dev.mirrorv3.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.quickstart.BlobSinkSettings;
import dev.mirrorv3.quickstart.ConnectorStatus;
import dev.mirrorv3.quickstart.TopicOffsets;
import dev.mirrorv3.quickstart.WaitCaughtUp;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.apache.kafka.common.utils.Sanitizer;

/**
 * One timed sink run against a running worker: deploys a connector (PUT /connectors/name/config), and measures
 * the time from the deploy until every record of the topic is in the destination:
 * <ul>
 *   <li>blob sink: a listing of the store (not the product's metric) shows every partition's chain ending at its high
 *       watermark ({@link ListingVerdict}); the product's {@code destination-offset-verified} metric (through the
 *       worker's JMX), read just before each listing, must not claim more than that listing shows, or the run fails
 *       (a metric running ahead of durability would otherwise stop the clock early). Listing the store every 50 ms is
 *       load on it during the timed window (S3Proxy above all), the price of a clock that does not trust the
 *       product;</li>
 *   <li>FileStreamSink: its output file holds one line per record (it writes each line straight to the file, unbuffered;
 *       its offset commits are not waited for, as the blob sink's are not).</li>
 * </ul>
 * Both are polled every 50 ms. Meanwhile it samples the worker's heap through JMX every 50 ms, and with
 * {@code --profile} the sink task thread's stack (a simple sampling profiler: the most frequent top frames and the most
 * frequent frames anywhere on the stack). Deletes the connector at the end.
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

            // the store is opened before the clock starts (an S3 client's set-up is not the run's)
            BlobSinkSettings settings = blob ? BlobSinkSettings.load(configFile, name) : null;
            Store store = blob ? settings.store() : null;
            Done doneCheck = blob ? new ListedChain(new VerifiedOffsets(mbs, name, topic), settings.reader(store), hw, logStart)
                    : new FileLines(Path.of((String) config.get("file")), records);
            if (store != null) {
                // one untimed listing first: the store client's first request (connection, class loading) is not the run's
                try {
                    WaitCaughtUp.chainNextOffsets(settings.reader(store), hw.keySet(), logStart);
                } catch (ChainException e) {
                    // judged during the run
                }
            }

            sampler.start();
            long t0 = System.nanoTime();
            put(connectUrl, name, Files.readString(configFile));
            long lastStatusCheck = t0;
            boolean done = false;
            while (System.nanoTime() - t0 < timeoutNanos) {
                try {
                    if (doneCheck.done()) {
                        done = true;
                        break;
                    }
                } catch (MetricAheadException e) {
                    running.set(false);
                    delete(connectUrl, name);
                    System.err.printf("%s: the product's metric ran ahead of the store after %.2f s: %s%n", label,
                            (System.nanoTime() - t0) / 1e9, e.getMessage());
                    System.exit(1);
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
            if (!done) {
                delete(connectUrl, name);
                System.err.printf("%s: not caught up after %.0f s: %s%n", label, seconds, doneCheck.lag());
                System.exit(1);
            }
            if (store != null) {
                store.close();
            }
            delete(connectUrl, name);
            System.out.printf("%s: %,d records in %.2f s = %,.0f records/s; worker heap peak %.0f MiB (%.0f MiB before the run)%n",
                    label, records, seconds, records / seconds, peakHeap.get() / 1048576.0, baseline / 1048576.0);
            if (doneCheck instanceof ListedChain listed) {
                System.out.println(label + ": " + listed.summary());
            }
            if (profile) {
                printProfile(label, samples.get(), selfFrames, anyFrames);
            }
            System.out.printf("RESULT %s %d %.3f %.0f %.0f%n", label, records, seconds, records / seconds, peakHeap.get() / 1048576.0);
        }
    }

    /** When the run is over; {@link #lag()} says what is missing. */
    private interface Done {
        boolean done() throws Exception;

        String lag();
    }

    /** The blob sink's per-partition {@code destination-offset-verified} gauges (its plugin metrics, through JMX). */
    private static final class VerifiedOffsets {
        private final MBeanServerConnection mbs;
        private final ObjectName pattern;
        private final String topic;

        VerifiedOffsets(MBeanServerConnection mbs, String connector, String topic) throws Exception {
            this.mbs = mbs;
            this.pattern = new ObjectName("kafka.connect:type=plugins,connector=" + Sanitizer.jmxSanitize(connector) + ",*");
            this.topic = Sanitizer.jmxSanitize(topic);
        }

        /** Per partition the metric; a partition closed between the query and the read (rebalance) claims nothing. */
        Map<Integer, Long> read() throws Exception {
            Map<Integer, Long> v = new TreeMap<>();
            for (ObjectName n : mbs.queryNames(pattern, null)) {
                String p = n.getKeyProperty("partition");
                if (p != null && topic.equals(n.getKeyProperty("topic"))) {
                    try {
                        v.put(Integer.parseInt(p), ((Number) mbs.getAttribute(n, "destination-offset-verified")).longValue());
                    } catch (InstanceNotFoundException e) {
                        // closed since the query: its claim is not read
                    }
                }
            }
            return v;
        }
    }

    /** The product's metric claimed an offset durable that the store's listing, taken after it, did not show. */
    private static final class MetricAheadException extends Exception {
        MetricAheadException(String message) {
            super(message);
        }
    }

    /**
     * Done when the store's listing shows every record ({@link ListingVerdict}); the metric is read first, so that an
     * honest metric can only be at or behind the listing taken after it.
     */
    private static final class ListedChain implements Done {
        private final VerifiedOffsets metric;
        private final ChainReader reader;
        private final Map<Integer, Long> hw;
        private final Map<Integer, Long> logStart;
        private Map<Integer, Long> lastMetric = Map.of();
        private Map<Integer, Long> lastListed = Map.of();
        private String problem = "no listing yet";
        private long comparisons;

        ListedChain(VerifiedOffsets metric, ChainReader reader, Map<Integer, Long> hw, Map<Integer, Long> logStart) {
            this.metric = metric;
            this.reader = reader;
            this.hw = hw;
            this.logStart = logStart;
        }

        @Override
        public boolean done() throws Exception {
            Map<Integer, Long> claimed = metric.read();
            Map<Integer, Long> listed;
            try {
                listed = WaitCaughtUp.chainNextOffsets(reader, hw.keySet(), logStart);
            } catch (ChainException e) {
                // an upload in progress can show in a listing (S3Proxy lists <key>-<uuid> until it completes): poll again
                problem = "the chain does not validate: " + e.getMessage();
                return false;
            }
            lastMetric = claimed;
            lastListed = listed;
            problem = "";
            comparisons++;
            ListingVerdict v = ListingVerdict.judge(claimed, listed, hw);
            if (v.metricAhead().isPresent()) {
                throw new MetricAheadException(v.metricAhead().get() + " (metric " + claimed + ", listing " + listed + ")");
            }
            return v.done();
        }

        @Override
        public String lag() {
            return "the store's listing: chain next offsets " + lastListed + (problem.isEmpty() ? "" : " (" + problem + ")")
                    + "; destination-offset-verified " + lastMetric + " (from the worker's JMX; none means the task registered"
                    + " no metrics); high watermarks " + hw;
        }

        String summary() {
            return "done by the store's listing (chain next offsets " + lastListed + "); destination-offset-verified at that"
                    + " moment " + lastMetric + ", never ahead of the listing in " + comparisons + " polls";
        }
    }

    /** The FileStreamSink's output file: one line per record; new bytes are read and their newlines counted. */
    private static final class FileLines implements Done {
        private final Path file;
        private final long records;
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        private long position;
        private long lines;

        FileLines(Path file, long records) {
            this.file = file;
            this.records = records;
        }

        @Override
        public boolean done() throws IOException {
            if (!Files.exists(file)) {
                return false;
            }
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                int n;
                while ((n = ch.read(buffer.clear(), position)) > 0) {
                    position += n;
                    for (int i = 0; i < n; i++) {
                        if (buffer.get(i) == '\n') {
                            lines++;
                        }
                    }
                }
            }
            if (lines > records) {
                throw new IllegalStateException(file + " holds " + lines + " lines for " + records + " records: it was not empty");
            }
            return lines == records;
        }

        @Override
        public String lag() {
            return file + " holds " + lines + " of " + records + " lines";
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
