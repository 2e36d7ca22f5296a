package dev.mirrorv3.restore.cli.restore;

import dev.mirrorv3.chain.restore.PartitionCut;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.restore.VerifiedPartition;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Point-in-time restore: where the restored prefix of each partition ends (docs/restore-cli.md: Point-in-time restore). */
final class CutOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--until-timestamp", paramLabel = "TIME", description = {"""
            Restore, per partition, the longest prefix whose records are all stamped at or before TIME (ISO-8601 with an \
            offset, or epoch ms). A late-stamped record ends the prefix before it; the summary shows where.""",
            "e.g. --until-timestamp 2026-11-30T14:02:00Z"})
    String untilTimestamp;

    @Option(names = "--until-offset", paramLabel = "PARTITION:OFFSET", description = {"""
            Restore the partition up to and including this backup offset (repeatable; without --until-timestamp every \
            restored partition needs one).""", "e.g. --until-offset 0:41999 --until-offset 1:40210"})
    List<String> untilOffsets = new ArrayList<>();

    /** The cut for the restored partitions; a usage error when an option is malformed or does not fit the partitions. */
    RestoreCut cut(List<Integer> partitions) {
        Long ts = null;
        Map<Integer, Long> offsets;
        try {
            if (untilTimestamp != null) {
                ts = RestoreCut.parseTimestamp(untilTimestamp);
            }
            offsets = RestoreCut.parseOffsets(untilOffsets);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--until-timestamp/--until-offset: " + e.getMessage());
        }
        for (int p : offsets.keySet()) {
            if (!partitions.contains(p)) {
                throw new ParameterException(spec.commandLine(), "--until-offset " + p + ":" + offsets.get(p) + ": partition " + p
                        + " is not restored (restored: " + partitions + ")");
            }
        }
        if (ts == null && !offsets.isEmpty()) {
            List<Integer> missing = partitions.stream().filter(p -> !offsets.containsKey(p)).toList();
            if (!missing.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--until-offset names no offset for partitions " + missing
                        + ": give one for each restored partition, or restore one with --partition");
            }
        }
        return new RestoreCut(ts, offsets);
    }

    /** The summary's cut line: where the prefix ends and the first record left out, so a late-stamped record surprises nobody. */
    static void printCut(PrintWriter out, VerifiedPartition vp) {
        PartitionCut c = vp.cut();
        if (c == null || c.requested() == null) {
            return;
        }
        out.println("cut: " + c.requested() + ": up to offset " + c.lastOffset() + " (last restored record stamped "
                + time(c.lastTimestampMs()) + "); " + (c.firstExcludedOffset() < 0 ? "no record after it was read"
                : "first excluded: offset " + c.firstExcludedOffset() + " stamped " + time(c.firstExcludedTimestampMs())));
    }

    static String time(Long ms) {
        return ms == null ? "-" : Instant.ofEpochMilli(ms).toString();
    }
}
