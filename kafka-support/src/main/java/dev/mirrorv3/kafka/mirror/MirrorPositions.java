package dev.mirrorv3.kafka.mirror;

import dev.mirrorv3.kafka.SourceOffsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * Where a Kafka → Kafka copy with preserved offsets continues (README: Kafka sink): the destination partition's high watermark,
 * checked against the source partition's log start and high watermark. Connect-free: the sink task asks it in
 * {@code open()} and again after a transient destination failure.
 */
public final class MirrorPositions {
    private final SourceOffsets source;
    private final SourceOffsets destination;
    private final String destinationDescription;
    private final Duration timeout;

    /**
     * @param destinationDescription how messages name the destination cluster (its bootstrap servers)
     */
    public MirrorPositions(SourceOffsets source, SourceOffsets destination, String destinationDescription, Duration timeout) {
        this.source = source;
        this.destination = destination;
        this.destinationDescription = destinationDescription;
        this.timeout = timeout;
    }

    /** One source partition and the destination partition it is copied to. */
    public record Pair(TopicPartition source, TopicPartition destination) {
    }

    /** Where a pair continues ({@code next}, the destination's high watermark) and the source's log at that moment. */
    public record Position(long next, long sourceLogStart, long sourceHighWatermark) {
    }

    /**
     * The next offset of each pair (= the destination's high watermark), after checking that the destination topics
     * exist with enough partitions and that the position is inside the source's log.
     *
     * @throws MirrorPositionException what is wrong and what to do
     */
    public Map<TopicPartition, Position> resolve(Collection<Pair> pairs) {
        checkDestinationTopics(pairs);
        Map<TopicPartition, Long> destinationHwms = destinationHighWatermarks(pairs);
        Map<TopicPartition, Long> logStarts = source.logStartOffsets(pairs.stream().map(Pair::source).toList());
        Map<TopicPartition, Long> sourceHwms = source.highWatermarks(pairs.stream().map(Pair::source).toList());
        Map<TopicPartition, Position> next = new LinkedHashMap<>();
        for (Pair p : pairs) {
            long h = destinationHwms.get(p.destination());
            long logStart = logStarts.get(p.source());
            long hwm = sourceHwms.get(p.source());
            next.put(p.source(), new Position(check(p, h, logStart, hwm), logStart, hwm));
        }
        return next;
    }

    /** Each pair's destination high watermark (the offset the next delivered record must get). */
    public Map<TopicPartition, Long> destinationHighWatermarks(Collection<Pair> pairs) {
        return destination.highWatermarks(pairs.stream().map(Pair::destination).toList());
    }

    /** The next offset for one pair, or the reason it cannot continue. */
    static long check(Pair p, long destinationHwm, long sourceLogStart, long sourceHwm) {
        String d = p.destination().topic() + "/" + p.destination().partition();
        String s = p.source().topic() + "/" + p.source().partition();
        if (destinationHwm < sourceLogStart) {
            if (destinationHwm == 0) {
                throw new MirrorPositionException("destination " + d + " is empty, and the log of source " + s + " starts at offset "
                        + sourceLogStart + " (retention, compaction or deleteRecords removed the offsets before it): a Kafka"
                        + " destination cannot start above offset 0, so the source's offsets cannot be preserved. Back the topic"
                        + " up to a blob destination and restore it with --offsets renumber, or start from a destination filled by"
                        + " a preserve restore of a complete backup");
            }
            throw new MirrorPositionException("lost position for " + s + ": destination " + d + " ends at next offset "
                    + destinationHwm + ", but the source's log now starts at " + sourceLogStart + " (retention or deleteRecords"
                    + " removed offsets " + destinationHwm + "-" + (sourceLogStart - 1) + " before they were copied). The copy cannot"
                    + " continue with the same offsets; to accept the gap, copy into a new destination topic from a blob backup"
                    + " restored with --offsets renumber");
        }
        if (destinationHwm > sourceHwm) {
            throw new MirrorPositionException("the destination is ahead of the source: destination " + d + " ends at next offset "
                    + destinationHwm + ", and the high watermark of source " + s + " is " + sourceHwm + " (was the source topic"
                    + " deleted and re-created or truncated, or did another writer add records to the destination?). Copy into a"
                    + " new, empty destination topic");
        }
        return destinationHwm;
    }

    private void checkDestinationTopics(Collection<Pair> pairs) {
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
                    throw new MirrorPositionException("destination topic " + topic + " does not exist on " + destinationDescription
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
                throw new MirrorPositionException("destination topic " + e.getKey() + " on " + destinationDescription + " has " + has
                        + " partitions, and source partition " + (e.getValue() - 1) + " is copied to the same-numbered partition:"
                        + " add partitions to the destination topic (at least the source's), then restart the task");
            }
        }
    }
}
