package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.kafka.AdminWait;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * What restore needs to know of its target topic: partitions, replicas and the effective (topic or broker default)
 * {@code max.message.bytes}, {@code retention.ms}, {@code retention.bytes}, {@code min.insync.replicas},
 * {@code message.timestamp.type} and {@code cleanup.policy}. Restore creates a topic only with {@code --create-topic}
 * (TopicCreator), before this inspection.
 *
 * @param replicationFactor the fewest replicas of any of its partitions
 */
public record TargetTopic(String name, int partitions, int maxMessageBytes, long retentionMs, boolean logAppendTime, boolean compacted,
        long retentionBytes, int replicationFactor, int minInsyncReplicas) {

    /**
     * Why retention.bytes would delete some of these records once restored (the broker deletes whole old segments of a log
     * larger than it), or empty.
     */
    public java.util.Optional<String> retentionBytesProblem(RestoredPartition r) {
        if (retentionBytes < 0 || r.logBytes() <= retentionBytes) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("target topic " + name + " has retention.bytes=" + retentionBytes + ", and the records restored"
                + " into partition " + r.partition() + " (" + r.location() + ") take at least " + r.logBytes() + " bytes in the log"
                + " (uncompressed, as restore writes them): retention would delete the oldest of them minutes after the restore. Set"
                + " retention.bytes=-1 (or at least " + r.logBytes() + ") on the topic first, or pass --accept-retention");
    }

    /** Why every acks=all produce into this topic would fail (more in-sync replicas required than it has), or empty. */
    public java.util.Optional<String> minInsyncProblem() {
        if (minInsyncReplicas <= replicationFactor) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("target topic " + name + " has min.insync.replicas=" + minInsyncReplicas + " and "
                + replicationFactor + " replica(s): every acks=all produce would fail (NOT_ENOUGH_REPLICAS) until the delivery"
                + " timeout. Set min.insync.replicas=" + replicationFactor + " on the topic (kafka-configs.sh --alter --entity-type"
                + " topics --entity-name " + name + " --add-config min.insync.replicas=" + replicationFactor + "), or restore into a"
                + " topic with more replicas");
    }

    /**
     * Why restoring into this topic would restamp every record (message.timestamp.type=LogAppendTime), unless
     * --accept-log-append-time accepts it; or empty. A chain's restore and a snapshot's refuse it alike.
     */
    public java.util.Optional<String> logAppendTimeProblem(boolean accepted) {
        if (!logAppendTime || accepted) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("target topic " + name + " has message.timestamp.type=LogAppendTime: every restored record would"
                + " be stamped with the time of the restore instead of its own. Set message.timestamp.type=CreateTime on the topic,"
                + " or pass --accept-log-append-time");
    }

    public static TargetTopic inspect(Admin admin, String topic, Duration timeout) {
        ConfigResource res = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Supplier<String> noAnswer = () -> "describing target topic " + topic + " timed out after " + timeout;
        TopicDescription d;
        Config c;
        try {
            d = AdminWait.await(() -> admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic), noAnswer);
            c = AdminWait.await(() -> admin.describeConfigs(List.of(res)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(res),
                    noAnswer);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new RestoreCheckException("target topic " + topic
                        + " does not exist: restore never creates topics without --create-topic; pass"
                        + " --create-topic to create it from the backed-up topic metadata, or create it with the partitions,"
                        + " cleanup.policy and retention it should have, then restore again");
            }
            throw AdminWait.failure("describing target topic " + topic, e);
        }
        int maxMessageBytes = Integer.parseInt(c.get("max.message.bytes").value());
        long retentionMs = Long.parseLong(c.get("retention.ms").value());
        boolean logAppend = "LogAppendTime".equalsIgnoreCase(c.get("message.timestamp.type").value());
        boolean compacted = c.get("cleanup.policy").value().contains("compact");
        long retentionBytes = Long.parseLong(c.get("retention.bytes").value());
        int replicas = d.partitions().stream().mapToInt(p -> p.replicas().size()).min().orElse(0);
        int minInsync = Integer.parseInt(c.get("min.insync.replicas").value());
        return new TargetTopic(topic, d.partitions().size(), maxMessageBytes, retentionMs, logAppend, compacted, retentionBytes,
                replicas, minInsync);
    }
}
