package dev.mirrorv3.restore.cli.report;

import dev.mirrorv3.chain.restore.PartitionCut;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.restore.VerifiedPartition;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.restore.GroupRestorer;
import dev.mirrorv3.kafka.restore.RestoreResult;
import dev.mirrorv3.kafka.restore.SnapshotRestorer;
import dev.mirrorv3.restore.cli.Backup;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** Collects what a restore run learns, partition by partition, for its report and metrics. */
public final class RestoreEvidence {
    private final Request request;
    private final Clock clock;
    private final Instant started;
    private final Map<Integer, VerifiedPartition> verified = new TreeMap<>();
    private final Map<Integer, SnapshotRestorer.Verified> snapshots = new TreeMap<>();
    private final Map<Integer, String> failed = new TreeMap<>();
    private long verifyMs;
    private Long restoreMs;
    private RestoreReport.Target target;
    private Map<Integer, Long> produced;
    private String error;
    private String groupSnapshot;
    private List<RestoreReport.GroupOffset> groupOffsets = List.of();
    private List<RestoreReport.GroupWithoutOffset> groupsWithoutOffset = List.of();
    private List<RestoreReport.GroupSkipped> groupsSkipped = List.of();

    /**
     * What the run was asked for.
     *
     * @param offsets --offsets as spelled on the command line
     */
    public record Request(Backup backup, String offsets, RestoreCut cut, boolean verifyOnly) {
    }

    public RestoreEvidence(Request request, Clock clock) {
        this.request = request;
        this.clock = clock;
        this.started = clock.instant();
    }

    /** The restore's clock now: the time the report and the metrics are stamped with. */
    long nowMs() {
        return clock.millis();
    }

    public void verified(VerifiedPartition vp) {
        verified.put(vp.partition(), vp);
    }

    /** A compaction=log backup's partition: its chosen snapshot, checked. */
    public void verified(SnapshotRestorer.Verified v) {
        snapshots.put(v.partition(), v);
    }

    /** The partition cannot be restored; the first reason counts. */
    public void failed(int partition, String why) {
        failed.putIfAbsent(partition, why);
    }

    public void verifyDuration(long ms) {
        verifyMs = ms;
    }

    public void restored(String topic, String bootstrapServers, RestoreResult result) {
        target = new RestoreReport.Target(topic, bootstrapServers);
        produced = result.recordsPerPartition();
        restoreMs = result.elapsedMs();
    }

    /**
     * The consumer-group offsets committed after the records, the snapshot they came from, and the restored partitions on
     * which a selected group had no offset in it.
     */
    public void groupsCommitted(String snapshotLocation, List<GroupRestorer.Row> rows, Map<Integer, java.util.Set<String>> withoutOffset) {
        groupSnapshot = snapshotLocation;
        groupsWithoutOffset = new ArrayList<>();
        withoutOffset.forEach((p, groups) -> groups.forEach(g -> groupsWithoutOffset.add(new RestoreReport.GroupWithoutOffset(g, p))));
        groupOffsets = rows.stream().map(r -> new RestoreReport.GroupOffset(r.group(), r.partition(), r.applied(), r.backedUp(),
                switch (r.bound()) {
                    case NONE -> "no";
                    case LOG_START -> "log-start";
                    case LOG_END -> "high-watermark";
                })).toList();
    }

    /** The groups --groups selected that are skipped, being only in snapshots of another topic of the same name. */
    public void groupsSkipped(List<GroupRestorer.Skipped> skipped) {
        groupsSkipped = skipped.stream().map(g -> new RestoreReport.GroupSkipped(g.group(), g.snapshot(), g.topicId(), g.reason()))
                .toList();
    }

    /** The restore failed after the verify pass (the target's checks or the produce pass). */
    public void restoreFailed(String topic, String bootstrapServers, Throwable e) {
        target = new RestoreReport.Target(topic, bootstrapServers);
        error = Failures.describe(e);
    }

    public boolean ok() {
        return failed.isEmpty() && error == null;
    }

    public Map<Integer, VerifiedPartition> verified() {
        return verified;
    }

    public Map<Integer, String> failed() {
        return failed;
    }

    public Instant started() {
        return started;
    }

    public Backup backup() {
        return request.backup();
    }

    public RestoreReport report(String toolVersion, Instant now) {
        List<RestoreReport.Partition> partitions = new ArrayList<>();
        SortedSet<Integer> all = new TreeSet<>(verified.keySet());
        all.addAll(snapshots.keySet());
        all.addAll(failed.keySet());
        for (int p : all) {
            VerifiedPartition vp = verified.get(p);
            String why = failed.get(p);
            SnapshotRestorer.Verified sv = snapshots.get(p);
            if (sv != null) {
                Long after = produced == null ? null : produced.get(p);
                // one object, one record per key in key order: no holes to count, and the state is as of the snapshot's end
                partitions.add(new RestoreReport.Partition(p, why == null ? "ok" : "failed", why, sv.location(), 1, sv.keys(), null,
                        null, sv.snapshot().to(), time(sv.maxTimestampMs()), null, null, sv.sha256(), after == null ? null : 0L, after,
                        sv.snapshot().toString()));
                continue;
            }
            if (vp == null) {
                partitions.add(new RestoreReport.Partition(p, "failed", why, null, null, null, null, null, null, null, null, null, null,
                        null, null, null));
                continue;
            }
            PartitionCut c = vp.cut();
            boolean excluded = c.firstExcludedOffset() >= 0;
            Long after = produced == null ? null : produced.get(p);
            partitions.add(new RestoreReport.Partition(p, why == null ? "ok" : "failed", why, vp.location(), vp.objects().size(),
                    vp.records(), vp.holes(), vp.firstOffset(), vp.lastOffset(), time(c.lastTimestampMs()),
                    excluded ? c.firstExcludedOffset() : null, excluded ? time(c.firstExcludedTimestampMs()) : null, c.sha256(),
                    after == null ? null : 0L, after, null)); // the restore requires an empty target (high watermark 0) and checks it after
        }
        RestoreReport.Cut reportCut = null;
        RestoreCut cut = request.cut();
        Backup backup = request.backup();
        if (!cut.isNone()) {
            Map<String, Long> until = new TreeMap<>();
            cut.untilOffsets().forEach((p, o) -> until.put(Integer.toString(p), o));
            reportCut = new RestoreReport.Cut(time(cut.untilTimestampMs()), until);
        }
        String location = !verified.isEmpty() ? verified.values().iterator().next().location().replaceAll("/[0-9]+$", "")
                : !snapshots.isEmpty() ? snapshots.values().iterator().next().location().replaceAll("/[0-9]+$", "") : null;
        RestoreReport.BackupInfo backupInfo = new RestoreReport.BackupInfo(location, backup.connector().name(), backup.destinationName(),
                backup.sourceTopic());
        return new RestoreReport(RestoreReport.VERSION, "mirror-v3", toolVersion, now.toString(),
                request.verifyOnly() ? "verify-only" : "restore", ok() ? "ok" : "failed", error, backupInfo, request.offsets(), reportCut,
                target, new RestoreReport.Durations(verifyMs, restoreMs), partitions, RestoreReport.RECORDS_DIGEST, groupSnapshot,
                groupOffsets, groupsWithoutOffset, groupsSkipped);
    }

    private static String time(Long ms) {
        return ms == null ? null : Instant.ofEpochMilli(ms).toString();
    }
}
