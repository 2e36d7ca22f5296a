package dev.mirrorv3.bench;

import dev.mirrorv3.quickstart.TopicOffsets;
import dev.mirrorv3.quickstart.Usage;
import java.nio.file.Path;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

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
 * {@code --profile} the sink task thread's stack ({@link HeapSampler}). Deletes the connector at the end.
 *
 * <p>Prints {@code RESULT <label> <records> <seconds> <records/s> <peak heap MiB>} for the script's summary.
 *
 * <p>Usage: {@code SinkRun <label> <blob|file> <connect-url> <connector-config.json> <bootstrap> <topic> <jmx host:port>
 * <timeout s> [--profile]}
 */
public final class SinkRun {
    private SinkRun() {
    }

    public static void main(String[] args) throws Exception {
        Usage.atLeast(args, 8, "SinkRun <label> <blob|file> <connect-url> <config.json> <bootstrap> <topic> <jmx host:port>"
                + " <timeout s> [--profile]");
        String label = args[0];
        boolean blob = args[1].equals("blob");
        Path configFile = Path.of(args[3]);
        String topic = args[5];
        boolean profile = args.length > 8 && args[8].equals("--profile");
        TimedDeploy run = new TimedDeploy(label, args[2], configFile, Long.parseLong(args[7]));
        try (TopicOffsets offsets = new TopicOffsets(args[4]);
             JMXConnector jmxc = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + args[6] + "/jmxrmi"))) {
            TopicRange range = TopicRange.of(offsets, topic);
            MBeanServerConnection mbs = jmxc.getMBeanServerConnection();
            HeapSampler sampler = new HeapSampler(mbs, run.name(), profile);
            SinkCheck check = blob ? ListedChain.open(mbs, configFile, run.name(), topic, range)
                    : new FileLines(Path.of((String) run.setting("file")), range.records());
            sampler.start();
            run.deploy();
            boolean done = awaitDone(label, run, check, sampler);
            double seconds = run.seconds();
            sampler.stop();
            if (!done) {
                run.delete();
                System.err.printf("%s: not caught up after %.0f s: %s%n", label, seconds, check.lag());
                System.exit(1);
            }
            if (check instanceof ListedChain listed) {
                listed.close();
            }
            run.delete();
            report(label, range.records(), seconds, sampler, check);
        }
    }

    /** Polls the check every 50 ms; a metric ahead of the store's listing fails the run at once. */
    private static boolean awaitDone(String label, TimedDeploy run, SinkCheck check, HeapSampler sampler) throws Exception {
        try {
            return run.awaitDone(check, 50);
        } catch (MetricAheadException e) {
            sampler.abandon();
            run.delete();
            System.err.printf("%s: the product's metric ran ahead of the store after %.2f s: %s%n", label, run.seconds(),
                    e.getMessage());
            System.exit(1);
            return false;
        }
    }

    private static void report(String label, long records, double seconds, HeapSampler sampler, SinkCheck check) {
        System.out.printf("%s: %,d records in %.2f s = %,.0f records/s; worker heap peak %.0f MiB (%.0f MiB before the run)%n",
                label, records, seconds, records / seconds, sampler.peakMiB(), sampler.baselineMiB());
        if (check instanceof ListedChain listed) {
            System.out.println(label + ": " + listed.summary());
        }
        if (sampler.profiling()) {
            sampler.printProfile(label);
        }
        System.out.printf("RESULT %s %d %.3f %.0f %.0f%n", label, records, seconds, records / seconds, sampler.peakMiB());
    }
}
