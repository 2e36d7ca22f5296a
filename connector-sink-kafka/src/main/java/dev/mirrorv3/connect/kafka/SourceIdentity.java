package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.connect.kafka.MirrorPositions.Pair;
import dev.mirrorv3.kafka.AdminWait;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.PositionRule;
import dev.mirrorv3.kafka.TopicIds;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which source topic each destination topic holds a copy of, by topic id (KIP-516), so that a source topic deleted and
 * created again under the same name is never continued into the old copy ({@link PositionRule#checkIdentity}). Kept on
 * the destination cluster, in {@link IdentityTopic} (one record per destination topic, never expiring). A copy made
 * before that topic existed kept it in the committed offsets of a consumer group of the connector's own
 * ({@link #legacyGroupId}), which expire: read when the topic has no record of the destination topic, and moved there.
 * A destination topic is one copy: while any of its partitions holds records, another source topic id is refused for
 * all of them; only a destination topic empty in every partition takes a new one.
 *
 * @param source an admin client of the source cluster (not owned)
 * @param destination an admin client of the destination cluster (not owned)
 * @param records the destination cluster's identity topic
 * @param legacyGroup the consumer group the ids were kept in before ({@link #legacyGroupId})
 * @param destinationDescription how messages name the destination cluster (its bootstrap servers)
 */
public record SourceIdentity(Admin source, Admin destination, IdentityTopic records, String legacyGroup, String destinationDescription,
                             Duration timeout) {
    static final String LEGACY_METADATA_PREFIX = "mirror-v3: copy of source topic id ";
    private static final Logger log = LoggerFactory.getLogger(SourceIdentity.class);

    /** The ids recorded per destination partition, and the identity topic's entries they came from (per destination topic). */
    public record Recorded(Map<TopicPartition, String> ids, Map<String, IdentityTopic.Entry> entries) {
    }

    /** The destination cluster's group that held the source topic ids of a connector's copies before the identity topic. */
    public static String legacyGroupId(String connectorName) {
        return "__mirror-v3." + connectorName + ".source-ids";
    }

    /**
     * Checks that each pair's destination topic, where any of its partitions holds records, is a copy of the pair's source
     * topic as it is now, then records the current ids of the destination topics whose record differs. A destination
     * holding a copy of another topic of the same name fails every pair of that source topic in {@code checked} (a
     * {@link dev.mirrorv3.kafka.PositionException} naming the re-created topic), and nothing is recorded for it; a
     * transient failure is thrown.
     *
     * @param destinations each pair's destination topic as described now (its id and partitions)
     * @param destinationNext the high watermark of every partition of those topics
     * @return each source topic's id now (empty: the cluster gave none): the topic the pairs continue from
     */
    public Map<String, String> verify(Collection<Pair> pairs, Map<String, TopicDescription> destinations,
                                      Map<TopicPartition, Long> destinationNext, PerPartition<?> checked) {
        Set<String> topics = new TreeSet<>();
        pairs.forEach(p -> topics.add(p.source().topic()));
        Map<String, String> current = TopicIds.read(source, topics, timeout);
        Recorded recorded = recorded(destinations);
        for (Pair p : pairs) {
            if (checked.failed(p.source())) {
                continue; // its topic failed already
            }
            String now = current.getOrDefault(p.source().topic(), "");
            try {
                for (TopicPartition d : partitions(destinations.get(p.destination().topic()))) {
                    long h = destinationNext.getOrDefault(d, 0L);
                    PositionRule.checkIdentity(p.source(), new PositionRule.KafkaTopic(d), h == 0 ? OptionalLong.empty()
                            : OptionalLong.of(h), recorded.ids().getOrDefault(d, ""), now);
                }
            } catch (RuntimeException e) {
                pairs.stream().filter(q -> q.source().topic().equals(p.source().topic())).forEach(q -> checked.fail(q.source(), e));
            }
        }
        Map<String, IdentityTopic.Entry> changed = new LinkedHashMap<>();
        for (Pair p : pairs.stream().filter(q -> !checked.failed(q.source())).toList()) {
            TopicDescription d = destinations.get(p.destination().topic());
            IdentityTopic.Entry e = new IdentityTopic.Entry(p.source().topic(), current.getOrDefault(p.source().topic(), ""),
                    d.topicId() == null ? "" : d.topicId().toString());
            IdentityTopic.Entry was = recorded.entries().get(d.name());
            if (!e.sourceTopicId().isEmpty() && !e.equals(was) && !changed.containsKey(d.name())) { // once per destination topic
                changed.put(d.name(), e);
                log.info("destination topic {} on {} is a copy of source topic {} with id {} (recorded in topic {}; {}): it continues"
                        + " only from this topic", d.name(), destinationDescription, e.sourceTopic(), e.sourceTopicId(), records.name(),
                        was == null ? "no record before" : "it was empty, the record was of id " + was.sourceTopicId());
            }
        }
        if (!changed.isEmpty()) {
            records.write(changed);
        }
        return current;
    }

    /**
     * The source topic id each partition of these destination topics holds a copy of: its topic's record, or (for a copy
     * made before the identity topic) the legacy group's; absent when none is recorded.
     */
    public Recorded recorded(Map<String, TopicDescription> destinations) {
        Map<String, IdentityTopic.Entry> entries = records.read();
        Map<TopicPartition, String> ids = new HashMap<>();
        Map<String, IdentityTopic.Entry> used = new HashMap<>();
        Map<TopicPartition, String> legacy = null;
        for (TopicDescription d : destinations.values()) {
            IdentityTopic.Entry e = entries.get(d.name());
            String destinationId = d.topicId() == null ? "" : d.topicId().toString();
            if (e != null && (e.destinationTopicId().isEmpty() || e.destinationTopicId().equals(destinationId))) {
                used.put(d.name(), e);
                partitions(d).forEach(tp -> ids.put(tp, e.sourceTopicId()));
            } else { // none, or one of a destination topic of that name since deleted
                legacy = legacy == null ? legacyIds() : legacy;
                for (TopicPartition tp : partitions(d)) {
                    if (legacy.containsKey(tp)) {
                        ids.put(tp, legacy.get(tp));
                    }
                }
            }
        }
        return new Recorded(ids, used);
    }

    private static Collection<TopicPartition> partitions(TopicDescription d) {
        return d.partitions().stream().map(p -> new TopicPartition(d.name(), p.partition())).toList();
    }

    /** The ids the legacy group's metadata holds, per destination partition. */
    private Map<TopicPartition, String> legacyIds() {
        Map<TopicPartition, String> ids = new HashMap<>();
        Map<TopicPartition, OffsetAndMetadata> offsets;
        try {
            offsets = AdminWait.await(() -> destination.listConsumerGroupOffsets(legacyGroup,
                    new ListConsumerGroupOffsetsOptions().timeoutMs((int) timeout.toMillis())).partitionsToOffsetAndMetadata()
                    .get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS),
                    () -> "reading consumer group " + legacyGroup + " on " + destinationDescription + " timed out after " + timeout);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return ids;
            }
            throw new KafkaException("reading the source topic ids kept in consumer group " + legacyGroup + " on "
                    + destinationDescription + " failed: " + Failures.describe(e.getCause()), e.getCause());
        }
        offsets.forEach((tp, o) -> {
            if (o != null && o.metadata() != null && o.metadata().startsWith(LEGACY_METADATA_PREFIX)) {
                ids.put(tp, o.metadata().substring(LEGACY_METADATA_PREFIX.length()));
            }
        });
        return ids;
    }
}
