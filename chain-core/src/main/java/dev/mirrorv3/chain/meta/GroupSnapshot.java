package dev.mirrorv3.chain.meta;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The consumer groups' committed offsets on a backed-up topic at one time, with the chain's durable next offset of
 * each partition at that moment (how far the backup had got: a group position beyond it was not backed up yet).
 *
 * @param chainNextOffsets partition to the chain's next offset ({@code max(to) + 1}) when the snapshot was taken
 * @param groups group id to partition to committed offset
 */
public record GroupSnapshot(long timeMs, String topic, Map<Integer, Long> chainNextOffsets,
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
        chainNextOffsets = Collections.unmodifiableSortedMap(new TreeMap<>(chainNextOffsets));
        SortedMap<String, Map<Integer, CommittedOffset>> copy = new TreeMap<>();
        groups.forEach((g, offsets) -> copy.put(g, Collections.unmodifiableSortedMap(new TreeMap<>(offsets))));
        groups = Collections.unmodifiableSortedMap(copy);
    }

    /**
     * This snapshot with every partition of {@code older} it does not cover carried forward: that partition's chain next
     * offset and every group's offset on it, as {@code older} recorded them. A snapshot covers the partitions its writer had
     * open; a partition closed meanwhile (a rebalance, a task stopping, another connector's {@code partitions=} sharing the
     * destination) keeps its last known position instead of vanishing from the newest snapshot, which restore reads
     * (docs/decisions.md, "Group snapshots carry closed partitions forward").
     *
     * @param older an earlier snapshot of the same topic, or null
     */
    public GroupSnapshot carryingForward(GroupSnapshot older) {
        if (older == null || !older.topic.equals(topic)) {
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
        return new GroupSnapshot(timeMs, topic, next, merged);
    }

    /**
     * The same committed offsets, whatever the time and the chain's progress: a new snapshot is written only when
     * this is false (a group that does not move keeps its position however far the backup gets).
     */
    public boolean sameOffsetsAs(GroupSnapshot other) {
        return other != null && topic.equals(other.topic) && groups.equals(other.groups);
    }
}
