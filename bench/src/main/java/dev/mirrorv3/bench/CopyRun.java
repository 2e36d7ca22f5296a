package dev.mirrorv3.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.quickstart.ConnectorStatus;
import dev.mirrorv3.quickstart.TopicOffsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

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
        if (args.length < 8) {
            System.err.println("usage: CopyRun <label> <connect-url> <config.json> <source bootstrap> <source topic>"
                    + " <destination bootstrap> <destination topic> <timeout s>");
            System.exit(2);
        }
        String label = args[0];
        String connectUrl = args[1];
        Path configFile = Path.of(args[2]);
        String sourceTopic = args[4];
        String destinationTopic = args[6];
        long timeoutNanos = Long.parseLong(args[7]) * 1_000_000_000L;
        @SuppressWarnings("unchecked")
        Map<String, Object> config = new ObjectMapper().readValue(Files.readString(configFile), Map.class);
        String name = (String) config.get("name");
        try (TopicOffsets source = new TopicOffsets(args[3]); TopicOffsets destination = new TopicOffsets(args[5])) {
            Map<Integer, Long> hw = source.highWatermarks(sourceTopic);
            Map<Integer, Long> logStart = source.logStartOffsets(sourceTopic);
            long records = 0;
            for (int p : hw.keySet()) {
                records += hw.get(p) - logStart.get(p);
            }
            Map<Integer, Long> before;
            try {
                before = destination.highWatermarks(destinationTopic);
            } catch (Exception e) {
                throw new IllegalStateException(label + ": destination topic " + destinationTopic + " is not there; create it (with "
                        + hw.size() + " partitions) before the run", e);
            }
            if (before.size() != hw.size() || before.values().stream().anyMatch(o -> o != 0)) {
                throw new IllegalStateException(label + ": destination topic " + destinationTopic + " must be empty with " + hw.size()
                        + " partitions before the run; it has end offsets " + before);
            }
            long t0 = System.nanoTime();
            SinkRun.put(connectUrl, name, Files.readString(configFile));
            long lastStatusCheck = t0;
            boolean done = false;
            while (System.nanoTime() - t0 < timeoutNanos) {
                try {
                    if (destination.highWatermarks(destinationTopic).equals(hw)) {
                        done = true;
                        break;
                    }
                } catch (Exception e) {
                    // a slow answer from the destination under load: poll again until the timeout
                }
                if (System.nanoTime() - lastStatusCheck > 1_000_000_000L) {
                    lastStatusCheck = System.nanoTime();
                    Optional<String> failed = ConnectorStatus.failure(connectUrl, name);
                    if (failed.isPresent()) {
                        System.err.println(label + ": " + failed.get());
                        break;
                    }
                }
                Thread.sleep(20);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            SinkRun.delete(connectUrl, name);
            if (!done) {
                System.err.printf("%s: destination %s not caught up after %.0f s%n", label, destinationTopic, seconds);
                System.exit(1);
            }
            System.out.printf("%s: %,d records in %.2f s = %,.0f records/s%n", label, records, seconds, records / seconds);
            System.out.printf("RESULT %s %d %.3f %.0f%n", label, records, seconds, records / seconds);
        }
    }
}
