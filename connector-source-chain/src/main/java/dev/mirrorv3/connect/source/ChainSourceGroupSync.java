package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.config.GroupSyncConfigFragment;
import dev.mirrorv3.kafka.groups.GroupSelection;
import dev.mirrorv3.kafka.groupsync.GroupOffsetSync;
import dev.mirrorv3.kafka.groupsync.GroupSyncMetrics;
import dev.mirrorv3.kafka.groupsync.RunningGroupSync;
import dev.mirrorv3.kafka.metrics.PluginMetricsRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.connector.ConnectorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chain source's consumer-group sync (groups.sync): the groups of the backup's newest group snapshot
 * ({@code _meta/groups/}, written by the blob sink; with until.timestamp/until.offset the newest one at or before the
 * cut, {@link RestoreCut#admitsGroupSnapshot}; never one of another topic of the same name,
 * {@link MetaSnapshots#groupsOfBackup}) committed on the target, each offset clamped into what the target
 * holds: its log start up to its high watermark, i.e. what this connector has restored so far. With offsets=preserve
 * only: the restored records keep their offsets, so the backed-up positions mean the same on the target. One per
 * connector, on the connector's own thread and admin client, off the tasks' path.
 */
final class ChainSourceGroupSync implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChainSourceGroupSync.class);
    static final String SNAPSHOT_TIMESTAMP = "groups-snapshot-timestamp-seconds";
    static final String RENUMBER_REFUSED = GroupSyncConfigFragment.GROUPS_SYNC + "=true needs " + ChainSourceConfig.OFFSETS
            + "=preserve: with renumbered offsets the backed-up group positions would point at other records on the target. Set "
            + GroupSyncConfigFragment.GROUPS_SYNC + "=false (and translate the groups once with mirror-v3 restore --offsets"
            + " renumber --groups), or follow with offsets=preserve";

    private final RunningGroupSync running;

    private ChainSourceGroupSync(RunningGroupSync running) {
        this.running = running;
    }

    static ChainSourceGroupSync start(ChainSourceConfig config, String name, ConnectorContext context, Clock clock) {
        Store store = config.openStore();
        Admin target = Admin.create(config.targetClientConfig());
        SnapshotOrigin origin = new SnapshotOrigin(new MetaSnapshots(store, ObjectEncryption.readOnly(config.keys())), config, name);
        GroupOffsetSync sync = new GroupOffsetSync(origin, GroupSyncConfigFragment.selection(config, List.of()), target,
                "target " + ChainSourceConfig.targetBootstrap(config.originalsStrings()), null,
                new GroupOffsetSync.Settings(name, config.adminTimeout(), clock));
        GroupSyncMetrics metrics = new GroupSyncMetrics(PluginMetricsRegistry.open(() -> context.pluginMetrics(), name), sync,
                config.groupsIntervalMs());
        metrics.register(SNAPSHOT_TIMESTAMP, "Unix time (seconds) of the backup's group snapshot the last sync used; 0 before the first",
                () -> origin.snapshotTimeMs / 1000);
        return new ChainSourceGroupSync(RunningGroupSync.start(sync, metrics, config.groupsIntervalMs(),
                () -> target.close(Duration.ofSeconds(5)), store::close));
    }

    @Override
    public void close() {
        running.close();
    }

    /** The newest group snapshot's offsets on the followed partitions, keyed by their target partitions. */
    static final class SnapshotOrigin implements GroupOffsetSync.Origin {
        private final MetaSnapshots snapshots;
        private final ChainSourceConfig config;
        private final String name;
        /** A standby frozen at a cut syncs the positions as they were at it: never a snapshot taken after it. */
        private final RestoreCut cut;
        volatile long snapshotTimeMs;
        private boolean toldNone;
        private String toldSkipped;

        SnapshotOrigin(MetaSnapshots snapshots, ChainSourceConfig config, String name) {
            this.snapshots = snapshots;
            this.config = config;
            this.name = name;
            this.cut = config.configuredCut();
        }

        @Override
        public Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets(GroupSelection selection) {
            MetaSnapshots.GroupChoice choice = snapshots.groupsOfBackup(t -> cut.untilTimestampMs() == null || t <= cut.untilTimestampMs(),
                    g -> cut.admitsGroupSnapshot(g.timeMs(), g.chainNextOffsets()));
            tellSkipped(choice);
            Optional<MetaSnapshots.Stored<GroupSnapshot>> newest = choice.chosen();
            if (newest.isEmpty()) {
                if (!toldNone) {
                    log.info("{}: no consumer-group snapshot in {} yet{} (the blob sink writes them with groups snapshots on):"
                            + " nothing to sync", name, snapshots.location(MetaSnapshots.GROUPS_DIR),
                            cut.isNone() ? "" : " that fits the cut (" + cut.groupSnapshotRule() + ")");
                    toldNone = true;
                }
                return Map.of();
            }
            GroupSnapshot s = newest.get().snapshot();
            if (s.timeMs() != snapshotTimeMs) {
                log.info("{}: syncing consumer groups from {} ({} group(s), taken at {})", name, newest.get().location(), s.groups().size(),
                        java.time.Instant.ofEpochMilli(s.timeMs()));
            }
            toldNone = false;
            Set<Integer> followed = config.partitions().isEmpty() ? null : Set.copyOf(config.partitions());
            Map<String, Map<TopicPartition, OffsetAndMetadata>> out = new LinkedHashMap<>();
            s.groups().forEach((group, offsets) -> {
                if (!selection.selected(group)) {
                    return;
                }
                Map<TopicPartition, OffsetAndMetadata> mapped = new HashMap<>();
                offsets.forEach((p, o) -> {
                    if (followed == null || followed.contains(p)) {
                        mapped.put(new TopicPartition(config.targetTopic(), config.targetPartition(p)),
                                new OffsetAndMetadata(o.offset(), o.metadata()));
                    }
                });
                if (!mapped.isEmpty()) {
                    out.put(group, mapped);
                }
            });
            snapshotTimeMs = s.timeMs();
            return out;
        }

        /** Snapshots of another topic of the same name than the backup's are never synced; said once per newest one. */
        private void tellSkipped(MetaSnapshots.GroupChoice choice) {
            if (!choice.skipped().isEmpty() && !choice.skipped().get(0).location().equals(toldSkipped)) {
                MetaSnapshots.Stored<GroupSnapshot> g = choice.skipped().get(0);
                log.warn("{}: not syncing consumer groups from {} and {} other newer snapshot(s): they record topic id {}, and the"
                        + " backup holds the topic with id {} ({} was deleted and created again, and their positions are the new"
                        + " topic's){}", name, g.location(), choice.skipped().size() - 1, g.snapshot().topicId(), choice.backupTopicId(),
                        g.snapshot().topic(), choice.chosen().map(c -> "; syncing from " + c.location()).orElse(""));
                toldSkipped = g.location();
            }
        }
    }
}
