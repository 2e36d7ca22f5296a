package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.restore.VerifiedObject;
import dev.mirrorv3.chain.restore.VerifiedPartition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates a restore's target topic from the backed-up topic metadata ({@code --create-topic}): the same partition
 * count and the configs that were set on the source topic; the replication factor given or the backed-up one. Every
 * check that can refuse runs before the topic is created, so a refused restore leaves nothing behind.
 */
public final class TopicCreator {

    /** What will be created. */
    public record Plan(String topic, int partitions, int replicationFactor, Map<String, String> configs) {
        public Plan {
            configs = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(configs));
        }
    }

    private TopicCreator() {
    }

    /**
     * @param replicationFactor {@code --replication-factor}, or null for the backed-up one
     * @param from where the snapshot was read, for messages
     */
    public static Plan plan(TopicSnapshot snapshot, String targetTopic, Integer replicationFactor, List<VerifiedPartition> partitions,
            String from) {
        for (VerifiedPartition vp : partitions) {
            if (vp.partition() >= snapshot.partitions()) {
                throw new RestoreCheckException("the backup has partition " + vp.partition() + " (" + vp.location() + "), and the topic"
                        + " snapshot " + from + " says " + snapshot.topic() + " had " + snapshot.partitions() + " partitions: the snapshot"
                        + " is older than the partitions added since; create the topic by hand with enough partitions and restore"
                        + " without --create-topic");
            }
        }
        int rf = replicationFactor != null ? replicationFactor : snapshot.replicationFactor();
        return new Plan(targetTopic, snapshot.partitions(), rf, snapshot.configs());
    }

    /**
     * The checks the existing target's inspection makes in a normal restore, made on the configs the topic will get:
     * retention that would delete restored records, LogAppendTime.
     */
    public static void check(Plan plan, List<VerifiedPartition> partitions, boolean acceptRetention, boolean acceptLogAppendTime,
            Clock clock) {
        long retentionMs = Long.parseLong(plan.configs().getOrDefault("retention.ms", "-1"));
        long retentionBytes = Long.parseLong(plan.configs().getOrDefault("retention.bytes", "-1"));
        if (!acceptRetention) {
            for (VerifiedPartition vp : partitions) {
                if (retentionMs >= 0 && vp.minTimestampMs() != Long.MAX_VALUE && vp.minTimestampMs() < clock.millis() - retentionMs) {
                    throw new RestoreCheckException("the backed-up topic had retention.ms=" + retentionMs + ", and the oldest record of"
                            + " partition " + vp.partition() + " is from " + Instant.ofEpochMilli(vp.minTimestampMs()) + ": retention would"
                            + " delete restored records soon after the restore. Pass --accept-retention, or create " + plan.topic()
                            + " by hand with a longer retention.ms and restore without --create-topic. Nothing was created");
                }
                long bytes = vp.objects().stream().mapToLong(VerifiedObject::sizeBytes).sum();
                if (retentionBytes >= 0 && bytes > retentionBytes) {
                    throw new RestoreCheckException("the backed-up topic had retention.bytes=" + retentionBytes + ", and the backup of"
                            + " partition " + vp.partition() + " alone is " + bytes + " bytes (compressed; more in Kafka): retention would"
                            + " delete restored records. Pass --accept-retention, or create " + plan.topic() + " by hand with a larger"
                            + " retention.bytes and restore without --create-topic. Nothing was created");
                }
            }
        }
        if ("LogAppendTime".equalsIgnoreCase(plan.configs().get("message.timestamp.type")) && !acceptLogAppendTime) {
            throw new RestoreCheckException("the backed-up topic had message.timestamp.type=LogAppendTime: every restored record would"
                    + " be stamped with the time of the restore. Pass --accept-log-append-time, or create " + plan.topic()
                    + " by hand with CreateTime and restore without --create-topic. Nothing was created");
        }
    }

    /**
     * The retention the created topic really has (the cluster's default where the backed-up topic set none): why it
     * would delete restored records, or empty.
     */
    public static java.util.Optional<String> effectiveRetentionProblem(TargetTopic created, List<VerifiedPartition> partitions,
            boolean acceptRetention, Clock clock) {
        if (acceptRetention || created.retentionMs() < 0) {
            return java.util.Optional.empty();
        }
        for (VerifiedPartition vp : partitions) {
            if (vp.minTimestampMs() != Long.MAX_VALUE && vp.minTimestampMs() < clock.millis() - created.retentionMs()) {
                return java.util.Optional.of("the target cluster's default retention.ms is " + created.retentionMs() + " (the backed-up"
                        + " topic set none), and the oldest record of partition " + vp.partition() + " is from "
                        + Instant.ofEpochMilli(vp.minTimestampMs()) + ": retention would delete restored records");
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * Creates the topic; refuses when it exists or the cluster has fewer brokers than the replication factor.
     *
     * @param clock the restore's clock: the deadline of the wait for the created topic's metadata
     * @throws RestoreCheckException naming what to do
     */
    public static void create(Admin admin, Plan plan, Duration timeout, Clock clock) throws Exception {
        long wait = timeout.toMillis() + 1000;
        int brokers = admin.describeCluster().nodes().get(wait, TimeUnit.MILLISECONDS).size();
        if (brokers < plan.replicationFactor()) {
            throw new RestoreCheckException("the target cluster has " + brokers + " broker(s), and " + plan.topic() + " needs replication"
                    + " factor " + plan.replicationFactor() + " (the backed-up one unless --replication-factor says otherwise): pass"
                    + " --replication-factor " + brokers + " or fewer, or restore into a larger cluster. Nothing was created");
        }
        try {
            admin.createTopics(List.of(new NewTopic(plan.topic(), plan.partitions(), (short) plan.replicationFactor())
                    .configs(plan.configs()))).all().get(wait, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                throw new RestoreCheckException("target topic " + plan.topic() + " exists: --create-topic creates it; restore into the"
                        + " existing (empty) topic without --create-topic, or name another one with --topic");
            }
            throw e;
        }
        // Created on the controller; wait until a broker serves its metadata (the restore describes it next).
        long deadline = clock.millis() + wait;
        while (true) {
            try {
                admin.describeTopics(List.of(plan.topic())).allTopicNames().get(wait, TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                        || clock.millis() > deadline) {
                    throw e;
                }
                Thread.sleep(50); // a poll interval while waiting for a condition
            }
        }
    }
}
