package dev.mirrorv3.bench;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.quickstart.BlobSinkSettings;
import dev.mirrorv3.quickstart.ConnectorStatus;
import dev.mirrorv3.quickstart.TopicOffsets;
import dev.mirrorv3.quickstart.Usage;
import dev.mirrorv3.quickstart.WaitCaughtUp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.common.utils.Sanitizer;

/**
 * One timed run of the tee bench against a running worker: deploys one or more blob sink connectors on the same topic
 * at once (a tee of two destinations, or one connector per destination) and measures the time from the first deploy
 * until every connector's group has committed every partition's high watermark ({@link CommittedOffsets}; a tee's group
 * commits the lowest durable offset over its destinations). Then every copy must be complete: each destination's store
 * listing shows every partition's chain ending at its high watermark, within 5 s. The bytes the connectors' consumers
 * fetched from the source (their {@code bytes-consumed-total}, through the worker's JMX) are summed and set beside the
 * topic's log size on the broker. Deletes the connectors at the end.
 *
 * <p>Prints {@code RESULT <label> <records> <seconds> <records/s> <source bytes fetched> <topic log bytes>}.
 *
 * <p>Usage: {@code TeeRun <label> <connect-url> <bootstrap> <topic> <jmx host:port> <timeout s> <config.json>[#destination,...]...};
 * a config's destinations (a tee's names, as {@code mirror-v3 --destination} takes them) after a {@code #}, none for a
 * connector's one destination.
 */
public final class TeeRun {
    private TeeRun() {
    }

    /** One copy: a connector's store listing, for one of its destinations. */
    private record Copy(String what, Store store, ChainReader reader) {
        boolean complete(TopicRange range) throws Exception {
            try {
                return WaitCaughtUp.chainNextOffsets(reader, range.highWatermarks().keySet(), range.logStart())
                        .equals(range.highWatermarks());
            } catch (ChainException e) {
                return false; // an upload in progress can show in a listing (S3Proxy): look again
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Usage.atLeast(args, 7, "TeeRun <label> <connect-url> <bootstrap> <topic> <jmx host:port> <timeout s>"
                + " <config.json>[#destination,...]...");
        String label = args[0];
        String topic = args[3];
        List<TimedDeploy> runs = new ArrayList<>();
        List<Copy> copies = new ArrayList<>();
        for (int i = 6; i < args.length; i++) {
            String[] spec = args[i].split("#", 2);
            TimedDeploy run = new TimedDeploy(label, args[1], Path.of(spec[0]), Long.parseLong(args[5]));
            runs.add(run);
            for (String d : spec.length > 1 ? List.of(spec[1].split(",")) : java.util.Collections.<String>singletonList(null)) {
                BlobSinkSettings s = BlobSinkSettings.load(Path.of(spec[0]), run.name(), d);
                Store store = s.store();
                copies.add(new Copy(run.name() + (d == null ? "" : " (" + d + ")"), store, s.reader(store)));
            }
        }
        try (TopicOffsets offsets = new TopicOffsets(args[2]);
             JMXConnector jmxc = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + args[4] + "/jmxrmi"))) {
            TopicRange range = TopicRange.of(offsets, topic);
            for (Copy c : copies) {
                c.complete(range); // the store client's first request (connection, class loading) is not the run's
            }
            List<CommittedOffsets> committed = runs.stream()
                    .map(r -> new CommittedOffsets(offsets, r.name(), topic, range.highWatermarks())).toList();
            long start = System.nanoTime();
            for (TimedDeploy r : runs) {
                r.deploy();
            }
            boolean done = awaitCommitted(label, args[1], runs, committed);
            double seconds = (System.nanoTime() - start) / 1e9;
            if (!done) {
                fail(label, runs, String.format(Locale.ROOT, "not caught up after %.0f s: %s", seconds,
                        committed.stream().map(CommittedOffsets::lag).toList()));
            }
            awaitCopies(label, runs, copies, range);
            double fetched = fetchedBytes(jmxc.getMBeanServerConnection(), runs);
            long log = logBytes(offsets, topic);
            System.out.printf(Locale.ROOT, "%s: %,d records in %.2f s = %,.0f records/s until %d copies were complete (%s); the"
                    + " consumers fetched %,.0f bytes of the source, the topic's log is %,d bytes (%.2fx)%n", label, range.records(),
                    seconds, range.records() / seconds, copies.size(), copies.stream().map(Copy::what).toList(), fetched, log,
                    fetched / log);
            System.out.printf(Locale.ROOT, "RESULT %s %d %.3f %.0f %.0f %d%n", label, range.records(), seconds, range.records() / seconds,
                    fetched, log);
            for (TimedDeploy r : runs) {
                r.delete();
            }
        } finally {
            copies.forEach(c -> c.store().close());
        }
    }

    /** Polls every group's commits every 50 ms; false when a connector FAILED or the timeout passed. */
    private static boolean awaitCommitted(String label, String connectUrl, List<TimedDeploy> runs, List<CommittedOffsets> committed)
            throws Exception {
        int[] polls = {0};
        try {
            return runs.get(0).awaitDone(() -> {
                if (++polls[0] % 20 == 0) {
                    failedOther(connectUrl, runs); // the first one's status is awaitDone's own
                }
                return committed.stream().allMatch(CommittedOffsets::done);
            }, 50);
        } catch (IllegalStateException e) {
            System.err.println(label + ": " + e.getMessage());
            return false;
        }
    }

    /** A connector but the first that FAILED ends the run (said on standard error), as a timeout does. */
    private static void failedOther(String connectUrl, List<TimedDeploy> runs) throws Exception {
        for (TimedDeploy r : runs.subList(1, runs.size())) {
            Optional<String> failed = ConnectorStatus.failure(connectUrl, r.name());
            if (failed.isPresent()) {
                throw new IllegalStateException(failed.get());
            }
        }
    }

    /** Every copy complete once the groups committed, or the run fails. */
    private static void awaitCopies(String label, List<TimedDeploy> runs, List<Copy> copies, TopicRange range) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        for (Copy c : copies) {
            while (!c.complete(range)) {
                if (System.nanoTime() > deadline) {
                    fail(label, runs, "the groups committed every record, but 5 s later " + c.what() + " does not hold them");
                }
                Thread.sleep(50);
            }
        }
    }

    /** The source bytes the connectors' consumers fetched (every task's consumer). */
    private static double fetchedBytes(MBeanServerConnection mbs, List<TimedDeploy> runs) throws Exception {
        double bytes = 0;
        for (TimedDeploy r : runs) {
            ObjectName pattern = new ObjectName("kafka.consumer:type=consumer-fetch-manager-metrics,client-id=connector-consumer-"
                    + Sanitizer.jmxSanitize(r.name()) + "-*");
            for (ObjectName n : mbs.queryNames(pattern, null)) {
                bytes += ((Number) mbs.getAttribute(n, "bytes-consumed-total")).doubleValue();
            }
        }
        return bytes;
    }

    /** The size of the topic's log on the broker(s). */
    private static long logBytes(TopicOffsets offsets, String topic) throws Exception {
        List<Integer> brokers = offsets.admin().describeCluster().nodes().get(30, TimeUnit.SECONDS).stream().map(n -> n.id()).toList();
        long bytes = 0;
        for (Map<String, LogDirDescription> dirs : offsets.admin().describeLogDirs(brokers).allDescriptions().get(30, TimeUnit.SECONDS)
                .values()) {
            bytes += dirs.values().stream().flatMap(d -> d.replicaInfos().entrySet().stream())
                    .filter(e -> e.getKey().topic().equals(topic)).mapToLong(e -> e.getValue().size()).sum();
        }
        return bytes;
    }

    private static void fail(String label, List<TimedDeploy> runs, String why) throws Exception {
        for (TimedDeploy r : runs) {
            r.delete();
        }
        System.err.println(label + ": " + why);
        System.exit(1);
    }
}
