package dev.mirrorv3.kafka.groupsync;

import dev.mirrorv3.kafka.metrics.PluginMetricsRegistry;
import dev.mirrorv3.kafka.metrics.RegistrySeries;
import java.util.function.LongSupplier;

/**
 * A group sync's series on the connector's registry (tag {@code mirror}; the MBean has no task), mapped by
 * {@code config/jmx-exporter.yaml} to {@code mirror_v3_groups_*}.
 */
public final class GroupSyncMetrics extends RegistrySeries {
    /**
     * @param metrics the connector's registry; closing this closes it
     * @param intervalMs groups.interval.ms, exported so that the alert on a sync that stopped scales with it
     */
    public GroupSyncMetrics(PluginMetricsRegistry metrics, GroupOffsetSync sync, long intervalMs) {
        super(metrics);
        register("groups-synced", "Consumer groups whose offsets on the standby equal the origin's (clamped) at the last sync",
                () -> sync.last().synced());
        register("groups-skipped", "Consumer groups not synced at the last sync because they are active on the standby",
                () -> sync.last().skipped());
        register("group-offsets-clamped", "Group offsets clamped into the standby partition's range at the last sync",
                () -> sync.last().clamped());
        register("group-partitions-missing", "Partitions the last sync skipped because they do not exist on the standby (yet)",
                () -> sync.last().missingPartitions());
        register("group-commits-total", "Group offset commits written to the standby", sync::writtenTotal);
        register("groups-sync-timestamp-seconds", "Unix time (seconds) of the last successful group sync; 0 before the first",
                () -> sync.last().atMs() / 1000);
        register("groups-sync-interval-ms", "groups.interval.ms: how often the group sync runs", () -> intervalMs);
    }

    /** Registers one more series under the same tags (the chain source adds the time of the snapshot it synced from). */
    public void register(String name, String doc, LongSupplier value) {
        metrics.gauge(name, doc, value);
    }
}
