package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.AdminWait;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.PositionException;
import dev.mirrorv3.kafka.PositionRule;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Where a Kafka → Kafka copy with preserved offsets continues (docs/kafka-sink.md): the destination partition's high watermark,
 * checked against the source partition's log start and high watermark by {@link PositionRule}, and the destination's
 * record of which source topic it copies ({@link SourceIdentity}). Connect-free: the sink task asks it in
 * {@code open()}.
 *
 * @param destinationDescription how messages name the destination cluster (its bootstrap servers)
 * @param identity which source topic each destination topic copies, kept on the destination cluster
 */
public record MirrorPositions(LogOffsets source, LogOffsets destination, String destinationDescription, Duration timeout,
                              SourceIdentity identity) {

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
     * exist with enough partitions and that the position is inside the source's log. Each source partition on its own:
     * one whose destination is missing, another topic's copy or out of the rule gets its {@link PositionException}
     * (with what to do), the others their position; a transient failure is thrown.
     */
    public PerPartition<Position> resolve(Collection<Pair> pairs) {
        PerPartition<Position> out = new PerPartition<>(ConnectFailures.KINDS);
        Map<String, TopicDescription> destinations = new HashMap<>();
        List<Pair> present = checkDestinationTopics(pairs, destinations, out);
        if (present.isEmpty()) {
            return out;
        }
        List<TopicPartition> all = new ArrayList<>();
        destinations.values().forEach(d -> d.partitions().forEach(p -> all.add(new TopicPartition(d.name(), p.partition()))));
        Map<TopicPartition, Long> destinationHwms = destination.highWatermarks(all);
        // Before the offsets: a destination ahead of a re-created source is named as such.
        Map<String, String> ids = identity.verify(present, destinations, destinationHwms, out);
        List<Pair> checked = present.stream().filter(p -> !out.failed(p.source())).toList();
        if (checked.isEmpty()) {
            return out;
        }
        Map<TopicPartition, Long> logStarts = source.logStartOffsets(checked.stream().map(Pair::source).toList());
        Map<TopicPartition, Long> sourceHwms = source.highWatermarks(checked.stream().map(Pair::source).toList());
        for (Pair p : checked) {
            out.attempt(p.source(), () -> {
                long logStart = logStarts.get(p.source());
                long hwm = sourceHwms.get(p.source());
                long at = PositionRule.check(p.source(), new PositionRule.KafkaTopic(p.destination()),
                        OptionalLong.of(destinationHwms.get(p.destination())), logStart, hwm);
                return new Position(at, logStart, hwm, ids.getOrDefault(p.source().topic(), ""));
            });
        }
        return out;
    }

    /** Each pair's destination high watermark (the offset the next delivered record must get). */
    public Map<TopicPartition, Long> destinationHighWatermarks(Collection<Pair> pairs) {
        return destination.highWatermarks(pairs.stream().map(Pair::destination).toList());
    }

    /**
     * The pairs whose destination partition exists, their destination topics described in {@code described} (each id and
     * partitions); each other pair fails in {@code out}.
     */
    private List<Pair> checkDestinationTopics(Collection<Pair> pairs, Map<String, TopicDescription> described,
                                              PerPartition<Position> out) {
        Map<String, Integer> needed = new HashMap<>();
        for (Pair p : pairs) {
            needed.merge(p.destination().topic(), p.destination().partition() + 1, Math::max);
        }
        List<Pair> present = new ArrayList<>();
        for (String topic : new TreeSet<>(needed.keySet())) {
            List<Pair> ofTopic = pairs.stream().filter(p -> p.destination().topic().equals(topic)).toList();
            List<TopicPartition> sources = ofTopic.stream().map(Pair::source).toList();
            out.attemptAll(sources, () -> described.put(topic, describe(topic, needed.get(topic))));
            for (Pair p : ofTopic) {
                if (out.failed(p.source())) {
                    continue;
                }
                int has = described.get(topic).partitions().size();
                if (p.destination().partition() >= has) {
                    out.fail(p.source(), new PositionException("destination topic " + topic + " on " + destinationDescription + " has "
                            + has + " partitions, and source partition " + p.source() + " is copied to the same-numbered"
                            + " partition: add partitions to the destination topic (at least the source's), then restart the task"));
                } else {
                    present.add(p);
                }
            }
        }
        return present;
    }

    private TopicDescription describe(String topic, int needed) {
        try {
            return AdminWait.await(() -> destination.admin().describeTopics(Set.of(topic)).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic),
                    () -> "describing destination topic " + topic + " on " + destinationDescription + " timed out after " + timeout);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new PositionException("destination topic " + topic + " does not exist on " + destinationDescription
                        + ": the Kafka sink never creates topics; create it with at least " + needed + " partitions"
                        + " (the source's), the cleanup.policy and retention it should have, then restart the task");
            }
            throw AdminWait.failure("describing destination topic " + topic, e);
        }
    }
}
