package dev.mirrorv3.kafka.groupsync;

import dev.mirrorv3.kafka.PluginGauges;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.PluginMetrics;

/**
 * A group sync's gauges through Connect's plugin metrics of the connector (tag {@code mirror}; the MBean has no task),
 * mapped by {@code config/jmx-exporter.yaml} to {@code mirror_v3_groups_*}.
 */
public final class GroupSyncMetrics implements AutoCloseable {
    public static final String SYNCED = "groups-synced";
    public static final String SKIPPED = "groups-skipped";
    public static final String CLAMPED = "group-offsets-clamped";
    public static final String COMMITS_TOTAL = "group-commits-total";
    public static final String SYNC_TIMESTAMP = "groups-sync-timestamp-seconds";

    private final PluginMetrics metrics;
    private final List<MetricName> names = new ArrayList<>();
    private final LinkedHashMap<String, String> tags = new LinkedHashMap<>();

    /** @param metrics the connector's plugin metrics, or null (a runtime without them: nothing is registered) */
    public GroupSyncMetrics(PluginMetrics metrics, String mirror, GroupOffsetSync sync) {
        this.metrics = metrics;
        tags.put("mirror", mirror);
        if (metrics == null) {
            return;
        }
        register(SYNCED, "Consumer groups whose offsets on the standby equal the origin's (clamped) at the last sync",
                () -> sync.last().synced());
        register(SKIPPED, "Consumer groups not synced at the last sync because they are active on the standby", () -> sync.last().skipped());
        register(CLAMPED, "Group offsets clamped into the standby partition's range at the last sync", () -> sync.last().clamped());
        register(COMMITS_TOTAL, "Group offset commits written to the standby", sync::writtenTotal);
        register(SYNC_TIMESTAMP, "Unix time (seconds) of the last successful group sync; 0 before the first", () -> sync.last().atMs() / 1000);
    }

    /** Registers one more gauge under the same tags (the chain source adds the time of the snapshot it synced from). */
    public void register(String name, String doc, LongSupplier value) {
        if (metrics == null) {
            return;
        }
        MetricName mn = metrics.metricName(name, doc, tags);
        PluginGauges.add(metrics, mn, value);
        names.add(mn);
    }

    @Override
    public void close() {
        if (metrics != null) {
            names.forEach(n -> PluginGauges.remove(metrics, n));
        }
        names.clear();
    }
}
