package dev.mirrorv3.kafka;

import dev.mirrorv3.kafka.config.TopicsSetting;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a sink's consumer group a committed offset for every partition that has none. Our sinks run with
 * {@code auto.offset.reset=none} (so a lost position fails instead of jumping), and Connect asks the consumer for
 * its position before the task's {@code open()} can seek ({@code WorkerSinkTask.HandleRebalance.onPartitionsAssigned}):
 * without a committed offset that is {@code NoOffsetForPartitionException}. The offset seeded is the log start;
 * {@code open()} then seeks to the destination's real position, so the group's offsets never decide anything.
 * The broker sets a group's offsets only while it has no members, so this runs in the task's {@code start()},
 * before its consumer joins; partitions added later are seeded by the next task start (the connectors restart their
 * tasks when a topic grows).
 */
public final class GroupOffsetSeeder {
    private static final Logger log = LoggerFactory.getLogger(GroupOffsetSeeder.class);
    private static final long FIRST_RETRY_MS = 100;
    private static final long MAX_RETRY_MS = 2_000;

    private GroupOffsetSeeder() {
    }

    /**
     * Seeds the group of a sink connector's task from its task config ({@code topics}, the group id Connect gives it:
     * {@code consumer.override.group.id} or {@code connect-<name>}); call it in the task's {@code start()}, before the
     * consumer joins. A failure is retried with backoff for up to {@code timeout} (another task of the connector may
     * still be leaving the group, or may have just joined it and seeded the partitions itself). With
     * {@code topics.regex} nothing is seeded (both sinks' validate() refuses it: {@code SinkConsumerRules}).
     *
     * @param timeoutSetting the setting that gives {@code timeout}, for the message
     * @throws GroupSeedingException what could not be seeded, why it matters and what to do
     */
    public static void seedForSinkTask(Admin admin, LogOffsets offsets, Map<String, String> taskProps, String connectorName,
                                       Duration timeout, String timeoutSetting) {
        List<String> topics = TopicsSetting.listed(taskProps);
        if (topics.isEmpty()) {
            return;
        }
        String groupId = taskProps.getOrDefault("consumer.override.group.id", "connect-" + connectorName);
        Seeding seeding = new Seeding(admin, groupId, topics, timeout, timeoutSetting);
        long deadline = System.nanoTime() + timeout.toNanos();
        Backoff backoff = new Backoff(FIRST_RETRY_MS, MAX_RETRY_MS);
        List<TopicPartition> missing = List.of();
        while (true) {
            try {
                missing = missing(admin, groupId, topics, timeout);
                if (missing.isEmpty()) {
                    return;
                }
                seed(admin, offsets, groupId, missing, timeout);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GroupSeedingException("interrupted while seeding committed offsets of consumer group " + groupId, e);
            } catch (Exception e) {
                Exception cause = unwrap(e);
                boolean retry = Failures.isTransient(cause) || Failures.isGroupNotEmpty(cause);
                long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (!retry || leftMs <= 0) {
                    throw failure(seeding, missing, cause, retry);
                }
                long delay = Math.min(backoff.next(), leftMs);
                log.info("cannot seed committed offsets of consumer group {} yet, retrying in {} ms: {}", groupId, delay,
                        Failures.describe(cause));
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new GroupSeedingException("interrupted while seeding committed offsets of consumer group " + groupId, ie);
                }
            }
        }
    }

    /** The partitions of the topics that have no committed offset in the group. */
    static List<TopicPartition> missing(Admin admin, String groupId, Collection<String> topics, Duration timeout) throws Exception {
        Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return described.values().stream()
                .flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(), p.partition())))
                .filter(tp -> committed.get(tp) == null)
                .toList();
    }

    private static void seed(Admin admin, LogOffsets offsets, String groupId, List<TopicPartition> missing, Duration timeout)
            throws Exception {
        Map<TopicPartition, OffsetAndMetadata> seed = new HashMap<>();
        offsets.logStartOffsets(missing).forEach((tp, o) -> seed.put(tp, new OffsetAndMetadata(o, "seeded by mirror-v3; not a position")));
        admin.alterConsumerGroupOffsets(groupId, seed).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        log.info("seeded committed offsets of consumer group {} for {} (log start; the destination decides the real position)",
                groupId, describe(missing));
    }

    private static Exception unwrap(Exception e) {
        return e instanceof ExecutionException && e.getCause() instanceof Exception c ? c : e;
    }

    /** What one seeding works on, for its failure's message. */
    private record Seeding(Admin admin, String groupId, List<String> topics, Duration timeout, String timeoutSetting) {
    }

    private static GroupSeedingException failure(Seeding seeding, List<TopicPartition> missing, Exception cause, boolean retried) {
        String groupId = seeding.groupId();
        Duration timeout = seeding.timeout();
        String partitions = missing.isEmpty() ? "the partitions of " + String.join(", ", seeding.topics()) : describe(missing);
        String members = members(seeding.admin(), groupId, timeout);
        StringBuilder m = new StringBuilder("cannot give consumer group ").append(groupId).append(" a committed offset for ")
                .append(partitions);
        if (retried) {
            m.append(" within ").append(timeout.toMillis()).append(" ms (").append(seeding.timeoutSetting()).append(')');
        }
        m.append(": ").append(Failures.describe(cause)).append('.');
        if (!members.isEmpty()) {
            m.append(" The group has active members (").append(members).append("), and the broker sets a group's offsets only while"
                    + " it has none.");
        }
        m.append(" Without a committed offset the task's consumer would fail with NoOffsetForPartitionException (the sink"
                + " requires consumer.override.auto.offset.reset=none). ");
        if (Failures.isAuthorization(cause)) {
            m.append("Grant the source admin client (source.admin.* settings) Describe on the topics and Read on group ").append(groupId)
                    .append(", then restart the task.");
        } else if (!members.isEmpty() || Failures.isGroupNotEmpty(cause)) {
            m.append("Make sure no other consumer uses group ").append(groupId).append(" (each sink connector needs a group of its own;"
                    + " set consumer.override.group.id), then restart the task.");
        } else {
            m.append("Check that the source cluster answers the admin client (source.admin.bootstrap.servers and the source.admin.*"
                    + " security settings), then restart the task.");
        }
        return new GroupSeedingException(m.toString(), cause);
    }

    /** The group's members as client-id@host, or empty when it has none or they cannot be listed. */
    private static String members(Admin admin, String groupId, Duration timeout) {
        try {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(groupId)).all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(groupId);
            return d == null ? "" : d.members().stream().map(mb -> mb.clientId() + "@" + mb.host()).sorted()
                    .collect(Collectors.joining(", "));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return "";
        }
    }

    /** topic-p, sorted, e.g. "events-3, events-4". */
    private static String describe(Collection<TopicPartition> partitions) {
        return partitions.stream().map(TopicPartition::toString).sorted().collect(Collectors.joining(", "));
    }

    /** Why a sink task cannot start: its group's offsets could not be seeded. */
    public static final class GroupSeedingException extends KafkaException {
        public GroupSeedingException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
