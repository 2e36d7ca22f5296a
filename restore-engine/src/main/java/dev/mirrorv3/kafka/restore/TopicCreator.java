package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.chain.meta.TopicSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
 * count and the configs that were set on the source topic, adjusted where they cannot work on the target or would
 * refuse the restored records (each adjustment a note; docs/decisions.md), the replication factor given or the backed-up
 * one. Every check that can refuse runs before the topic is created, so a refused restore leaves nothing behind.
 */
public final class TopicCreator {
    /** Name the source cluster's brokers: meaningless, or wrong, on the target. */
    static final List<String> THROTTLED_REPLICAS = List.of("leader.replication.throttled.replicas",
            "follower.replication.throttled.replicas");
    static final String BEFORE_MAX = "message.timestamp.before.max.ms";
    static final String AFTER_MAX = "message.timestamp.after.max.ms";
    /** Removed in Kafka 4.0 (KIP-937 replaced it with the two above); a 3.x source may still have it. */
    static final String DIFFERENCE_MAX = "message.timestamp.difference.max.ms";
    static final String REMOTE_STORAGE = "remote.storage.enable";

    /**
     * What will be created.
     *
     * @param notes each config changed from the backed-up one, and why
     */
    public record Plan(String topic, int partitions, int replicationFactor, Map<String, String> configs, List<String> notes) {
        public Plan {
            configs = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(configs));
            notes = List.copyOf(notes);
        }

        public Plan(String topic, int partitions, int replicationFactor, Map<String, String> configs) {
            this(topic, partitions, replicationFactor, configs, List.of());
        }
    }

    private TopicCreator() {
    }

    /**
     * @param replicationFactor {@code --replication-factor}, or null for the backed-up one
     * @param from where the snapshot was read, for messages
     * @param clock the restore's clock: the timestamp limits are checked against it, as the broker checks them
     */
    public static Plan plan(TopicSnapshot snapshot, String targetTopic, Integer replicationFactor, List<RestoredPartition> partitions,
            String from, Clock clock) {
        for (RestoredPartition rp : partitions) {
            if (rp.partition() >= snapshot.partitions()) {
                throw new RestoreCheckException("the backup has partition " + rp.partition() + " (" + rp.location() + "), and the topic"
                        + " snapshot " + from + " says " + snapshot.topic() + " had " + snapshot.partitions() + " partitions: the snapshot"
                        + " is older than the partitions added since; create the topic by hand with enough partitions and restore"
                        + " without --create-topic");
            }
        }
        int rf = replicationFactor != null ? replicationFactor : snapshot.replicationFactor();
        Map<String, String> configs = new TreeMap<>(snapshot.configs());
        List<String> notes = new ArrayList<>();
        for (String name : THROTTLED_REPLICAS) {
            String v = configs.remove(name);
            if (v != null) {
                notes.add("dropped " + name + "=" + v + ": it names the source cluster's replicas");
            }
        }
        String minInsync = configs.get("min.insync.replicas");
        if (minInsync != null && Integer.parseInt(minInsync.trim()) > rf) {
            configs.put("min.insync.replicas", Integer.toString(rf));
            notes.add("min.insync.replicas=" + minInsync + " lowered to " + rf + ", the replication factor: with more, every acks=all"
                    + " produce fails; raise it again when the topic has more replicas");
        }
        long now = clock.millis();
        long oldest = partitions.stream().filter(RestoredPartition::hasTimestamps).mapToLong(RestoredPartition::minTimestampMs).min()
                .orElse(now);
        long newest = partitions.stream().filter(RestoredPartition::hasTimestamps).mapToLong(RestoredPartition::maxTimestampMs).max()
                .orElse(now);
        dropTimestampLimit(configs, notes, BEFORE_MAX, now - oldest, "the oldest restored record is from " + Instant.ofEpochMilli(oldest));
        dropTimestampLimit(configs, notes, AFTER_MAX, newest - now, "the newest restored record is stamped "
                + Instant.ofEpochMilli(newest));
        dropTimestampLimit(configs, notes, DIFFERENCE_MAX, Math.max(now - oldest, newest - now), "the restored records are stamped "
                + Instant.ofEpochMilli(oldest) + " to " + Instant.ofEpochMilli(newest));
        return new Plan(targetTopic, snapshot.partitions(), rf, configs, notes);
    }

    /** A timestamp limit the restored records break would make the broker refuse them (InvalidTimestampException): dropped. */
    private static void dropTimestampLimit(Map<String, String> configs, List<String> notes, String name, long needed, String why) {
        String v = configs.get(name);
        if (v != null && needed > Long.parseLong(v.trim())) {
            configs.remove(name);
            notes.add("dropped " + name + "=" + v + ": " + why + ", and the broker would refuse it; set it again after the restore");
        }
    }

    /**
     * The checks the existing target's inspection makes in a normal restore, made on the configs the topic will get:
     * retention that would delete restored records, LogAppendTime.
     */
    public static void check(Plan plan, List<RestoredPartition> partitions, boolean acceptRetention, boolean acceptLogAppendTime,
            Clock clock) {
        long retentionMs = Long.parseLong(plan.configs().getOrDefault("retention.ms", "-1"));
        long retentionBytes = Long.parseLong(plan.configs().getOrDefault("retention.bytes", "-1"));
        if (!acceptRetention) {
            for (RestoredPartition rp : partitions) {
                if (retentionMs >= 0 && rp.hasTimestamps() && rp.minTimestampMs() < clock.millis() - retentionMs) {
                    throw new RestoreCheckException("the backed-up topic had retention.ms=" + retentionMs + ", and the oldest record of"
                            + " partition " + rp.partition() + " is from " + Instant.ofEpochMilli(rp.minTimestampMs()) + ": retention would"
                            + " delete restored records soon after the restore. Pass --accept-retention, or create " + plan.topic()
                            + " by hand with a longer retention.ms and restore without --create-topic. Nothing was created");
                }
                if (retentionBytes >= 0 && rp.logBytes() > retentionBytes) {
                    throw new RestoreCheckException("the backed-up topic had retention.bytes=" + retentionBytes + ", and the records"
                            + " restored into partition " + rp.partition() + " take at least " + rp.logBytes() + " bytes in the log"
                            + " (uncompressed, as restore writes them): retention would delete restored records. Pass"
                            + " --accept-retention, or create " + plan.topic() + " by hand with a larger retention.bytes and restore"
                            + " without --create-topic. Nothing was created");
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
     * What the created topic really has (the cluster's defaults where the backed-up topic set none): why its retention
     * would delete restored records or its min.insync.replicas refuse every produce, or empty.
     */
    public static java.util.Optional<String> effectiveProblem(TargetTopic created, List<RestoredPartition> partitions,
            boolean acceptRetention, Clock clock) {
        java.util.Optional<String> insync = created.minInsyncProblem();
        if (insync.isPresent() || acceptRetention) {
            return insync;
        }
        for (RestoredPartition rp : partitions) {
            if (created.retentionMs() >= 0 && rp.hasTimestamps() && rp.minTimestampMs() < clock.millis() - created.retentionMs()) {
                return java.util.Optional.of("the created topic's retention.ms is " + created.retentionMs() + " (the cluster's default"
                        + " where the backed-up topic set none), and the oldest record of partition " + rp.partition() + " is from "
                        + Instant.ofEpochMilli(rp.minTimestampMs()) + ": retention would delete restored records");
            }
            java.util.Optional<String> bytes = created.retentionBytesProblem(rp);
            if (bytes.isPresent()) {
                return bytes;
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * Creates the topic on the controller; refuses when it exists or the cluster has fewer brokers than the replication
     * factor. Drops remote.storage.enable when the cluster has no tiered storage (the broker would refuse the topic). The
     * caller then waits for its metadata ({@link #awaitMetadata}), and deletes it again when anything fails before the first
     * record is sent.
     *
     * @return the plan as created (with a note for each config dropped here)
     * @throws RestoreCheckException naming what to do
     */
    public static Plan create(Admin admin, Plan plan, Duration timeout) throws Exception {
        long wait = timeout.toMillis() + 1000;
        java.util.Collection<org.apache.kafka.common.Node> nodes = admin.describeCluster().nodes().get(wait, TimeUnit.MILLISECONDS);
        int brokers = nodes.size();
        if (brokers < plan.replicationFactor()) {
            throw new RestoreCheckException("the target cluster has " + brokers + " broker(s), and " + plan.topic() + " needs replication"
                    + " factor " + plan.replicationFactor() + " (the backed-up one unless --replication-factor says otherwise): pass"
                    + " --replication-factor " + brokers + " or fewer, or restore into a larger cluster. Nothing was created");
        }
        if (Boolean.parseBoolean(plan.configs().getOrDefault(REMOTE_STORAGE, "false").trim())
                && !tieredStorage(admin, nodes.iterator().next(), wait)) {
            Map<String, String> configs = new TreeMap<>(plan.configs());
            configs.remove(REMOTE_STORAGE);
            List<String> notes = new ArrayList<>(plan.notes());
            notes.add("dropped " + REMOTE_STORAGE + "=true: the target cluster has no tiered storage"
                    + " (remote.log.storage.system.enable=false), and its brokers would refuse the topic");
            plan = new Plan(plan.topic(), plan.partitions(), plan.replicationFactor(), configs, notes);
        }
        try {
            admin.createTopics(List.of(new NewTopic(plan.topic(), plan.partitions(), (short) plan.replicationFactor())
                    .configs(plan.configs()))).all().get(wait, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                throw new RestoreCheckException("target topic " + plan.topic() + " exists: --create-topic creates it; restore into the"
                        + " existing (empty) topic without --create-topic, or name another one with --topic");
            }
            if (e.getCause() instanceof org.apache.kafka.common.errors.InvalidConfigurationException
                    || e.getCause() instanceof org.apache.kafka.common.errors.PolicyViolationException) {
                throw new RestoreCheckException("the target cluster refused to create " + plan.topic() + " with the backed-up configs "
                        + plan.configs() + ": " + e.getCause().getMessage() + ". Create the topic by hand with configs the cluster"
                        + " takes and restore without --create-topic. Nothing was created", e.getCause());
            }
            throw e;
        }
        return plan;
    }

    /**
     * Waits until a broker serves the metadata of a topic just created on the controller (the restore describes it next).
     *
     * @param clock the restore's clock: the deadline of the wait
     * @throws Exception the describe's failure: an error other than the topic being unknown yet, or unknown past the deadline
     */
    public static void awaitMetadata(Admin admin, String topic, Duration timeout, Clock clock) throws Exception {
        long wait = timeout.toMillis() + 1000;
        long deadline = clock.millis() + wait;
        while (true) {
            try {
                admin.describeTopics(List.of(topic)).allTopicNames().get(wait, TimeUnit.MILLISECONDS);
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

    /** Whether the cluster's brokers run tiered storage (read from one broker: the setting is cluster-wide in practice). */
    private static boolean tieredStorage(Admin admin, org.apache.kafka.common.Node broker, long waitMs) throws Exception {
        org.apache.kafka.common.config.ConfigResource res = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.BROKER, broker.idString());
        org.apache.kafka.clients.admin.ConfigEntry e = admin.describeConfigs(List.of(res)).all().get(waitMs, TimeUnit.MILLISECONDS)
                .get(res).get("remote.log.storage.system.enable");
        return e != null && Boolean.parseBoolean(e.value());
    }
}
