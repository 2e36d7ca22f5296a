package dev.mirrorv3.quickstart;

import java.util.Map;
import java.util.Optional;

/**
 * How far a copy of a topic (the Kafka sink's mirror, the chain source's standby) is behind the topic: per partition
 * the topic's high watermark, the copy's, and the lag (offsets are preserved, so equal high watermarks mean caught
 * up). With a wait, polls until the copy has caught up, failing fast when the connector or its task has FAILED.
 *
 * <p>Usage: {@code CopyLag <bootstrap servers> <topic> <copy topic> <connector> <connect url> <wait seconds, 0: show once>}
 */
public final class CopyLag {
    private CopyLag() {
    }

    public static void main(String[] args) throws Exception {
        Usage.exactly(args, 6, "CopyLag <bootstrap servers> <topic> <copy topic> <connector> <connect url> <wait seconds>");
        String topic = args[1];
        String copy = args[2];
        String connector = args[3];
        long waitSeconds = Long.parseLong(args[5]);
        long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
        long start = System.nanoTime();
        try (TopicOffsets offsets = new TopicOffsets(args[0])) {
            while (true) {
                Map<Integer, Long> source = offsets.highWatermarks(topic);
                Map<Integer, Long> target = offsets.highWatermarks(copy);
                long lag = lag(source, target);
                if (waitSeconds == 0 || lag == 0) {
                    System.out.printf("%s: %s high watermarks %s, %s %s: lag %d%s%n", connector, topic, source, copy, target, lag,
                            waitSeconds > 0 ? String.format(" (caught up in %.1f s)", (System.nanoTime() - start) / 1e9) : "");
                    return;
                }
                Optional<String> failed = ConnectorStatus.failure(args[4], connector);
                if (failed.isPresent()) {
                    System.err.println(failed.get());
                    System.exit(1);
                }
                if (System.nanoTime() > deadline) {
                    System.err.printf("timed out after %d s waiting for %s to catch up with %s: %s vs %s (lag %d)%n", waitSeconds, copy,
                            topic, target, source, lag);
                    System.exit(1);
                }
                Thread.sleep(250);
            }
        }
    }

    /** Records the copy lacks, over all partitions; a partition the copy does not have counts whole. */
    static long lag(Map<Integer, Long> source, Map<Integer, Long> copy) {
        long lag = 0;
        for (Map.Entry<Integer, Long> e : source.entrySet()) {
            lag += Math.max(0, e.getValue() - copy.getOrDefault(e.getKey(), 0L));
        }
        return lag;
    }
}
