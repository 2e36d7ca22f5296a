package dev.mirrorv3.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The identity of topics (Kafka's topic id, KIP-516): a topic deleted and created again under the same name gets a new
 * one, which offsets alone cannot show ({@link PositionRule#checkIdentity}).
 */
public final class TopicIds {
    private TopicIds() {
    }

    /**
     * Each topic's id, as text ({@code Uuid.toString()}; empty if the cluster gives none).
     *
     * @throws KafkaException the admin call's failure, as Kafka classifies it ({@link Failures} decides transient or fatal)
     */
    public static Map<String, String> read(Admin admin, Collection<String> topics, Duration timeout) {
        return read(admin, topics, timeout, false);
    }

    /**
     * As {@link #read}, leaving out the topics that do not exist (one request for all of them).
     *
     * @throws KafkaException the admin call's failure other than a missing topic
     */
    public static Map<String, String> readExisting(Admin admin, Collection<String> topics, Duration timeout) {
        return read(admin, topics, timeout, true);
    }

    private static Map<String, String> read(Admin admin, Collection<String> topics, Duration timeout, boolean existing) {
        Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(topics,
                new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis())).topicNameValues();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout.toMillis() + 1000);
        Map<String, String> ids = new TreeMap<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> f : described.entrySet()) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                TopicDescription d = AdminWait.await(() -> f.getValue().get(left, TimeUnit.NANOSECONDS),
                        () -> "describing topics " + topics + " timed out after " + timeout);
                ids.put(f.getKey(), d.topicId() == null ? "" : d.topicId().toString());
            } catch (ExecutionException e) {
                if (!existing || !(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw AdminWait.failure("describing topics " + topics, e);
                }
            }
        }
        return ids;
    }
}
