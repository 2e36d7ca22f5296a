package dev.mirrorv3.quickstart;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Work-around for a first deployment with {@code consumer.override.auto.offset.reset=none}: Connect's
 * WorkerSinkTask asks the consumer for each assigned partition's position <em>before</em> it calls the task's
 * {@code open()} (where the blob sink seeks to its chain's end), so a sink consumer group without committed
 * offsets fails with NoOffsetForPartitionException. This commits the log-start offset for every partition that
 * has no committed offset in the connector's group ({@code connect-<connector>}), and leaves committed offsets
 * alone. The blob sink still positions itself from its chain in {@code open()}.
 *
 * <p>Usage: {@code SeedSinkOffsets <bootstrap.servers> <connector-name> <topic>}
 */
public final class SeedSinkOffsets {
    private SeedSinkOffsets() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: SeedSinkOffsets <bootstrap.servers> <connector-name> <topic>");
            System.exit(2);
        }
        String group = "connect-" + args[1];
        String topic = args[2];
        try (TopicOffsets offsets = new TopicOffsets(args[0])) {
            Map<Integer, Long> committed = offsets.committed(group, topic);
            Map<TopicPartition, OffsetAndMetadata> seed = new HashMap<>();
            offsets.logStartOffsets(topic).forEach((p, start) -> {
                if (!committed.containsKey(p)) {
                    seed.put(new TopicPartition(topic, p), new OffsetAndMetadata(start));
                }
            });
            if (!seed.isEmpty()) {
                offsets.admin().alterConsumerGroupOffsets(group, seed).all().get(15, TimeUnit.SECONDS);
                System.out.println("committed log-start offsets for " + seed.size() + " partition(s) of " + topic
                        + " in group " + group + " (the connector still starts from its chain's end)");
            }
        }
    }
}
