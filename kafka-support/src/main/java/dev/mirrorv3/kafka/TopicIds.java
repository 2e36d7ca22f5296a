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
        try {
            Map<String, TopicDescription> described = admin.describeTopics(topics,
                    new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis())).allTopicNames()
                    .get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
            Map<String, String> ids = new TreeMap<>();
            described.forEach((topic, d) -> ids.put(topic, d.topicId() == null ? "" : d.topicId().toString()));
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

    /**
     * The id of each of the topics that exists ({@code Uuid.toString()}; empty if the cluster gives none); a topic that
     * does not exist is absent.
     *
     * @throws Exception the admin call's failure other than an unknown topic ({@link Failures} decides transient or fatal)
     */
    public static Map<String, String> readExisting(Admin admin, Collection<String> topics, Duration timeout) throws Exception {
        Map<String, KafkaFuture<TopicDescription>> futures = admin.describeTopics(topics,
                new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis())).topicNameValues();
        Map<String, String> ids = new TreeMap<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> f : futures.entrySet()) {
            try {
                TopicDescription d = f.getValue().get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
                ids.put(f.getKey(), d.topicId() == null ? "" : d.topicId().toString());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e.getCause() instanceof Exception c ? c : e;
                }
            }
        }
        return ids;
    }
}
