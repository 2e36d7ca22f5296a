package dev.mirrorv3.restore.cli.restore;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.restore.BackupVerifier;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.restore.VerifiedPartition;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.groups.ActiveGroups;
import dev.mirrorv3.kafka.groups.GroupSelection;
import dev.mirrorv3.kafka.restore.GroupRestorer;
import dev.mirrorv3.kafka.restore.RestoreCheckException;
import dev.mirrorv3.kafka.restore.RestoredPartition;
import dev.mirrorv3.kafka.restore.TargetTopic;
import dev.mirrorv3.kafka.restore.TopicCreator;
import dev.mirrorv3.restore.cli.UsageException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;

/**
 * The disaster-recovery steps of one restore, around the record restore: before it, read the newest snapshots, plan
 * the topic ({@code --create-topic}) and refuse live groups; then create the topic; after it, commit the groups'
 * offsets ({@code --groups}) and print the table. Every refusal happens before anything is created or produced.
 */
final class DisasterRecovery {
    private final DisasterRecoveryOptions options;
    private final OffsetMode mode;
    private final String targetTopic;
    private final Duration timeout;
    private final MetaSnapshots meta;
    private final PrintWriter out;
    private final RestoreCut cut;
    private final Clock clock;
    private TopicCreator.Plan topicPlan;
    private MetaSnapshots.Stored<GroupSnapshot> groupSnapshot;
    private Set<String> groups = Set.of();
    private List<RestoredPartition> restored = List.of();
    private boolean created;
    private boolean acceptRetention;
    private List<GroupRestorer.Row> committed = List.of();
    private Map<Integer, Set<String>> withoutOffset = Map.of();
    private List<GroupRestorer.Skipped> skipped = List.of();

    DisasterRecovery(RestoreRun run, Store store, RestoreCut cut) {
        this.options = run.settings().dr();
        this.mode = run.settings().offsets();
        this.targetTopic = run.targetTopic();
        this.timeout = run.settings().timeout();
        this.meta = new MetaSnapshots(store, ObjectEncryption.readOnly(run.backup().keys()));
        this.out = run.out();
        this.cut = cut;
        this.clock = run.clock();
    }

    /** After the verify pass: reads the snapshots and makes every check that needs no cluster. */
    void prepare(List<VerifiedPartition> partitions, boolean acceptRetention, boolean acceptLogAppendTime) {
        prepareTopic(partitions.stream().map(RestoredPartition::of).toList(), acceptRetention, acceptLogAppendTime);
        if (options.groups != null) {
            GroupSelection selection;
            try {
                selection = GroupSelection.of(options.groups, options.groupsExclude, List.of());
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage(), e);
            }
            groupSnapshot = chooseGroups(selection, partitions);
            GroupSnapshot s = groupSnapshot.snapshot();
            for (VerifiedPartition vp : partitions) {
                Long next = s.chainNextOffsets().get(vp.partition());
                if (next != null && next < vp.lastOffset() + 1) {
                    out.println("note: partition " + vp.partition() + " was backed up to offset " + next + " when the snapshot was taken,"
                            + (cut.isNone() ? " and the backup now ends at " : " and the restored prefix ends at ") + (vp.lastOffset() + 1)
                            + ": the group positions are from that time");
                }
            }
            out.println("groups: " + groups.size() + " of " + s.groups().size() + " in the snapshot selected (" + selection + ")");
            withoutOffset = GroupRestorer.withoutOffset(s, groups, partitions);
            withoutOffset.forEach((p, g) -> out.println("warning: partition " + p + ": no offset of group(s) " + g + " in "
                    + groupSnapshot.location() + (s.chainNextOffsets().containsKey(p) ? "" : " (the snapshot does not cover the"
                    + " partition: taken while the backup did not have it open)") + "; nothing is committed for them there, so their"
                    + " consumers start from auto.offset.reset (latest skips every restored record): commit an offset by hand"
                    + " (kafka-consumer-groups.sh --reset-offsets) before they start"));
        }
        out.flush();
    }

    /**
     * {@code --create-topic} of any backup kind (a chain's prefixes or snapshots): reads the newest topic snapshot, plans
     * the topic with its adjusted configs and makes the checks that need no cluster.
     */
    void prepareTopic(List<RestoredPartition> restored, boolean acceptRetention, boolean acceptLogAppendTime) {
        this.restored = restored;
        this.acceptRetention = acceptRetention;
        if (!options.createTopic) {
            return;
        }
        MetaSnapshots.Stored<TopicSnapshot> t = meta.newestTopic().orElseThrow(() -> new RestoreCheckException("no topic snapshot in "
                + meta.location(MetaSnapshots.TOPIC_DIR) + ": --create-topic needs one (the blob sink writes it at start and every"
                + " metadata.interval.ms); create the topic by hand and restore without --create-topic"));
        out.println("topic metadata: " + t.location() + " (taken " + Instant.ofEpochMilli(t.snapshot().timeMs()) + ")");
        topicPlan = TopicCreator.plan(t.snapshot(), targetTopic, options.replicationFactor, restored, t.location(), clock);
        TopicCreator.check(topicPlan, restored, acceptRetention, acceptLogAppendTime, clock);
        printPlan(options.dryRun ? "would create: " : "create: ");
        out.flush();
    }

    private void printPlan(String what) {
        out.println(what + topicPlan.topic() + " with " + topicPlan.partitions() + " partitions, replication factor "
                + topicPlan.replicationFactor() + ", configs " + topicPlan.configs());
        topicPlan.notes().forEach(n -> out.println("note: " + n));
    }

    /**
     * The group snapshot of the backup's own topic (without a cut the newest, with one the newest at or before it), the
     * groups it restores, and the groups skipped because they are only in snapshots of another topic of the same name;
     * refuses when there is no such snapshot, or when it restores none of the groups the selection takes and some were
     * skipped.
     */
    private MetaSnapshots.Stored<GroupSnapshot> chooseGroups(GroupSelection selection, List<VerifiedPartition> partitions) {
        Long until = cut.untilTimestampMs();
        MetaSnapshots.GroupChoice choice = meta.groupsOfBackup(t -> until == null || t <= until,
                g -> cut.admitsGroupSnapshot(g.timeMs(), g.chainNextOffsets()));
        choice.chosen().ifPresent(this::printChosen);
        choice.skipped().forEach(g -> out.println("note: skipped consumer-group snapshot " + g.location() + " (taken "
                + Instant.ofEpochMilli(g.snapshot().timeMs()) + "): it records topic id " + g.snapshot().topicId() + ", and the backup"
                + " holds the topic with id " + choice.backupTopicId() + " (" + g.snapshot().topic() + " was deleted and created again):"
                + " its positions are the new topic's"));
        groups = choice.chosen().map(g -> GroupRestorer.selected(g.snapshot(), selection, partitions)).orElse(Set.of());
        skipped = GroupRestorer.skipped(choice, groups, selection, partitions);
        skipped.forEach(g -> out.println("warning: group " + g.group() + " not restored: " + g.reason()));
        if (groups.isEmpty() && !skipped.isEmpty()) {
            throw new RestoreCheckException("none of the consumer groups --groups selects can be restored: "
                    + skipped.stream().map(GroupRestorer.Skipped::group).toList() + ": " + skipped.get(0).reason() + ". Nothing was"
                    + " restored: restore without --groups, then set the groups' offsets by hand (kafka-consumer-groups.sh"
                    + " --reset-offsets), or restore them from a backup of the new topic");
        }
        if (choice.chosen().isPresent() && choice.chosen().get().snapshot().topicId().isEmpty() && !choice.backupTopicId().isEmpty()) {
            out.println("note: " + choice.chosen().get().location() + " records no topic id (written by an older mirror-v3): its offsets"
                    + " are taken as the backup's topic's (id " + choice.backupTopicId() + ")");
        }
        return choice.chosen().orElseThrow(() -> new RestoreCheckException(cut.isNone()
                ? "no consumer-group snapshot " + (choice.skipped().isEmpty() ? "" : "of the backup's topic (id " + choice.backupTopicId()
                        + ") ") + "in " + meta.location(MetaSnapshots.GROUPS_DIR) + ": --groups needs one (the blob sink writes them"
                        + " every groups.interval.ms); restore without --groups"
                : "no consumer-group snapshot in " + meta.location(MetaSnapshots.GROUPS_DIR) + " fits the cut: --groups with a cut needs "
                        + cut.groupSnapshotRule() + ", and every snapshot there was taken later (or prune removed the"
                        + " older ones); restore without --groups, or with a later cut"));
    }

    /** Which snapshot the groups come from, and with a cut why. */
    private void printChosen(MetaSnapshots.Stored<GroupSnapshot> g) {
        String taken = "consumer-group offsets: " + g.location() + " (taken " + Instant.ofEpochMilli(g.snapshot().timeMs()) + ")";
        if (cut.isNone()) {
            out.println(taken);
        } else {
            long newer = meta.groupNames().stream().filter(n -> n.compareTo(g.name()) > 0).count();
            out.println(taken + ": " + cut.groupSnapshotRule() + "; " + newer + " newer snapshot(s) ignored; every offset is clamped to"
                    + " the restored prefix");
        }
    }

    /** The groups --groups selects that are not restored (only in snapshots of another topic of the same name), for the report. */
    List<GroupRestorer.Skipped> skipped() {
        return skipped;
    }

    /** The applied rows of the last commit, for the report. */
    List<GroupRestorer.Row> committed() {
        return committed;
    }

    /** The restored partitions on which a selected group has no offset in the snapshot, with those groups. */
    Map<Integer, Set<String>> withoutOffset() {
        return withoutOffset;
    }

    /** Where the group offsets came from, or null without --groups. */
    String groupSnapshotLocation() {
        return groupSnapshot == null ? null : groupSnapshot.location();
    }

    /** A dry run: the table as the restored topic will hold the records (from its start to the chain's end). */
    void dryRun(List<VerifiedPartition> partitions, BackupVerifier verifier) {
        if (groupSnapshot == null) {
            return;
        }
        Map<Integer, GroupRestorer.Range> ranges = new TreeMap<>();
        for (VerifiedPartition vp : partitions) {
            ranges.put(vp.partition(), new GroupRestorer.Range(0, prefixEnd(vp)));
        }
        printTable(plan(partitions, verifier, ranges), "would commit (dry run, nothing committed)");
    }

    /** Before the records: the topic, and the live-group refusal. */
    void beforeRecords(LogOffsets target, String cluster) throws Exception {
        if (!groups.isEmpty()) {
            GroupRestorer.refuseActive(new ActiveGroups(target.admin(), timeout, cluster), groups, targetTopic);
        }
        if (topicPlan != null) {
            TopicCreator.Plan created = TopicCreator.create(target.admin(), topicPlan, timeout);
            if (created.notes().size() > topicPlan.notes().size()) {
                created.notes().subList(topicPlan.notes().size(), created.notes().size()).forEach(n -> out.println("note: " + n));
            }
            topicPlan = created;
            this.created = true;
            Optional<String> problem;
            try {
                TopicCreator.awaitMetadata(target.admin(), targetTopic, timeout, clock);
                problem = TopicCreator.effectiveProblem(TargetTopic.inspect(target.admin(), targetTopic, timeout), restored,
                        acceptRetention, clock);
            } catch (Exception e) {
                throw refuseCreated(target, "the created topic's metadata could not be read (" + Failures.describe(e) + "). ", e,
                        "restore again once the cluster serves it");
            }
            if (problem.isPresent()) {
                throw refuseCreated(target, problem.get() + ". ", null, "pass --accept-retention for a retention problem, or create it"
                        + " by hand as it should be and restore without --create-topic");
            }
            out.println("created: " + targetTopic);
            out.flush();
        }
    }

    /** The refusal of a run that created the topic and cannot go on: the topic is deleted first, as if never created. */
    private RestoreCheckException refuseCreated(LogOffsets target, String why, Exception cause, String whatToDo) {
        try {
            deleteCreated(target);
        } catch (Exception e) {
            return new RestoreCheckException(why + targetTopic + " was created by this restore, and deleting it again failed too ("
                    + Failures.describe(e) + "): delete it by hand (kafka-topics.sh --delete --topic " + targetTopic + "), then "
                    + whatToDo + ". Nothing was sent", cause);
        }
        return new RestoreCheckException(why + targetTopic + " was created by this restore and deleted again; " + whatToDo
                + ". Nothing was sent", cause);
    }

    /**
     * Runs the target's checks between the topic's creation and the first record; whatever fails there (a refusal, an
     * unreachable cluster) deletes the topic this run created first, so a run that sent nothing leaves nothing behind.
     */
    <T> T checkBeforeRecords(LogOffsets target, Callable<T> checks) throws Exception {
        try {
            return checks.call();
        } catch (Exception e) {
            try {
                deleteCreated(target);
            } catch (Exception d) {
                out.println("warning: " + targetTopic + " was created by this restore and could not be deleted again ("
                        + Failures.describe(d) + "): delete it by hand (kafka-topics.sh --delete --topic " + targetTopic + ")");
                out.flush();
                e.addSuppressed(d);
            }
            throw e;
        }
    }

    /**
     * A refusal after the topic was created, before any record was sent: the topic this run created is deleted again,
     * which leaves the cluster as the run found it.
     */
    private void deleteCreated(LogOffsets target) throws Exception {
        if (created) {
            target.admin().deleteTopics(List.of(targetTopic)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            created = false;
            out.println("deleted: " + targetTopic + " (created by this restore, nothing sent)");
            out.flush();
        }
    }

    /** After the records of every partition are restored and their high watermarks checked: the groups. */
    void afterRecords(LogOffsets target, String cluster, List<VerifiedPartition> partitions, BackupVerifier verifier) throws Exception {
        if (groupSnapshot == null) {
            return;
        }
        List<TopicPartition> tps = partitions.stream().map(vp -> new TopicPartition(targetTopic, vp.partition())).toList();
        Map<TopicPartition, Long> starts = target.logStartOffsets(tps);
        Map<TopicPartition, Long> ends = target.highWatermarks(tps);
        Map<Integer, GroupRestorer.Range> ranges = new TreeMap<>();
        // The target holds exactly the restored prefix; the prefix's end bounds the clamp all the same.
        partitions.forEach(vp -> {
            TopicPartition tp = new TopicPartition(targetTopic, vp.partition());
            ranges.put(vp.partition(), new GroupRestorer.Range(starts.get(tp), Math.min(ends.get(tp), prefixEnd(vp))));
        });
        List<GroupRestorer.Row> rows = plan(partitions, verifier, ranges);
        try {
            // again: consumers may have started
            GroupRestorer.refuseActive(new ActiveGroups(target.admin(), timeout, cluster), groups, targetTopic);
        } catch (RestoreCheckException e) {
            printTable(rows, "NOT committed");
            throw new RestoreCheckException(e.getMessage().replace("and restore the groups again", "then commit the offsets"
                    + " of the table above with kafka-consumer-groups.sh --reset-offsets --to-offset: the records are restored"), e);
        }
        GroupRestorer.commit(target.admin(), targetTopic, rows, timeout);
        committed = rows;
        printTable(rows, "committed");
    }

    /** Where the restored prefix ends on the target: the next offset after it (preserve) or its record count (renumber). */
    private long prefixEnd(VerifiedPartition vp) {
        return mode == OffsetMode.PRESERVE ? vp.lastOffset() + 1 : vp.records();
    }

    private List<GroupRestorer.Row> plan(List<VerifiedPartition> partitions, BackupVerifier verifier,
            Map<Integer, GroupRestorer.Range> ranges) {
        return GroupRestorer.plan(groupSnapshot.snapshot(), groups, partitions, mode, ranges, verifier::reread);
    }

    private void printTable(List<GroupRestorer.Row> rows, String what) {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"GROUP", "PARTITION", "BACKED-UP", "APPLIED", "CLAMPED"});
        for (GroupRestorer.Row r : rows) {
            lines.add(new String[] {r.group(), Integer.toString(r.partition()), Long.toString(r.backedUp()), Long.toString(r.applied()),
                    switch (r.bound()) {
                        case NONE -> "no";
                        case LOG_START -> "to log start";
                        case LOG_END -> "to high watermark";
                    }});
        }
        int[] width = new int[5];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        for (String[] l : lines) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < l.length; i++) {
                sb.append(String.format("%-" + (width[i] + 2) + "s", l[i]));
            }
            out.println(sb.toString().stripTrailing());
        }
        long groupCount = rows.stream().map(GroupRestorer.Row::group).distinct().count();
        out.println("groups: " + what + " " + rows.size() + " offset(s) of " + groupCount + " group(s) on " + targetTopic
                + " (--offsets " + mode.cliName() + ", snapshot " + groupSnapshot.location() + ")");
        out.flush();
    }
}
