package dev.mirrorv3.restore.cli.status;

import dev.mirrorv3.kafka.FailureNotes;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * One cluster's partition counts and high watermarks for status, through kafka-support's {@link LogOffsets}, every
 * query bounded by {@code --timeout-ms}. A failure (even an admin client that cannot be created, e.g. an unresolvable
 * bootstrap server) becomes the error of the rows it concerns, not of the command.
 */
final class ClusterOffsets implements AutoCloseable {
    private final String name;
    private final Duration timeout;
    private final LogOffsets offsets;
    private final KafkaException unavailable;

    /** A topic's partition count and the high watermark of each partition, or why they could not be read. */
    record TopicOffsets(int partitions, Map<Integer, Long> highWatermarks, String error) {
    }

    /**
     * @param role e.g. "source cluster", for messages
     * @param adminConfig the connector's own admin client settings for that cluster (bootstrap servers, security)
     */
    ClusterOffsets(String role, Map<String, Object> adminConfig, Duration timeout) {
        Map<String, Object> c = new HashMap<>(adminConfig);
        c.put(AdminClientConfig.CLIENT_ID_CONFIG, "mirror-v3-status");
        c.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        c.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        c.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        this.name = role + " " + c.getOrDefault("bootstrap.servers", "");
        this.timeout = timeout;
        LogOffsets o = null;
        KafkaException failure = null;
        try {
            o = new LogOffsets(Admin.create(c), timeout);
        } catch (KafkaException e) {
            failure = e;
        }
        this.offsets = o;
        this.unavailable = failure;
    }

    /** The topic's partitions and their high watermarks; partitions -1 and an error naming this cluster if unreadable. */
    TopicOffsets topic(String topic) {
        try {
            if (unavailable != null) {
                throw unavailable;
            }
            int n = offsets.admin().describeTopics(List.of(topic)).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(topic).partitions().size();
            Map<Integer, Long> hwms = new HashMap<>();
            offsets.highWatermarks(IntStream.range(0, n).mapToObj(p -> new TopicPartition(topic, p)).toList())
                    .forEach((tp, hwm) -> hwms.put(tp.partition(), hwm));
            return new TopicOffsets(n, hwms, null);
        } catch (ExecutionException e) {
            return new TopicOffsets(-1, Map.of(), e.getCause() instanceof UnknownTopicOrPartitionException
                    ? name + ": topic " + topic + " does not exist" : name + ": " + Failures.describe(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new org.apache.kafka.common.errors.InterruptException(e);
        } catch (java.util.concurrent.TimeoutException e) {
            return new TopicOffsets(-1, Map.of(), name + ": no answer within " + timeout.toMillis() + " ms (--timeout-ms)");
        } catch (Exception e) {
            return new TopicOffsets(-1, Map.of(), name + ": " + Failures.describe(e));
        }
    }

    /**
     * The failed partitions a connector noted in consumer group {@code groupId} on this cluster (docs/operations.md, "A
     * failed partition"), each with its failure; or why they could not be read.
     */
    Notes failureNotes(String groupId) {
        try {
            if (unavailable != null) {
                throw unavailable;
            }
            return new Notes(new FailureNotes(offsets.admin(), groupId, timeout).read(), null);
        } catch (RuntimeException e) {
            // An unreachable cluster is the row's error already (its high watermarks); anything else (an ACL) is said here.
            return new Notes(Map.of(), Failures.isTransient(e) ? null : name + ": cannot read the failed partitions ("
                    + Failures.describe(e) + ")");
        }
    }

    /** Failed partitions and their failure, or why they could not be read. */
    record Notes(Map<TopicPartition, String> failures, String error) {
        /** The row's error with the partition's failure (or the reading's) added. */
        String addTo(String error, TopicPartition tp) {
            return StatusRow.errors(error, this.error, failures.get(tp));
        }
    }

    @Override
    public void close() {
        if (offsets != null) {
            offsets.close();
        }
    }
}
