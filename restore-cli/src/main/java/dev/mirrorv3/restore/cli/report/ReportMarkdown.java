package dev.mirrorv3.restore.cli.report;

import java.util.Locale;
import java.util.Objects;

/** {@code --report-format md}: the report as a short page for an audit ticket. */
public final class ReportMarkdown {
    private ReportMarkdown() {
    }

    private static final String COMPARE = "\nCompare with another run: `mirror-v3 compare-report` on the two JSON reports (same"
            + " records in the same order, same digests).\n";

    /** The page: the heading and facts, the partitions' table, the groups' offsets and warnings, how to compare. */
    public static String render(RestoreReport r) {
        StringBuilder md = new StringBuilder();
        topic(md, "# ", r);
        return md.append(COMPARE).toString();
    }

    /** {@code restore --all-topics}: a table of the topics' results, then each topic's section as {@link #render} writes it. */
    public static String renderAll(AllTopicsReport r) {
        StringBuilder md = new StringBuilder();
        md.append("# Backup ").append(kind(r.mode())).append(" of connector ").append(r.connector()).append(" (").append(r.topics().size())
                .append(" topics): ").append(r.result().toUpperCase(Locale.ROOT)).append("\n\n")
                .append("- Written ").append(r.createdAt()).append(" by ").append(r.tool()).append(" ").append(r.toolVersion())
                .append("\n\n| topic | result | error |\n|---|---|---|\n");
        for (AllTopicsReport.Topic t : r.topics()) {
            md.append("| ").append(t.topic()).append(" | ").append(t.exitCode() == 0 ? "ok" : "failed (exit " + t.exitCode() + ")")
                    .append(" | ").append(t.error() == null ? "" : cell(t.error())).append(" |\n");
        }
        for (AllTopicsReport.Topic t : r.topics()) {
            md.append('\n');
            if (t.report() == null) {
                md.append("## ").append(t.topic()).append(": no report (its run failed before it read a partition)\n");
            } else {
                topic(md, "## ", t.report());
            }
        }
        return md.append(COMPARE).toString();
    }

    private static void topic(StringBuilder md, String level, RestoreReport r) {
        heading(md, level, r);
        partitions(md, r);
        groups(md, r);
    }

    private static String kind(String mode) {
        return mode.equals("restore") ? "restore" : "verification";
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    private static void heading(StringBuilder md, String level, RestoreReport r) {
        md.append(level).append("Backup ").append(kind(r.mode())).append(" of ")
                .append(r.backup().sourceTopic()).append(": ").append(r.result().toUpperCase(Locale.ROOT)).append("\n\n");
        md.append("- Backup: `").append(r.backup().location()).append("` (connector `").append(r.backup().connector())
                .append("`, destination `").append(r.backup().destinationName()).append("`)\n");
        md.append("- Offsets: ").append(r.offsets()).append("\n");
        if (r.cut() != null) {
            md.append("- Cut: ").append(r.cut().untilTimestamp() == null ? "" : "until timestamp " + r.cut().untilTimestamp() + " ")
                    .append(r.cut().untilOffsets().isEmpty() ? "" : "until offsets " + r.cut().untilOffsets()).append("\n");
        }
        if (r.target() != null) {
            md.append("- Target: topic `").append(r.target().topic()).append("` on `").append(r.target().bootstrapServers()).append("`\n");
        }
        md.append("- Durations: verify ").append(r.durationsMs().verify()).append(" ms")
                .append(r.durationsMs().restore() == null ? "" : ", restore " + r.durationsMs().restore() + " ms").append("\n");
        md.append("- Written ").append(r.createdAt()).append(" by ").append(r.tool()).append(" ").append(r.toolVersion()).append("\n");
        if (r.error() != null) {
            md.append("- Error: ").append(r.error()).append("\n");
        }
    }

    private static void partitions(StringBuilder md, RestoreReport r) {
        md.append("\n| partition | status | objects | records | holes | offsets | last restored record | first excluded | target HW"
                + " before → after | SHA-256 of the records as backed up |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (RestoreReport.Partition p : r.partitions()) {
            if (p.error() != null && p.records() == null) {
                md.append("| ").append(p.partition()).append(" | failed: ").append(cell(p.error()))
                        .append(" | | | | | | | | |\n");
                continue;
            }
            md.append("| ").append(p.partition()).append(" | ").append(p.status()).append(p.error() == null ? "" : ": "
                    + cell(p.error()))
                    .append(" | ").append(p.snapshot() != null ? "snapshot " + p.snapshot() : p.objects())
                    .append(" | ").append(p.records()).append(" | ").append(p.holes() == null ? "-" : p.holes())
                    .append(" | ").append(p.snapshot() != null ? "state up to " + p.lastOffset() : p.firstOffset() + "–" + p.lastOffset())
                    .append(" | ").append(Objects.toString(p.lastTimestamp(), "-"))
                    .append(" | ").append(p.firstExcludedOffset() == null ? "-" : p.firstExcludedOffset() + " @ "
                            + Objects.toString(p.firstExcludedTimestamp(), "-"))
                    .append(" | ").append(p.targetHighWatermarkAfter() == null ? "-" : p.targetHighWatermarkBefore() + " → "
                            + p.targetHighWatermarkAfter())
                    .append(" | `").append(p.sha256()).append("` |\n");
        }
    }

    private static void groups(StringBuilder md, RestoreReport r) {
        if (!r.groupOffsets().isEmpty()) {
            md.append("\nConsumer-group offsets committed (snapshot `").append(r.groupSnapshot()).append("`):\n\n")
                    .append("| group | partition | backed up | applied | clamped |\n|---|---|---|---|---|\n");
            for (RestoreReport.GroupOffset g : r.groupOffsets()) {
                md.append("| ").append(g.group()).append(" | ").append(g.partition()).append(" | ").append(g.backedUpOffset())
                        .append(" | ").append(g.offset()).append(" | ").append(g.clamped()).append(" |\n");
            }
        }
        if (!r.groupsWithoutOffset().isEmpty()) {
            md.append("\n**Warning:** selected groups without an offset on a restored partition in the snapshot (nothing committed;"
                    + " their consumers start from auto.offset.reset):");
            r.groupsWithoutOffset().forEach(g -> md.append(' ').append(g.group()).append(" on partition ").append(g.partition())
                    .append(';'));
            md.setLength(md.length() - 1);
            md.append(".\n");
        }
        if (!r.groupsSkipped().isEmpty()) {
            md.append("\n**Warning:** selected groups not restored:");
            r.groupsSkipped().forEach(g -> md.append(' ').append(g.group()).append(" (").append(g.reason()).append(");"));
            md.setLength(md.length() - 1);
            md.append(".\n");
        }
    }
}
