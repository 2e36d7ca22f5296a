package dev.mirrorv3.restore.cli.prune;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mirrorv3.chain.Version;
import dev.mirrorv3.chain.prune.MetaPrune;
import dev.mirrorv3.chain.prune.PartitionPrune;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/**
 * The JSON summary of a prune run ({@code --report}), described by {@code config/schemas/prune-report.schema.json}: per
 * partition what went and what stayed, and the same for the {@code _meta/} snapshots.
 */
final class PruneReport {
    static final int VERSION = 1;

    private PruneReport() {
    }

    /**
     * @param kind {@code chain}, or {@code snapshots} for a compaction=log backup
     * @param meta what happened to the _meta/ snapshots; null when they were left ({@code --partition})
     */
    static String json(String connector, String topic, String kind, boolean dryRun, Instant cut, List<PartitionPrune> results,
            MetaPrune meta) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("report_version", VERSION).put("tool", "mirror-v3").put("tool_version", Version.get())
                .put("created_at", Instant.now().toString());
        root.put("connector", connector).put("topic", topic).put("kind", kind).put("dry_run", dryRun).put("cut", cut.toString());
        ArrayNode partitions = root.putArray("partitions");
        for (PartitionPrune r : results) {
            ObjectNode p = partitions.addObject().put("partition", r.partition());
            if (r.newStart().isPresent()) {
                p.put("new_start", r.newStart().getAsLong());
            }
            ArrayNode removed = p.putArray("removed");
            r.removed().forEach(o -> removed.addObject().put("object", o.name().fileName()).put("bytes", o.bytes()));
            ArrayNode locked = p.putArray("locked");
            r.locked().forEach(l -> locked.addObject().put("object", l.name().fileName()).put("reason", l.reason()));
            p.put("kept_objects", r.keptObjects()).put("kept_bytes", r.keptBytes());
        }
        if (meta == null) {
            root.putNull("meta");
        } else {
            ObjectNode m = root.putObject("meta");
            ArrayNode removed = m.putArray("removed");
            meta.removed().forEach(o -> removed.addObject().put("dir", o.dir()).put("object", o.name().fileName()).put("bytes", o.bytes()));
            ArrayNode locked = m.putArray("locked");
            meta.locked().forEach(l -> locked.addObject().put("dir", l.dir()).put("object", l.name().fileName()).put("reason", l.reason()));
            m.put("kept_objects", meta.kept());
        }
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    }
}
