package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.GroupSnapshot.CommittedOffset;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.MetaSnapshots.Stored;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PositionException;
import dev.mirrorv3.kafka.PositionRule;
import dev.mirrorv3.kafka.groups.CommittedOffsets;
import dev.mirrorv3.kafka.groups.GroupSelection;
import dev.mirrorv3.kafka.meta.TopicMetadata;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots the backed-up topics' metadata and their consumer groups' committed offsets beside the chains
 * ({@link MetaSnapshots}), on a thread of its own so that a slow source cluster or store never stalls {@code put()}.
 * The blob sink runs one task, which owns the one snapshotter: every backed-up partition is covered once. A snapshot is
 * written only when it differs from the newest one in the store, looked at again at every pass (a listing; the newest is
 * read again only when another writer added one), and is named after it: another connector sharing the destination
 * ({@code partitions=}) may have written a newer one meanwhile, carrying this task's partitions as it read them.
 * Group snapshots carry the chains' durable next offsets the task reported; a partition not open now (closed while the
 * task stops or rebalances, or another connector's of the same destination) keeps what the newest snapshot holds for it
 * ({@link GroupSnapshot#carryingForward}), so the newest never loses a partition. Group offsets are recorded with the id
 * of the topic they belong to, and only when that is the topic the backup holds (its newest topic snapshot's id,
 * {@link BackupIdentity}): a topic deleted, or deleted and created again, leaves the newest group snapshot as it is. A
 * failed pass is logged (once until one succeeds) and tried again at the next interval: snapshots never fail the backup.
 */
final class MetaSnapshotter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MetaSnapshotter.class);

    private final Admin admin;
    private final Function<String, Store> storeFor;
    private final ObjectEncryption encryption;
    private final GroupSelection selection;
    private final CommittedOffsets committed;
    private final Duration timeout;
    private final Clock clock;
    private final Consumer<RuntimeException> recreated;
    private final DurableOffsets durableNext = new DurableOffsets();
    private final Map<String, MetaSnapshots> snapshots = new HashMap<>();
    /** Each topic's newest snapshots in the store, as last looked at. */
    private final Map<String, Stored<TopicSnapshot>> newestTopic = new HashMap<>();
    private final Map<String, Stored<GroupSnapshot>> newestGroups = new HashMap<>();
    /** Why a topic's group offsets were not snapshotted at the last pass (logged when it changes). */
    private final Map<String, String> groupsNotTaken = new HashMap<>();
    private final BackgroundTimer timer = new BackgroundTimer("mirror-v3-meta-snapshots");
    private final BackgroundTimer.Streak topicPasses = new BackgroundTimer.Streak(log, "topic metadata snapshots are taken again");
    private final BackgroundTimer.Streak groupPasses = new BackgroundTimer.Streak(log, "consumer-group snapshots are taken again");

    /**
     * @param admin the source cluster's admin client (not owned)
     * @param storeFor the store of a topic's backup, used from this snapshotter's thread only
     * @param recreated told when a backed-up topic was deleted and created again while the task ran (it fails the task)
     */
    MetaSnapshotter(Admin admin, Function<String, Store> storeFor, ObjectEncryption encryption, GroupSelection selection,
            Duration timeout, Clock clock, Consumer<RuntimeException> recreated) {
        this.admin = admin;
        this.storeFor = storeFor;
        this.encryption = encryption;
        this.selection = selection;
        this.committed = new CommittedOffsets(admin, timeout);
        this.timeout = timeout;
        this.clock = clock;
        this.recreated = recreated;
    }

    /** Starts the periodic passes; an interval of 0 turns that kind off. */
    MetaSnapshotter schedule(long metadataIntervalMs, long groupsIntervalMs) {
        if (metadataIntervalMs > 0) {
            timer.every(metadataIntervalMs, this::snapshotTopicsQuietly);
        }
        if (groupsIntervalMs > 0) {
            timer.every(groupsIntervalMs, this::snapshotGroupsQuietly);
        }
        return this;
    }

    /** Where the write path reports the chains' durable next offsets, which the group snapshots carry. */
    DurableOffsets durableOffsets() {
        return durableNext;
    }

    /** Takes the topic snapshots soon (after partitions were opened: the topic's metadata is known at start). */
    void topicsSoon(boolean enabled) {
        if (enabled) {
            timer.soon(this::snapshotTopicsQuietly);
        }
    }

    private void snapshotTopicsQuietly() {
        topicPasses.run(this::snapshotTopics, e -> log.warn("cannot snapshot the metadata of {} (tried again every interval): {}",
                topics(), Failures.describe(e)));
    }

    private void snapshotGroupsQuietly() {
        groupPasses.run(this::snapshotGroups, e -> log.warn("cannot snapshot the consumer groups of {} (tried again every interval): {}",
                topics(), Failures.describe(e)));
    }

    /** A backed-up partition of the topic, for messages. */
    private int partitionOf(String topic) {
        return durableNext.partitions().stream().filter(tp -> tp.topic().equals(topic)).mapToInt(TopicPartition::partition).min().orElse(0);
    }

    private Set<String> topics() {
        return topics(durableNext.partitions());
    }

    private static Set<String> topics(Set<TopicPartition> partitions) {
        Set<String> topics = new TreeSet<>();
        partitions.forEach(tp -> topics.add(tp.topic()));
        return topics;
    }

    /** One pass over the backed-up topics' metadata; returns the snapshots written. */
    synchronized List<MetaName> snapshotTopics() throws Exception {
        List<MetaName> written = new ArrayList<>();
        for (String topic : topics()) {
            MetaSnapshots meta = snapshots(topic);
            TopicSnapshot last = newest(newestTopic, topic, meta::newestTopic);
            TopicSnapshot now = TopicMetadata.read(admin, topic, after(last == null ? null : last.timeMs()), timeout);
            if (last != null && !last.topicId().isEmpty() && !now.topicId().isEmpty() && !now.topicId().equals(last.topicId())) {
                // Never written: the newest snapshot's id is the backup's identity (BackupIdentity), and it must stay the old topic's.
                recreated.accept(new PositionException("source topic " + topic + " was deleted and created again while it was backed"
                        + " up: its topic id is now " + now.topicId() + ", and the backup holds the topic with id " + last.topicId()
                        + " (objects written since the re-creation may hold records of the new topic). "
                        + new PositionRule.BlobChain(storeFor.apply(topic).location(partitionOf(topic))).whenRecreated()));
                continue;
            }
            if (!now.sameMetadataAs(last)) {
                MetaName name = meta.writeTopic(now);
                newestTopic.put(topic, new Stored<>(meta.location(MetaSnapshots.TOPIC_DIR) + "/" + name.fileName(), name, now));
                written.add(name);
                log.info("topic metadata of {} written to {}/{}", topic, meta.location(MetaSnapshots.TOPIC_DIR), name);
            }
        }
        return written;
    }

    /**
     * One pass over the consumer groups: one listing of the groups, then their committed offsets on every backed-up
     * partition in batched calls ({@link CommittedOffsets}); returns the snapshots written.
     */
    synchronized List<MetaName> snapshotGroups() throws Exception {
        Map<TopicPartition, Long> next = durableNext.now(); // before the offsets: the chains can only be further on
        if (next.isEmpty()) {
            return List.of();
        }
        Set<String> topics = topics(next.keySet());
        List<String> groups = committed.listGroups().stream().filter(selection::selected).toList();
        CommittedOffsets.ByTopic read = committed.readByTopic(groups, topics, next::containsKey);
        long time = clock.millis();
        List<MetaName> written = new ArrayList<>();
        for (String topic : topics) {
            MetaSnapshots meta = snapshots(topic);
            Optional<GroupSnapshot> open = backupsOffsets(topic, meta, read, next, time);
            if (open.isEmpty()) {
                continue;
            }
            // The newest in the store, whoever wrote it: partitions closed since, or another connector's, keep its offsets.
            GroupSnapshot newest = newest(newestGroups, topic, meta::newestGroups);
            GroupSnapshot now = open.get().carryingForward(newest);
            if (now.sameOffsetsAs(newest)) {
                continue;
            }
            now = now.at(Math.max(time, after(newest == null ? null : newest.timeMs())));
            MetaName name = meta.writeGroups(now);
            newestGroups.put(topic, new Stored<>(meta.location(MetaSnapshots.GROUPS_DIR) + "/" + name.fileName(), name, now));
            written.add(name);
            log.info("offsets of {} consumer group(s) on {} (topic id {}) written to {}/{}", now.groups().size(), topic, now.topicId(),
                    meta.location(MetaSnapshots.GROUPS_DIR), name);
        }
        return written;
    }

    /**
     * The offsets read on the topic's open partitions as a snapshot of the topic the backup holds; empty, and logged when
     * the reason changes, when they are not that topic's (it was deleted, or deleted and created again).
     */
    private Optional<GroupSnapshot> backupsOffsets(String topic, MetaSnapshots meta, CommittedOffsets.ByTopic read,
            Map<TopicPartition, Long> next, long time) {
        CommittedOffsets.TopicOffsets offsets = read.offsets().get(topic);
        String why = read.unattributed().get(topic);
        if (offsets != null) {
            TopicSnapshot recorded = newest(newestTopic, topic, meta::newestTopic);
            String backupId = recorded == null ? "" : recorded.topicId();
            if (!backupId.isEmpty() && !offsets.topicId().isEmpty() && !backupId.equals(offsets.topicId())) {
                why = "topic " + topic + " was deleted and created again: it now has id " + offsets.topicId() + ", and the backup holds"
                        + " the topic with id " + backupId;
            }
        }
        if (why != null) {
            if (!why.equals(groupsNotTaken.put(topic, why))) {
                log.warn("consumer-group offsets on {} not snapshotted: {}; the offsets of its groups now are not the backup's, and its"
                        + " newest group snapshot in {} stays the backup's", topic, why, meta.location(MetaSnapshots.GROUPS_DIR));
            }
            return Optional.empty();
        }
        groupsNotTaken.remove(topic);
        Map<Integer, Long> chainNext = new TreeMap<>();
        next.forEach((tp, o) -> {
            if (tp.topic().equals(topic)) {
                chainNext.put(tp.partition(), o);
            }
        });
        Map<String, Map<Integer, CommittedOffset>> groups = new TreeMap<>();
        offsets.groups().forEach((group, perPartition) -> perPartition.forEach((tp, o) -> groups
                .computeIfAbsent(group, g -> new TreeMap<>()).put(tp.partition(), new CommittedOffset(o.offset(), o.metadata()))));
        return Optional.of(new GroupSnapshot(time, topic, offsets.topicId(), chainNext, groups));
    }

    /** The newest snapshot of a kind in the store, read again only when its name changed since the last look. */
    private static <T> T newest(Map<String, Stored<T>> known, String topic, Function<Stored<T>, Optional<Stored<T>>> look) {
        Stored<T> s = known.compute(topic, (t, last) -> look.apply(last).orElse(null));
        return s == null ? null : s.snapshot();
    }

    /** A time for a new snapshot: now, or just after the newest one when a writer's clock is behind (its name must sort last). */
    private long after(Long newestTimeMs) {
        long now = clock.millis();
        return newestTimeMs == null ? now : Math.max(now, newestTimeMs + 1);
    }

    /** listConsumerGroupOffsets calls made so far. */
    long offsetCalls() {
        return committed.calls();
    }

    /** A topic's snapshots; the first use removes what a writer lost mid-write left (a worker that died in a write). */
    private MetaSnapshots snapshots(String topic) {
        return snapshots.computeIfAbsent(topic, t -> {
            MetaSnapshots meta = new MetaSnapshots(storeFor.apply(t), encryption);
            try {
                int removed = meta.removeTemporaryFiles();
                if (removed > 0) {
                    log.info("removed {} temporary file(s) of an interrupted snapshot write under {}", removed,
                            meta.location(MetaSnapshots.TOPIC_DIR).replaceAll("/topic$", ""));
                }
            } catch (RuntimeException e) {
                // Housekeeping only: readers ignore temporary files, and the next task start tries again.
                log.warn("cannot remove temporary files of an interrupted snapshot write of {}: {}", t, Failures.describe(e));
            }
            return meta;
        });
    }

    @Override
    public void close() {
        timer.close();
    }
}
