package dev.mirrorv3.restore.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mirrorv3.restore.cli.ExitCodes;
import dev.mirrorv3.restore.cli.UsageException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mirror-v3 compare-report}: do two restore/verify reports describe the same data? */
@Command(name = "compare-report",
        mixinStandardHelpOptions = true,
        description = {"Compares two JSON reports of restore --report (a restore drill and the verify run of the week before, two"
                + " restores of one cut): the same data when both are of the same topic, have the same partitions, and each"
                + " partition the same first and last offset, record count and SHA-256 of its records. Where, when and how fast"
                + " they ran does not matter. Reports of restore --all-topics are compared topic by topic (with a report of one"
                + " topic, its entry of that topic)."},
        footerHeading = "%nExamples:%n",
        footer = {"  mirror-v3 compare-report verify-2026-11-23.json drill-2026-11-30.json",
                "",
                "Exit codes: 0 the same data, 1 different data (each difference listed) or a failed run, 2 usage or unreadable report."})
public final class CompareReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A.json", description = "A report written by restore --report (--report-format json).")
    Path a;

    @Parameters(index = "1", paramLabel = "B.json", description = "Another one.")
    Path b;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        JsonNode ra = read(a);
        JsonNode rb = read(b);
        List<String> same = new ArrayList<>();
        List<String> differences = new ArrayList<>();
        if (!ra.has("topics") && !rb.has("topics")) {
            compareTopic(ra, rb, "", same, differences);
        } else {
            // an --all-topics report topic by topic; against a report of one topic, its entry of that topic
            Map<String, JsonNode> ta = byTopic(ra);
            Map<String, JsonNode> tb = byTopic(rb);
            Set<String> topics = new TreeSet<>(ra.has("topics") ? tb.keySet() : ta.keySet()); // the one topic's, if either is
            if (ra.has("topics") && rb.has("topics")) {
                topics.addAll(ta.keySet());
            }
            for (String t : topics) {
                if (!ta.containsKey(t) || !tb.containsKey(t)) {
                    differences.add(t + ": no report of it in " + (ta.containsKey(t) ? b : a));
                } else {
                    compareTopic(ta.get(t), tb.get(t), t + ": ", same, differences);
                }
            }
        }
        same.forEach(out::println);
        if (differences.isEmpty()) {
            out.flush();
            return ExitCodes.OK;
        }
        out.println("different data (" + a + " vs " + b + "):");
        differences.forEach(d -> out.println("  " + d));
        out.flush();
        return ExitCodes.CHECK_FAILED;
    }

    /** Two reports of one topic: its line in {@code same}, or each difference (prefixed) in {@code differences}. */
    private void compareTopic(JsonNode ra, JsonNode rb, String prefix, List<String> same, List<String> differences) {
        int before = differences.size();
        compare(differences, prefix + "source topic", ra.path("backup").path("sourceTopic"), rb.path("backup").path("sourceTopic"));
        for (Path p : List.of(a, b)) {
            JsonNode r = p == a ? ra : rb;
            if (!"ok".equals(r.path("result").asText())) {
                differences.add(prefix + p + " is of a run that failed (" + r.path("error").asText("a partition failed") + ")");
            }
        }
        Map<Integer, JsonNode> pa = partitions(ra);
        Map<Integer, JsonNode> pb = partitions(rb);
        if (!pa.keySet().equals(pb.keySet())) {
            differences.add(prefix + "partitions: " + pa.keySet() + " in " + a + ", " + pb.keySet() + " in " + b);
        }
        long records = 0;
        for (Map.Entry<Integer, JsonNode> e : pa.entrySet()) {
            JsonNode x = e.getValue();
            JsonNode y = pb.get(e.getKey());
            if (y == null) {
                continue;
            }
            for (String field : List.of("firstOffset", "lastOffset", "records", "sha256")) {
                compare(differences, prefix + "partition " + e.getKey() + " " + field, x.path(field), y.path(field));
            }
            records += x.path("records").asLong();
        }
        if (differences.size() == before) {
            same.add("same data: " + ra.path("backup").path("sourceTopic").asText() + ", " + pa.size() + " partitions, " + records
                    + " records, every partition's offsets and SHA-256 equal");
        }
    }

    /**
     * The topics' reports of an --all-topics report ({@link AllTopicsReport}); a topic whose run left no report stands as a
     * failed report with its error. A report of one topic is that topic's.
     */
    private static Map<String, JsonNode> byTopic(JsonNode report) {
        Map<String, JsonNode> out = new TreeMap<>();
        if (!report.has("topics")) {
            out.put(report.path("backup").path("sourceTopic").asText(), report);
            return out;
        }
        for (JsonNode t : report.path("topics")) {
            JsonNode r = t.path("report");
            if (r.isObject()) {
                out.put(t.path("topic").asText(), r);
            } else {
                ObjectNode failed = RestoreReport.JSON.createObjectNode().put("result", "failed").put("error", t.path("error").asText());
                failed.putObject("backup").put("sourceTopic", t.path("topic").asText());
                out.put(t.path("topic").asText(), failed);
            }
        }
        return out;
    }

    private static void compare(List<String> differences, String what, JsonNode x, JsonNode y) {
        if (!Objects.equals(x, y)) {
            differences.add(what + ": " + text(x) + " vs " + text(y));
        }
    }

    private static String text(JsonNode n) {
        return n.isMissingNode() || n.isNull() ? "none" : n.asText();
    }

    private static Map<Integer, JsonNode> partitions(JsonNode report) {
        Map<Integer, JsonNode> out = new TreeMap<>();
        for (JsonNode p : report.path("partitions")) {
            out.put(p.path("partition").asInt(), p);
        }
        return out;
    }

    private static JsonNode read(Path file) {
        JsonNode r;
        try {
            r = RestoreReport.read(file);
        } catch (IOException e) {
            throw new UsageException("cannot read report " + file + ": " + e.getMessage());
        }
        if (!(r.path("partitions").isArray() || r.path("topics").isArray()) || !r.path("reportVersion").isInt()) {
            throw new UsageException(file + " is not a JSON report of restore --report (no reportVersion, or neither partitions nor"
                    + " topics); a --report-format md page cannot be compared");
        }
        return r;
    }
}
