package dev.mirrorv3.bench;

import dev.mirrorv3.quickstart.TopicOffsets;
import dev.mirrorv3.quickstart.Usage;
import java.nio.file.Path;
import java.util.Map;

/**
 * One timed Kafka → Kafka copy against a running worker: deploys a connector (PUT /connectors/name/config) and measures
 * the time from the deploy until every partition of the destination topic has the source partition's high watermark
 * (the records are acknowledged by the destination). The destination topic must exist and be empty before the deploy
 * (the script creates it for every connector, MirrorMaker 2's included, so that no run's time includes a topic creation).
 * Deletes the connector at the end.
 *
 * <p>Prints {@code RESULT <label> <records> <seconds> <records/s>} for the script's summary.
 *
 * <p>Usage: {@code CopyRun <label> <connect-url> <config.json> <source bootstrap> <source topic> <destination bootstrap>
 * <destination topic> <timeout s>}
 */
public final class CopyRun {
    private CopyRun() {
    }

    public static void main(String[] args) throws Exception {
        Usage.atLeast(args, 8, "CopyRun <label> <connect-url> <config.json> <source bootstrap> <source topic>"
                + " <destination bootstrap> <destination topic> <timeout s>");
        String label = args[0];
        String destinationTopic = args[6];
        TimedDeploy run = new TimedDeploy(label, args[1], Path.of(args[2]), Long.parseLong(args[7]));
        try (TopicOffsets source = new TopicOffsets(args[3]); TopicOffsets destination = new TopicOffsets(args[5])) {
            TopicRange range = TopicRange.of(source, args[4]);
            Map<Integer, Long> hw = range.highWatermarks();
            requireEmpty(label, destination, destinationTopic, hw.size());
            run.deploy();
            boolean done = run.awaitDone(() -> caughtUp(destination, destinationTopic, hw), 20);
            double seconds = run.seconds();
            run.delete();
            if (!done) {
                System.err.printf("%s: destination %s not caught up after %.0f s%n", label, destinationTopic, seconds);
                System.exit(1);
            }
            long records = range.records();
            System.out.printf("%s: %,d records in %.2f s = %,.0f records/s%n", label, records, seconds, records / seconds);
            System.out.printf("RESULT %s %d %.3f %.0f%n", label, records, seconds, records / seconds);
        }
    }

    /** The destination topic must be there, empty, with the source's partitions: no run's time includes a creation. */
    private static void requireEmpty(String label, TopicOffsets destination, String topic, int partitions) throws Exception {
        Map<Integer, Long> before;
        try {
            before = destination.highWatermarks(topic);
        } catch (Exception e) {
            throw new IllegalStateException(label + ": destination topic " + topic + " is not there; create it (with "
                    + partitions + " partitions) before the run", e);
        }
        if (before.size() != partitions || before.values().stream().anyMatch(o -> o != 0)) {
            throw new IllegalStateException(label + ": destination topic " + topic + " must be empty with " + partitions
                    + " partitions before the run; it has end offsets " + before);
        }
    }

    private static boolean caughtUp(TopicOffsets destination, String topic, Map<Integer, Long> hw) {
        try {
            return destination.highWatermarks(topic).equals(hw);
        } catch (Exception e) {
            // a slow answer from the destination under load: poll again until the timeout
            return false;
        }
    }
}
