package dev.mirrorv3.restore.cli.prune;

import dev.mirrorv3.chain.prune.MetaPrune;
import dev.mirrorv3.chain.prune.PartitionPrune;
import java.util.List;

/**
 * The metrics file of a prune run: removed and kept objects and bytes of the chains (or compaction=log snapshots) and the
 * _meta/ snapshots, for a textfile collector or a Pushgateway.
 */
final class PruneMetrics {
    private PruneMetrics() {
    }

    /** @param meta null when _meta/ was left ({@code --partition}): its gauges are then not written */
    static String text(String connector, String topic, boolean dryRun, List<PartitionPrune> results, MetaPrune meta) {
        String labels = "{connector=\"" + connector + "\",topic=\"" + topic + "\",dry_run=\"" + dryRun + "\"}";
        StringBuilder s = new StringBuilder();
        gauge(s, "mirror_v3_prune_removed_objects", "Objects prune removed (would remove, in a dry run)", labels,
                results.stream().mapToLong(r -> r.removed().size()).sum());
        gauge(s, "mirror_v3_prune_removed_bytes", "Bytes of the objects prune removed", labels,
                results.stream().mapToLong(PartitionPrune::removedBytes).sum());
        gauge(s, "mirror_v3_prune_kept_objects", "Objects the chains still hold", labels,
                results.stream().mapToLong(PartitionPrune::keptObjects).sum());
        gauge(s, "mirror_v3_prune_kept_bytes", "Bytes of the objects the chains still hold", labels,
                results.stream().mapToLong(PartitionPrune::keptBytes).sum());
        gauge(s, "mirror_v3_prune_locked_objects", "Objects left under an Object Lock retention", labels,
                results.stream().mapToLong(r -> r.locked().size()).sum());
        if (meta != null) {
            gauge(s, "mirror_v3_prune_meta_removed_objects", "_meta/ snapshots prune removed (would remove, in a dry run)", labels,
                    meta.removed().size());
            gauge(s, "mirror_v3_prune_meta_removed_bytes", "Bytes of the _meta/ snapshots prune removed", labels, meta.removedBytes());
            gauge(s, "mirror_v3_prune_meta_kept_objects", "_meta/ snapshots kept", labels, meta.kept());
            gauge(s, "mirror_v3_prune_meta_locked_objects", "_meta/ snapshots left under an Object Lock retention", labels,
                    meta.locked().size());
        }
        return s.toString();
    }

    private static void gauge(StringBuilder s, String name, String help, String labels, long value) {
        s.append("# HELP ").append(name).append(' ').append(help).append('\n').append("# TYPE ").append(name).append(" gauge\n")
                .append(name).append(labels).append(' ').append(value).append('\n');
    }
}
