package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.PositionException;
import dev.mirrorv3.kafka.PositionRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Where a Kafka → Kafka copy with preserved offsets continues (docs/kafka-sink.md): the destination partition's high watermark,
 * checked against the source partition's log start and high watermark by {@link PositionRule}, and the destination's
 * record of which source topic it copies ({@link SourceIdentity}). Connect-free: the sink task asks it in
 * {@code open()}.
 */
public final class MirrorPositions {
    private final LogOffsets source;
    private final LogOffsets destination;
    private final String destinationDescription;
    private final Duration timeout;
    private final SourceIdentity identity;

    /**
     * @param destinationDescription how messages name the destination cluster (its bootstrap servers)
     * @param identity which source topic each destination topic copies, kept on the destination cluster
     */
    public MirrorPositions(LogOffsets source, LogOffsets destination, String destinationDescription, Duration timeout,
                           SourceIdentity identity) {
        this.source = source;
        this.destination = destination;
        this.destinationDescription = destinationDescription;
        this.timeout = timeout;
        this.identity = identity;
    }

    /** One source partition and the destination partition it is copied to. */
    public record Pair(TopicPartition source, TopicPartition destination) {
    }

    /**
     * Where a pair continues ({@code next}, the destination's high watermark), the source's log at that moment, and the
     * id of the source topic it continues from (empty: the cluster gave none).
     */
    public record Position(long next, long sourceLogStart, long sourceHighWatermark, String sourceTopicId) {
    }

    /**
     * The next offset of each pair (= the destination's high watermark), after checking that the destination topics
     * exist with enough partitions and that the position is inside the source's log.
     *
     * @throws PositionException what is wrong and what to do
     */
    public Map<TopicPartition, Position> resolve(Collection<Pair> pairs) {
        Map<String, TopicDescription> destinations = checkDestinationTopics(pairs);
        List<TopicPartition> all = new ArrayList<>();
        destinations.values().forEach(d -> d.partitions().forEach(p -> all.add(new TopicPartition(d.name(), p.partition()))));
        Map<TopicPartition, Long> destinationHwms = destination.highWatermarks(all);
        // Before the offsets: a destination ahead of a re-created source is named as such.
        Map<String, String> ids = identity.verify(pairs, destinations, destinationHwms);
        Map<TopicPartition, Long> logStarts = source.logStartOffsets(pairs.stream().map(Pair::source).toList());
        Map<TopicPartition, Long> sourceHwms = source.highWatermarks(pairs.stream().map(Pair::source).toList());
        Map<TopicPartition, Position> next = new LinkedHashMap<>();
        for (Pair p : pairs) {
            long h = destinationHwms.get(p.destination());
            long logStart = logStarts.get(p.source());
            long hwm = sourceHwms.get(p.source());
            long at = PositionRule.check(p.source(), new PositionRule.KafkaTopic(p.destination()), OptionalLong.of(h), logStart, hwm);
            next.put(p.source(), new Position(at, logStart, hwm, ids.getOrDefault(p.source().topic(), "")));
        }
        return next;
    }

    /** Each pair's destination high watermark (the offset the next delivered record must get). */
    public Map<TopicPartition, Long> destinationHighWatermarks(Collection<Pair> pairs) {
        return destination.highWatermarks(pairs.stream().map(Pair::destination).toList());
    }

    /** The destination topics, described; each must exist with at least the partitions its pairs need. */
    private Map<String, TopicDescription> checkDestinationTopics(Collection<Pair> pairs) {
        Map<String, Integer> needed = new HashMap<>();
        for (Pair p : pairs) {
            needed.merge(p.destination().topic(), p.destination().partition() + 1, Math::max);
        }
        Set<String> topics = new TreeSet<>(needed.keySet());
        Map<String, TopicDescription> described = new HashMap<>();
        for (String topic : topics) {
            try {
                described.put(topic, destination.admin().describeTopics(Set.of(topic)).allTopicNames()
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new org.apache.kafka.common.errors.InterruptException(e);
            } catch (TimeoutException e) {
                throw new org.apache.kafka.common.errors.TimeoutException("describing destination topic " + topic + " on "
                        + destinationDescription + " timed out after " + timeout, e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    throw new PositionException("destination topic " + topic + " does not exist on " + destinationDescription
                            + ": the Kafka sink never creates topics; create it with at least " + needed.get(topic) + " partitions"
                            + " (the source's), the cleanup.policy and retention it should have, then restart the task");
                }
                if (e.getCause() instanceof KafkaException ke) {
                    throw ke;
                }
                throw new KafkaException("describing destination topic " + topic + " failed: " + e.getCause(), e.getCause());
            }
        }
        for (Map.Entry<String, Integer> e : needed.entrySet()) {
            int has = described.get(e.getKey()).partitions().size();
            if (has < e.getValue()) {
                throw new PositionException("destination topic " + e.getKey() + " on " + destinationDescription + " has " + has
                        + " partitions, and source partition " + (e.getValue() - 1) + " is copied to the same-numbered partition:"
                        + " add partitions to the destination topic (at least the source's), then restart the task");
            }
        }
        return described;
    }
}
