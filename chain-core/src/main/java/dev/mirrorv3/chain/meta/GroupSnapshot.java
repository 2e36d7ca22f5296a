package dev.mirrorv3.chain.meta;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The consumer groups' committed offsets on a backed-up topic at one time, with the chain's durable next offset of
 * each partition at that moment (how far the backup had got: a group position beyond it was not backed up yet), and the
 * id of the topic the offsets belong to (Kafka's topic id, KIP-516): a topic deleted and created again under the same
 * name is another topic, whose positions are never the backup's (docs/design.md, rule 6).
 *
 * @param topicId the topic id the offsets were read for; empty in a snapshot written before ids were recorded
 * @param chainNextOffsets partition to the chain's next offset ({@code max(to) + 1}) when the snapshot was taken
 * @param groups group id to partition to committed offset
 */
public record GroupSnapshot(long timeMs, String topic, String topicId, Map<Integer, Long> chainNextOffsets,
        Map<String, Map<Integer, CommittedOffset>> groups) {

    /** One committed offset and its metadata string (empty when the consumer committed none). */
    public record CommittedOffset(long offset, String metadata) {
        public CommittedOffset {
            if (offset < 0) {
                throw new IllegalArgumentException("a committed offset must not be negative: " + offset);
            }
            metadata = metadata == null ? "" : metadata;
        }
    }

    public GroupSnapshot {
        Objects.requireNonNull(topic, "topic");
        topicId = topicId == null ? "" : topicId;
        chainNextOffsets = Collections.unmodifiableSortedMap(new TreeMap<>(chainNextOffsets));
        SortedMap<String, Map<Integer, CommittedOffset>> copy = new TreeMap<>();
        groups.forEach((g, offsets) -> copy.put(g, Collections.unmodifiableSortedMap(new TreeMap<>(offsets))));
        groups = Collections.unmodifiableSortedMap(copy);
    }

    /** A snapshot that records no topic id, as written before ids were recorded. */
    public GroupSnapshot(long timeMs, String topic, Map<Integer, Long> chainNextOffsets,
            Map<String, Map<Integer, CommittedOffset>> groups) {
        this(timeMs, topic, "", chainNextOffsets, groups);
    }

    /**
     * This snapshot with every partition of {@code older} it does not cover carried forward: that partition's chain next
     * offset and every group's offset on it, as {@code older} recorded them. A snapshot covers the partitions its writer had
     * open; a partition closed meanwhile (a rebalance, a task stopping, another connector's {@code partitions=} sharing the
     * destination) keeps its last known position instead of vanishing from the newest snapshot, which restore reads
     * (docs/decisions.md, "Group snapshots carry closed partitions forward").
     *
     * Nothing is carried from a snapshot of another topic id, nor from one without an id: a snapshot never mixes two
     * topics of the same name.
     *
     * @param older an earlier snapshot of the same topic, or null
     */
    public GroupSnapshot carryingForward(GroupSnapshot older) {
        if (older == null || !sameTopicAs(older)) {
            return this;
        }
        Map<Integer, Long> next = new TreeMap<>(chainNextOffsets);
        older.chainNextOffsets.forEach(next::putIfAbsent);
        Map<String, Map<Integer, CommittedOffset>> merged = new TreeMap<>();
        groups.forEach((g, offsets) -> merged.put(g, new TreeMap<>(offsets)));
        older.groups.forEach((g, offsets) -> offsets.forEach((p, c) -> {
            if (!chainNextOffsets.containsKey(p)) {
                merged.computeIfAbsent(g, x -> new TreeMap<>()).put(p, c);
            }
        }));
        return new GroupSnapshot(timeMs, topic, topicId, next, merged);
    }

    /**
     * The same committed offsets of the same topic, whatever the time and the chain's progress: a new snapshot is written
     * only when this is false (a group that does not move keeps its position however far the backup gets).
     */
    public boolean sameOffsetsAs(GroupSnapshot other) {
        return other != null && sameTopicAs(other) && groups.equals(other.groups);
    }

    /** The same topic: its name and its id (two snapshots without an id cannot be told apart, and are the same). */
    public boolean sameTopicAs(GroupSnapshot other) {
        return topic.equals(other.topic) && topicId.equals(other.topicId);
    }

    /** These offsets at another time: a snapshot's name is its time, and a newer one must sort after the newest stored. */
    public GroupSnapshot at(long timeMs) {
        return new GroupSnapshot(timeMs, topic, topicId, chainNextOffsets, groups);
    }
}
