package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.GroupSnapshot.CommittedOffset;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.read.CheckedObject;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.restore.OffsetTranslation;
import dev.mirrorv3.chain.restore.VerifiedObject;
import dev.mirrorv3.chain.restore.VerifiedPartition;
import dev.mirrorv3.kafka.groups.ActiveGroups;
import dev.mirrorv3.kafka.groups.GroupSelection;
import dev.mirrorv3.kafka.groups.OffsetClamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Restores consumer-group offsets from a backup's group snapshot after the records ({@code --groups}). With
 * {@code --offsets preserve} a committed offset is applied as it is, double-clamped into the target partition's range as
 * KIP-1279's group mirroring clamps it ({@link OffsetClamp}); with {@code renumber} it is translated exactly through
 * the chain ({@link OffsetTranslation}). A group with active members on the target is refused: its live consumers own
 * their position ({@link ActiveGroups}).
 */
public final class GroupRestorer {

    /** One committed offset: as backed up, as applied, and which bound of the target clamped it. */
    public record Row(String group, int partition, long backedUp, long applied, OffsetClamp.Bound bound, String metadata) {
        public boolean clamped() {
            return bound != OffsetClamp.Bound.NONE;
        }
    }

    /** A partition's readable range on the target: log start and high watermark. */
    public record Range(long logStart, long highWatermark) {
    }

    /**
     * A selected group that is not restored because its offsets are only in group snapshots of another topic of the
     * same name than the backup's (the topic was deleted and created again).
     *
     * @param snapshot where the newest such snapshot holding the group is
     * @param topicId that snapshot's topic id
     * @param reason why, in words
     */
    public record Skipped(String group, String snapshot, String topicId, String reason) {
    }

    private GroupRestorer() {
    }

    /** The groups of the snapshot the selection takes, with offsets on the restored partitions. */
    public static Set<String> selected(GroupSnapshot snapshot, GroupSelection selection, List<VerifiedPartition> partitions) {
        Set<Integer> restored = new TreeSet<>();
        partitions.forEach(vp -> restored.add(vp.partition()));
        Set<String> groups = new TreeSet<>();
        snapshot.groups().forEach((g, offsets) -> {
            if (selection.selected(g) && offsets.keySet().stream().anyMatch(restored::contains)) {
                groups.add(g);
            }
        });
        return groups;
    }

    /**
     * The groups the selection takes, with offsets on the restored partitions, in the snapshots the choice passed over
     * as another topic's ({@link MetaSnapshots#groupsOfBackup}) and not among {@code restored}: each with the newest such
     * snapshot holding it and why it is skipped.
     */
    public static List<Skipped> skipped(MetaSnapshots.GroupChoice choice, Set<String> restored, GroupSelection selection,
            List<VerifiedPartition> partitions) {
        Map<String, Skipped> skipped = new java.util.TreeMap<>();
        for (MetaSnapshots.Stored<GroupSnapshot> s : choice.skipped()) {
            GroupSnapshot g = s.snapshot();
            for (String group : selected(g, selection, partitions)) {
                if (!restored.contains(group)) {
                    skipped.putIfAbsent(group, new Skipped(group, s.location(), g.topicId(), "its offsets are only in snapshots of another"
                            + " topic named " + g.topic() + " (topic id " + g.topicId() + ", newest " + s.location() + "), and the backup"
                            + " holds the topic with id " + choice.backupTopicId() + ": " + g.topic() + " was deleted and created again,"
                            + " and those positions are the new topic's"));
                }
            }
        }
        return List.copyOf(skipped.values());
    }

    /**
     * The restored partitions on which a selected group has no offset in the snapshot, each with those groups: restore
     * commits nothing for them there, and their consumers start from {@code auto.offset.reset}, so restore names them.
     */
    public static Map<Integer, Set<String>> withoutOffset(GroupSnapshot snapshot, Set<String> groups, List<VerifiedPartition> partitions) {
        Map<Integer, Set<String>> missing = new java.util.TreeMap<>();
        for (VerifiedPartition vp : partitions) {
            for (String group : groups) {
                if (!snapshot.groups().getOrDefault(group, Map.of()).containsKey(vp.partition())) {
                    missing.computeIfAbsent(vp.partition(), p -> new TreeSet<>()).add(group);
                }
            }
        }
        return missing;
    }

    /**
     * The offsets to commit, group by group and partition by partition.
     *
     * @param ranges each restored partition's range on the target (after the restore, or as it will be for a dry run)
     * @param reread reads an object of a partition's chain again (renumber translates through the object holding C)
     */
    public static List<Row> plan(GroupSnapshot snapshot, Set<String> groups, List<VerifiedPartition> partitions, OffsetMode mode,
            Map<Integer, Range> ranges, BiFunction<Integer, VerifiedObject, CheckedObject> reread) {
        List<Row> rows = new ArrayList<>();
        for (String group : groups) {
            Map<Integer, CommittedOffset> offsets = snapshot.groups().get(group);
            for (VerifiedPartition vp : partitions) {
                CommittedOffset c = offsets.get(vp.partition());
                if (c == null) {
                    continue;
                }
                Range range = ranges.get(vp.partition());
                OffsetClamp clamp;
                if (mode == OffsetMode.PRESERVE) {
                    clamp = OffsetClamp.of(c.offset(), range.logStart(), range.highWatermark());
                } else {
                    long translated = OffsetTranslation.renumbered(vp, c.offset(), (o) -> reread.apply(vp.partition(), o));
                    OffsetClamp onTarget = OffsetClamp.of(translated, range.logStart(), range.highWatermark());
                    // Outside the chain there is nothing to translate exactly: the ends of the chain are the clamp.
                    OffsetClamp.Bound bound = c.offset() > vp.lastOffset() + 1 ? OffsetClamp.Bound.LOG_END
                            : c.offset() < vp.firstOffset() ? OffsetClamp.Bound.LOG_START : onTarget.bound();
                    clamp = new OffsetClamp(c.offset(), onTarget.applied(), bound);
                }
                rows.add(new Row(group, vp.partition(), c.offset(), clamp.applied(), clamp.bound(), c.metadata()));
            }
        }
        return rows;
    }

    /**
     * Refuses when any of the groups is active on the target.
     *
     * @throws RestoreCheckException naming the active groups and what to do
     */
    public static void refuseActive(ActiveGroups guard, Set<String> groups, String topic) throws Exception {
        Set<String> free = guard.inactive(groups);
        if (free.size() < groups.size()) {
            throw new RestoreCheckException("consumer group(s) " + guard.lastSkipped() + " have active members on the target: restore"
                    + " never overwrites a live group's position on " + topic + ". Stop their consumers, or leave them out with"
                    + " --groups-exclude, and restore the groups again");
        }
    }

    /** Commits the rows' offsets on the target topic, one call per group. */
    public static void commit(Admin admin, String topic, List<Row> rows, Duration timeout) throws Exception {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> byGroup = new LinkedHashMap<>();
        for (Row r : rows) {
            byGroup.computeIfAbsent(r.group(), g -> new LinkedHashMap<>())
                    .put(new TopicPartition(topic, r.partition()), new OffsetAndMetadata(r.applied(), r.metadata()));
        }
        for (Map.Entry<String, Map<TopicPartition, OffsetAndMetadata>> e : byGroup.entrySet()) {
            admin.alterConsumerGroupOffsets(e.getKey(), e.getValue()).all().get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        }
    }
}
