package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.connect.kafka.MirrorPositions.Pair;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.PositionRule;
import dev.mirrorv3.kafka.TopicIds;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * Which source topic each destination partition holds a copy of, by topic id (KIP-516), so that a source topic deleted
 * and created again under the same name is never continued into the old copy ({@link PositionRule#checkIdentity}).
 * Kept on the destination cluster, beside the copy: the committed offsets of a consumer group of the connector's own
 * ({@link #groupId(String)}) on the destination partitions, with the source topic id as each offset's metadata and the next
 * offset as the offset. A Kafka topic has no custom settings (brokers refuse unknown config names), and a header on every
 * record would change the copy. Written whenever partitions are positioned and refreshed from the heartbeat, so that
 * {@code offsets.retention.minutes} does not expire it while the copy runs (docs/kafka-sink.md).
 *
 * @param groupId the destination cluster's group that holds the ids ({@link #groupId(String)})
 * @param destinationDescription how messages name the destination cluster (its bootstrap servers)
 */
public record SourceIdentity(Admin source, Admin destination, String groupId, String destinationDescription, Duration timeout) {
    static final String METADATA_PREFIX = "mirror-v3: copy of source topic id ";

    /** The destination cluster's group that holds the source topic ids of a connector's copies. */
    public static String groupId(String connectorName) {
        return "__mirror-v3." + connectorName + ".source-ids";
    }

    /**
     * Checks that each destination partition that holds records is a copy of its source topic as it is now, then records
     * the current ids (and the destination's next offsets) of those that are. A destination holding a copy of another
     * topic of the same name fails every pair of that source topic in {@code checked} (a
     * {@link dev.mirrorv3.kafka.PositionException} naming the re-created topic); a transient failure is thrown.
     *
     * @param destinationNext each pair's destination high watermark
     */
    public void verify(Collection<Pair> pairs, Map<TopicPartition, Long> destinationNext, PerPartition<?> checked) {
        Set<String> topics = new TreeSet<>();
        pairs.forEach(p -> topics.add(p.source().topic()));
        Map<String, String> current = TopicIds.read(source, topics, timeout);
        Map<TopicPartition, OffsetAndMetadata> recorded = recorded();
        Map<TopicPartition, Long> next = new HashMap<>();
        for (Pair p : pairs) {
            if (checked.failed(p.source())) {
                continue; // its topic failed already
            }
            long h = destinationNext.get(p.destination());
            OffsetAndMetadata r = recorded.get(p.destination());
            String recordedId = r == null || r.metadata() == null || !r.metadata().startsWith(METADATA_PREFIX) ? ""
                    : r.metadata().substring(METADATA_PREFIX.length());
            try {
                PositionRule.checkIdentity(p.source(), new PositionRule.KafkaTopic(p.destination()),
                        h == 0 ? OptionalLong.empty() : OptionalLong.of(h), recordedId, current.getOrDefault(p.source().topic(), ""));
                next.put(p.source(), h);
            } catch (RuntimeException e) {
                pairs.stream().filter(q -> q.source().topic().equals(p.source().topic())).forEach(q -> checked.fail(q.source(), e));
            }
        }
        record(pairs.stream().filter(p -> !checked.failed(p.source())).toList(), next, current);
    }

    /** Records the current ids of the pairs' source topics with each pair's next offset (keyed by source partition). */
    public void refresh(Collection<Pair> pairs, Map<TopicPartition, Long> next) {
        Set<String> topics = new TreeSet<>();
        pairs.forEach(p -> topics.add(p.source().topic()));
        record(pairs, next, TopicIds.read(source, topics, timeout));
    }

    private void record(Collection<Pair> pairs, Map<TopicPartition, Long> next, Map<String, String> ids) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (Pair p : pairs) {
            String id = ids.getOrDefault(p.source().topic(), "");
            Long n = next.get(p.source());
            if (!id.isEmpty() && n != null) {
                offsets.put(p.destination(), new OffsetAndMetadata(n, METADATA_PREFIX + id));
            }
        }
        if (!offsets.isEmpty()) {
            call(destination.alterConsumerGroupOffsets(groupId, offsets).all(), "recording the source topic ids in");
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> recorded() {
        return call(destination.listConsumerGroupOffsets(groupId, new ListConsumerGroupOffsetsOptions().timeoutMs((int) timeout.toMillis()))
                .partitionsToOffsetAndMetadata(), "reading the source topic ids from");
    }

    private <T> T call(org.apache.kafka.common.KafkaFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new org.apache.kafka.common.errors.InterruptException(e);
        } catch (TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException(what + " consumer group " + groupId + " on " + destinationDescription
                    + " timed out after " + timeout, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String m = what + " consumer group " + groupId + " on " + destinationDescription + " failed: " + Failures.describe(cause)
                    + (Failures.isAuthorization(cause) ? ". The Kafka sink keeps there which source topic each destination partition"
                    + " copies: grant the destination admin client (destination.* settings) Describe and Read on group " + groupId
                    + ", then restart the task" : "");
            throw new KafkaException(m, cause); // Failures reads the cause: a retriable one stays transient
        }
    }
}
