package dev.mirrorv3.bench;

import dev.mirrorv3.quickstart.TopicOffsets;
import dev.mirrorv3.quickstart.Usage;
import java.nio.file.Path;
import java.util.Locale;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * One timed sink run against a running worker: deploys a connector (PUT /connectors/name/config) and measures the
 * time from the deploy until the connector's group has committed every partition's high watermark
 * ({@link CommittedOffsets}: the same condition, read the same way, for every sink). Then the destination must hold
 * every record, read independently of the product:
 * <ul>
 *   <li>blob: a listing of the store shows every partition's chain ending at its high watermark, with the product's
 *       {@code destination-offset-verified} metric of every partition read before it and not ahead of it
 *       ({@link ListedChain}); the metric is also held against a listing every 10th poll during the run, and a
 *       metric ahead of the store fails the run;</li>
 *   <li>file: FileStreamSink's file holds one line per record;</li>
 *   <li>discard: the discard sink's count file counts every record.</li>
 * </ul>
 * A destination that does not hold every record within 5 s of the commit fails the run (the commit ran ahead of it).
 * The committed offsets are polled every 50 ms. Meanwhile the worker's heap is read through JMX: the peak of the heap
 * after each collection ({@link HeapAfterGc}, the collector's own figures), and the peak used heap sampled every 50 ms
 * (garbage included), and with {@code --profile} the sink task thread's stack ({@link HeapSampler}). Deletes the
 * connector at the end.
 *
 * The CPU the run used is read the same way for every sink ({@link CpuUse}): the worker's, by thread group, the
 * broker's (its pid file given as {@code -Dbench.broker.pid.file}) and the S3 server's ({@code -Dbench.s3.pid.file}).
 * With {@code -Dbench.full.gc.every.ms=N} the worker is asked for a full collection every N ms while the run lasts
 * ({@link FullCollections}), and the heap after those is its live heap. How the task's consumer fetched is printed
 * beside them ({@link ConsumerFetches}).
 *
 * <p>Prints {@code RESULT <label> <records> <seconds> <records/s> <heap after GC peak MiB> <used heap peak MiB>
 * <collections seen> <collections counted> <CPU s: worker task-thread flush-threads other-java jvm broker>
 * <live heap peak MiB, -1 without forced full collections> <CPU s of the S3 server, -1: none> <busy CPU s of the whole
 * machine, -1: unknown>} for the
 * script's summary, and {@code RESULT steady-<label> <records> <seconds> <records/s> <CPU s as above>}: the run's
 * {@link SteadyRate} and the CPU used within it (read at its first look and its last).
 *
 * <p>Usage: {@code SinkRun <label> <blob|file|discard> <connect-url> <connector-config.json> <bootstrap> <topic>
 * <jmx host:port> <timeout s> [--profile]}
 */
public final class SinkRun {
    private SinkRun() {
    }

    public static void main(String[] args) throws Exception {
        Usage.atLeast(args, 8, "SinkRun <label> <blob|file|discard> <connect-url> <config.json> <bootstrap> <topic> <jmx host:port>"
                + " <timeout s> [--profile]");
        String label = args[0];
        Path configFile = Path.of(args[3]);
        String topic = args[5];
        TimedDeploy run = new TimedDeploy(label, args[2], configFile, Long.parseLong(args[7]));
        try (TopicOffsets offsets = new TopicOffsets(args[4]);
             JMXConnector jmxc = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + args[6] + "/jmxrmi"))) {
            TopicRange range = TopicRange.of(offsets, topic);
            MBeanServerConnection mbs = jmxc.getMBeanServerConnection();
            HeapSampler sampler = new HeapSampler(mbs, run.name(), args.length > 8 && args[8].equals("--profile"));
            String brokerPid = System.getProperty("bench.broker.pid.file");
            String storeServerPid = System.getProperty("bench.s3.pid.file");
            CpuUse cpu = new CpuUse(mbs, run.name(), brokerPid == null ? null : Path.of(brokerPid),
                    storeServerPid == null ? null : Path.of(storeServerPid));
            ConsumerFetches fetches = new ConsumerFetches(mbs, run.name());
            SinkCheck destination = destination(args[1], mbs, configFile, run, topic, range);
            CommittedOffsets committed = new CommittedOffsets(offsets, run.name(), topic, range.highWatermarks());
            SteadyRate steady = new SteadyRate(range);
            SteadyCpu steadyCpu = new SteadyCpu(steady, cpu);
            double seconds;
            try (HeapAfterGc afterGc = HeapAfterGc.listen(mbs)) {
                sampler.start();
                cpu.start();
                fetches.start();
                boolean done;
                CpuUse.Use used;
                try (FullCollections full = FullCollections.every(mbs, Long.getLong("bench.full.gc.every.ms", 0))) {
                    run.deploy();
                    done = awaitCommitted(label, run, committed, destination, sampler, steadyCpu);
                    seconds = run.seconds();
                    used = cpu.stop();
                }
                sampler.stop();
                if (!done) {
                    fail(label, run, String.format(Locale.ROOT, "not caught up after %.0f s: %s; %s", seconds, committed.lag(),
                            destination.lag()));
                }
                awaitDestination(label, run, destination);
                System.out.println(label + ": " + fetches.describe());
                afterGc.close();
                report(label, range.records(), seconds, new Readings(sampler, afterGc, destination, used, steady, steadyCpu));
            }
            if (destination instanceof ListedChain listed) {
                listed.close();
            }
            run.delete();
        }
    }

    private static SinkCheck destination(String kind, MBeanServerConnection mbs, Path configFile, TimedDeploy run, String topic,
                                         TopicRange range) throws Exception {
        return switch (kind) {
            case "blob" -> ListedChain.open(mbs, configFile, run.name(), topic, range);
            case "file" -> new FileLines(Path.of((String) run.setting("file")), range.records());
            case "discard" -> new DiscardCount(Path.of((String) run.setting("count.file")), range.records());
            default -> throw new IllegalArgumentException("unknown sink kind " + kind + ": blob, file or discard");
        };
    }

    /** Polls the group's commits every 50 ms; a blob sink's metric ahead of its store's listing fails the run at once. */
    private static boolean awaitCommitted(String label, TimedDeploy run, CommittedOffsets committed, SinkCheck destination,
                                          HeapSampler sampler, SteadyCpu steady) throws Exception {
        int[] polls = {0};
        try {
            return run.awaitDone(() -> {
                if (destination instanceof ListedChain && ++polls[0] % 10 == 0) {
                    destination.done();
                }
                boolean done = committed.done();
                steady.observe(run.seconds(), committed.last());
                return done;
            }, 50);
        } catch (MetricAheadException e) {
            sampler.abandon();
            fail(label, run, String.format(Locale.ROOT, "the product's metric ran ahead of the store after %.2f s: %s", run.seconds(),
                    e.getMessage()));
            return false;
        }
    }

    /** The destination holds every record once the group has committed them, or the run fails. */
    private static void awaitDestination(String label, TimedDeploy run, SinkCheck destination) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        try {
            while (!destination.done()) {
                if (System.nanoTime() > deadline) {
                    fail(label, run, "the group committed every record, but 5 s later the destination does not hold them: "
                            + destination.lag());
                }
                Thread.sleep(50);
            }
        } catch (MetricAheadException e) {
            fail(label, run, "the product's metric ran ahead of the store: " + e.getMessage());
        }
    }

    private static void fail(String label, TimedDeploy run, String why) throws Exception {
        run.delete();
        System.err.println(label + ": " + why);
        System.exit(1);
    }

    /** What a run read beside its clock. */
    private record Readings(HeapSampler sampler, HeapAfterGc afterGc, SinkCheck destination, CpuUse.Use cpu, SteadyRate steady,
                            SteadyCpu steadyCpu) {
    }

    /** The steady state's rate and the CPU used within it: a reading of every part's CPU at its first look and its last. */
    private static final class SteadyCpu {
        private final SteadyRate rate;
        private final CpuUse cpu;
        private CpuUse.Snapshot begin;
        private CpuUse.Use used;

        SteadyCpu(SteadyRate rate, CpuUse cpu) {
            this.rate = rate;
            this.cpu = cpu;
        }

        void observe(double seconds, java.util.Map<Integer, Long> committed) {
            boolean begun = rate.begun();
            boolean ended = rate.ended();
            rate.observe(seconds, committed);
            if (!begun && rate.begun()) {
                begin = cpu.mark();
            } else if (!ended && rate.ended() && begin != null) {
                used = cpu.between(begin, cpu.mark());
            }
        }

        /** The CPU used between the steady state's looks; null when it was not measured. */
        CpuUse.Use used() {
            return rate.measured() ? used : null;
        }
    }

    private static void report(String label, long records, double seconds, Readings r) {
        System.out.printf(Locale.ROOT, "%s: %,d records in %.2f s = %,.0f records/s; worker heap after GC peak %.0f MiB (%d of %d"
                + " collections seen), used heap peak %.0f MiB (garbage included; %.0f MiB after a full GC before the run)%n", label,
                records, seconds, records / seconds, r.afterGc().peakMiB(), r.afterGc().seen(), r.afterGc().counted(),
                r.sampler().peakMiB(), r.sampler().baselineMiB());
        if (r.destination() instanceof ListedChain listed) {
            System.out.println(label + ": " + listed.summary());
        }
        System.out.println(label + ": over the run, " + r.cpu().describe(seconds));
        SteadyRate steady = r.steady();
        if (steady.measured()) {
            System.out.printf(Locale.ROOT, "%s: steady state (from %.0f%% to %.0f%% of the records committed): %,d records in %.2f s"
                    + " = %,.0f records/s%n", label, 100 * SteadyRate.FROM_SHARE, 100 * SteadyRate.TO_SHARE, steady.records(),
                    steady.seconds(), steady.records() / steady.seconds());
            if (r.steadyCpu().used() != null) {
                System.out.println(label + ": in the steady state, " + r.steadyCpu().used().describe(steady.seconds()));
            }
        }
        if (r.sampler().profiling()) {
            r.sampler().printProfile(label);
        }
        if (r.afterGc().livePeakMiB() >= 0) {
            System.out.printf(Locale.ROOT, "%s: live heap (after the full collections the bench forced) peak %.0f MiB%n", label,
                    r.afterGc().livePeakMiB());
        }
        System.out.printf(Locale.ROOT, "RESULT %s %d %.3f %.0f %.0f %.0f %d %d %s %.0f %s%n", label, records, seconds,
                records / seconds, r.afterGc().peakMiB(), r.sampler().peakMiB(), r.afterGc().seen(), r.afterGc().counted(),
                r.cpu().fields(), r.afterGc().livePeakMiB(), r.cpu().lastFields());
        if (steady.measured()) {
            CpuUse.Use within = r.steadyCpu().used();
            System.out.printf(Locale.ROOT, "RESULT steady-%s %d %.3f %.0f%s%n", label, steady.records(), steady.seconds(),
                    steady.records() / steady.seconds(), within == null ? "" : " " + within.fields() + " " + within.lastFields());
        }
    }
}
