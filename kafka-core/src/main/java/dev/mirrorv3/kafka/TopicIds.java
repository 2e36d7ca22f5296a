package dev.mirrorv3.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
        try {
            Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(topics,
                    new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis())).topicNameValues();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout.toMillis() + 1000);
            Map<String, String> ids = new TreeMap<>();
            for (Map.Entry<String, KafkaFuture<TopicDescription>> f : described.entrySet()) {
                try {
                    TopicDescription d = f.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    ids.put(f.getKey(), d.topicId() == null ? "" : d.topicId().toString());
                } catch (ExecutionException e) {
                    if (!existing || !(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                        throw e;
                    }
                }
            }
            return ids;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new org.apache.kafka.common.errors.InterruptException(e);
        } catch (TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException("describing topics " + topics + " timed out after " + timeout, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof KafkaException ke) {
                throw ke;
            }
            throw new KafkaException("describing topics " + topics + " failed: " + e.getCause(), e.getCause());
        }
    }
}
