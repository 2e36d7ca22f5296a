package dev.mirrorv3.kafka;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a sink's consumer group a committed offset for every partition that has none. Our sinks run with
 * {@code auto.offset.reset=none} (so a lost position fails instead of jumping), and Connect asks the consumer for
 * its position before the task's {@code open()} can seek: without a committed offset that is
 * {@code NoOffsetForPartitionException}. The offset seeded is the log start; {@code open()} then seeks to the
 * destination's real position, so the group's offsets never decide anything.
 */
public final class GroupOffsetSeeder {
    private static final Logger log = LoggerFactory.getLogger(GroupOffsetSeeder.class);

    private GroupOffsetSeeder() {
    }

    /**
     * Seeds the group of a sink connector's task from its task config ({@code topics}, the group id Connect gives it:
     * {@code consumer.override.group.id} or {@code connect-<name>}); call it in the task's {@code start()}, before the
     * consumer joins. A failure is logged, not thrown: a partition that really has no committed offset then fails with
     * NoOffsetForPartitionException, and a task restart seeds it again. With {@code topics.regex} nothing is seeded.
     */
    public static void seedForSinkTask(Admin admin, SourceOffsets offsets, Map<String, String> taskProps, String connectorName,
                                       long timeoutMs) {
        List<String> topics = java.util.Arrays.stream(taskProps.getOrDefault("topics", "").split(","))
                .map(String::trim).filter(t -> !t.isEmpty()).toList();
        if (topics.isEmpty()) {
            return;
        }
        String groupId = taskProps.getOrDefault("consumer.override.group.id", "connect-" + connectorName);
        try {
            seedMissing(admin, offsets, groupId, topics, timeoutMs);
        } catch (Exception e) {
            log.warn("could not seed committed offsets of group {}: {}", groupId, Failures.describe(e));
        }
    }

    public static void seedMissing(Admin admin, SourceOffsets offsets, String groupId, Collection<String> topics, long timeoutMs)
            throws Exception {
        Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames().get(timeoutMs, TimeUnit.MILLISECONDS);
        List<TopicPartition> partitions = described.values().stream()
                .flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(), p.partition())))
                .toList();
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata().get(timeoutMs, TimeUnit.MILLISECONDS);
        List<TopicPartition> missing = partitions.stream().filter(tp -> committed.get(tp) == null).toList();
        if (missing.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> seed = new HashMap<>();
        offsets.logStartOffsets(missing).forEach((tp, o) -> seed.put(tp, new OffsetAndMetadata(o, "seeded by mirror-v3; not a position")));
        admin.alterConsumerGroupOffsets(groupId, seed).all().get(timeoutMs, TimeUnit.MILLISECONDS);
        log.info("seeded committed offsets of group {} for {} partition(s) without one (log start; the destination decides"
                + " the real position)", groupId, seed.size());
    }
}
