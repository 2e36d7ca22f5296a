package dev.mirrorv3.kafka.groupsync;

import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.groups.ActiveGroups;
import dev.mirrorv3.kafka.groups.CommittedOffsets;
import dev.mirrorv3.kafka.groups.GroupSelection;
import dev.mirrorv3.kafka.groups.OffsetClamp;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the committed offsets of consumer groups on a standby cluster in step with where they come from (the source
 * cluster of a Kafka sink, the backup's group snapshots for a chain source), so that a fail-over needs no offset
 * translation: the offsets are the same on both sides. On a timer, one pass: read the origin's offsets of the selected
 * groups (mapped to the standby's partitions), read the standby partitions' log start and end, leave out the groups
 * active on the standby (their consumers own their position), and commit each offset clamped into the standby's
 * readable range ({@link OffsetClamp}) where it differs from what the standby has. A group moved backwards on the origin
 * (a reset) moves backwards on the standby too. A group deleted on the origin is left as it is on the standby: deleting
 * is not undoable, a deletion on the primary may be the mistake a fail-over recovers from, and the standby's own
 * {@code offsets.retention.minutes} expires an abandoned group as the primary's would. Connect-free.
 */
public final class GroupOffsetSync implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GroupOffsetSync.class);

    /** Where the offsets come from. */
    public interface Origin {
        /**
         * The committed offsets of the groups {@code selection} accepts, keyed by the standby's partitions.
         *
         * @throws Exception a transient failure: the pass is tried again at the next interval
         */
        Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets(GroupSelection selection) throws Exception;
    }

    /** A lower end than the standby's high watermark for some partitions (a chain source: what it has restored so far). */
    public interface Bound {
        /** The highest offset a group may be committed at, per partition; absent: the standby's high watermark only. */
        Map<TopicPartition, Long> upTo(Set<TopicPartition> partitions) throws Exception;
    }

    /**
     * The connector's side of a sync.
     *
     * @param name the connector's name, for log lines and the thread's name
     * @param timeout the admin clients' calls' timeout
     * @param clock the connector's clock: the time of each pass (the last-sync timestamp metric, which alerts on a stale sync)
     */
    public record Settings(String name, Duration timeout, Clock clock) {
    }

    /** What the last successful pass did. */
    public record Pass(int synced, int written, int skipped, int clamped, int missingPartitions, long atMs) {
    }

    private final Origin origin;
    private final GroupSelection selection;
    private final Admin standby;
    private final LogOffsets standbyOffsets;
    private final ActiveGroups guard;
    private final CommittedOffsets standbyCommitted;
    private final StandbyPartitions standbyPartitions;
    private final Bound bound;
    private final Duration timeout;
    private final String name;
    private final String standbyLabel;
    private final Clock clock;
    private final AtomicLong writtenTotal = new AtomicLong();
    private volatile Pass last = new Pass(0, 0, 0, 0, 0, 0);
    private ScheduledExecutorService timer;
    private String lastFailure;

    /**
     * @param standby an admin client of the cluster written to (not owned)
     * @param standbyLabel how messages name that cluster, e.g. "destination localhost:9092"
     * @param bound null: the standby's high watermark is the upper end
     */
    public GroupOffsetSync(Origin origin, GroupSelection selection, Admin standby, String standbyLabel, Bound bound, Settings settings) {
        Duration timeout = settings.timeout();
        this.origin = origin;
        this.selection = selection;
        this.standby = standby;
        this.standbyOffsets = new LogOffsets(standby, timeout);
        this.guard = new ActiveGroups(standby, timeout, standbyLabel);
        this.standbyCommitted = new CommittedOffsets(standby, timeout);
        this.standbyPartitions = new StandbyPartitions(standby, timeout);
        this.bound = bound;
        this.timeout = timeout;
        this.name = settings.name();
        this.standbyLabel = standbyLabel;
        this.clock = settings.clock();
    }

    /** Runs a pass now (on its own thread, off the task's path) and then every {@code intervalMs} after the end of the last. */
    public synchronized void start(long intervalMs) {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mirror-v3-group-sync-" + name);
            t.setDaemon(true);
            return t;
        });
        log.info("{}: syncing consumer group offsets ({}) to {} every {} ms", name, selection, standbyLabel, intervalMs);
        timer.scheduleWithFixedDelay(this::runOnce, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    private void runOnce() {
        try {
            syncOnce();
            if (lastFailure != null) {
                log.info("{}: syncing consumer group offsets to {} works again", name, standbyLabel);
            }
            lastFailure = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            String failure = Failures.describe(e);
            if (!failure.equals(lastFailure)) { // once per distinct failure, not every interval
                log.warn("{}: syncing consumer group offsets to {} failed: {}; trying again at the next interval{}", name, standbyLabel,
                        failure, Failures.isAuthorization(e) ? " (the admin clients need Describe and Read on the groups and"
                                + " Describe on the topics of both clusters)" : "");
            }
            lastFailure = failure;
        }
    }

    /** One pass; public for tests and for a caller that wants a pass at a moment of its own. */
    public synchronized Pass syncOnce() throws Exception {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> wanted = origin.offsets(selection);
        Tally t = new Tally();
        if (!wanted.isEmpty()) {
            Set<TopicPartition> absent = standbyPartitions.missing(partitionsOf(wanted));
            if (!absent.isEmpty()) {
                wanted = withoutMissing(wanted, absent);
                t.missing = absent.size();
            }
        }
        if (!wanted.isEmpty()) {
            syncPresent(wanted, t);
        }
        writtenTotal.addAndGet(t.written);
        Pass p = new Pass(t.synced, t.written, t.skipped, t.clamped, t.missing, clock.millis());
        last = p;
        if (t.written > 0) { // one line per pass that moved something, not one per group: a cluster may have thousands
            log.info("{}: consumer group offsets written to {} for {} group(s) ({}{}); {} in sync, {} skipped as active, {} offset(s)"
                    + " clamped", name, standbyLabel, t.written, String.join(", ", t.writtenGroups),
                    t.written > t.writtenGroups.size() ? ", ..." : "",
                    t.synced, t.skipped, t.clamped);
        }
        return p;
    }

    /** What one pass did, counted as it goes. */
    private static final class Tally {
        int synced;
        int written;
        int clamped;
        int skipped;
        int missing;
        final java.util.List<String> writtenGroups = new java.util.ArrayList<>();
    }

    private static Set<TopicPartition> partitionsOf(Map<String, Map<TopicPartition, OffsetAndMetadata>> wanted) {
        Set<TopicPartition> partitions = new HashSet<>();
        wanted.values().forEach(m -> partitions.addAll(m.keySet()));
        return partitions;
    }

    /**
     * Syncs the groups that are not active on the standby, on partitions it has: each offset clamped into the standby
     * partition's range (log start up to its high watermark, or the bound), written where it differs from the group's.
     */
    private void syncPresent(Map<String, Map<TopicPartition, OffsetAndMetadata>> wanted, Tally t) throws Exception {
        Set<TopicPartition> partitions = partitionsOf(wanted);
        Map<TopicPartition, Long> logStart = standbyOffsets.logStartOffsets(partitions);
        Map<TopicPartition, Long> logEnd = new HashMap<>(standbyOffsets.highWatermarks(partitions));
        if (bound != null) {
            bound.upTo(partitions).forEach((tp, b) -> logEnd.merge(tp, b, Math::min));
        }
        Set<String> free = guard.inactive(wanted.keySet());
        t.skipped = wanted.size() - free.size();
        Map<String, Map<TopicPartition, OffsetAndMetadata>> current = standbyCommitted.read(free, partitions::contains);
        for (String group : free) {
            Map<TopicPartition, OffsetAndMetadata> have = current.getOrDefault(group, Map.of());
            Map<TopicPartition, OffsetAndMetadata> changes = new HashMap<>();
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : wanted.get(group).entrySet()) {
                TopicPartition tp = e.getKey();
                OffsetClamp c = OffsetClamp.of(e.getValue().offset(), logStart.get(tp), logEnd.get(tp));
                if (c.clamped()) {
                    t.clamped++;
                    log.debug("{}: group {} {} offset {} clamped to {} ({})", name, group, tp, c.committed(), c.applied(), c.bound());
                }
                OffsetAndMetadata h = have.get(tp);
                if (h == null || h.offset() != c.applied()) {
                    // The leader epoch is the origin cluster's: meaningless on the standby, so it is not copied.
                    changes.put(tp, new OffsetAndMetadata(c.applied(), e.getValue().metadata()));
                }
            }
            if (changes.isEmpty()) {
                t.synced++;
            } else if (write(group, changes)) {
                t.synced++;
                t.written++;
                if (t.writtenGroups.size() < 10) {
                    t.writtenGroups.add(group);
                }
            } else {
                t.skipped++;
            }
        }
    }

    /**
     * The offsets without the partitions the standby lacks, said once per pass with the groups that are not synced there;
     * a group left with no partition drops out of the pass. The other partitions and groups are synced as usual.
     */
    private Map<String, Map<TopicPartition, OffsetAndMetadata>> withoutMissing(Map<String, Map<TopicPartition, OffsetAndMetadata>> wanted,
                                                                               Set<TopicPartition> absent) {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> kept = new java.util.LinkedHashMap<>();
        Map<TopicPartition, java.util.List<String>> affected = new java.util.TreeMap<>(
                java.util.Comparator.comparing(TopicPartition::toString));
        wanted.forEach((group, offsets) -> {
            Map<TopicPartition, OffsetAndMetadata> left = new HashMap<>();
            offsets.forEach((tp, o) -> {
                if (absent.contains(tp)) {
                    affected.computeIfAbsent(tp, k -> new java.util.ArrayList<>()).add(group);
                } else {
                    left.put(tp, o);
                }
            });
            if (!left.isEmpty()) {
                kept.put(group, left);
            }
        });
        java.util.List<String> parts = new java.util.ArrayList<>();
        affected.forEach((tp, groups) -> parts.add(tp + " (group" + (groups.size() == 1 ? " " : "s ")
                + String.join(", ", groups.stream().sorted().limit(10).toList()) + (groups.size() > 10 ? ", ..." : "") + ")"));
        log.warn("{}: partition(s) missing on {}, skipped in this pass of the consumer group sync: {}; the groups' other partitions"
                + " are synced. Create the partition on the standby (or let the restore reach it) and the next pass syncs it",
                name, standbyLabel, String.join("; ", parts));
        return kept;
    }

    /** Commits the group's offsets; false when members joined it since it was checked (the broker refuses then). */
    private boolean write(String group, Map<TopicPartition, OffsetAndMetadata> offsets) throws Exception {
        try {
            standby.alterConsumerGroupOffsets(group, offsets, new AlterConsumerGroupOffsetsOptions().timeoutMs((int) timeout.toMillis()))
                    .all().get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
            log.debug("{}: consumer group {} on {} now at {}", name, group, standbyLabel, describe(offsets));
            return true;
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            if (Failures.isGroupNotEmpty(cause)) {
                log.info("{}: consumer group {} on {} got members while its offsets were being synced: left to them", name, group,
                        standbyLabel);
                return false;
            }
            throw cause instanceof Exception c ? c : e;
        }
    }

    private static String describe(Map<TopicPartition, OffsetAndMetadata> offsets) {
        return offsets.entrySet().stream().sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing(TopicPartition::toString)))
                .map(e -> e.getKey() + "=" + e.getValue().offset()).collect(java.util.stream.Collectors.joining(", "));
    }

    /** The last successful pass (all zeros before the first). */
    public Pass last() {
        return last;
    }

    /** Group commits written to the standby since start. */
    public long writtenTotal() {
        return writtenTotal.get();
    }

    @Override
    public void close() {
        ScheduledExecutorService t;
        synchronized (this) {
            t = timer;
            timer = null;
        }
        if (t != null) {
            t.shutdownNow();
            try {
                t.awaitTermination(timeout.toMillis() + 2000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
