package dev.mirrorv3.restore.cli.report;

import dev.mirrorv3.chain.Version;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/** Evidence of a restore or verify run: the report file and the verify metrics (docs/restore-cli.md: Restore evidence). */
public final class ReportOptions {
    enum Format { json, md }

    @Option(names = "--report", paramLabel = "FILE",
            description = {"Write the run's report here: the backup, per partition the objects, records, holes, offsets, cut and a"
                    + " SHA-256 of the restored records, the target's high watermarks, durations, tool version and time. Written"
                    + " also when a check fails.", "e.g. --report drill-2026-11-30.json"})
    Path report;

    @Option(names = "--report-format", paramLabel = "json|md", defaultValue = "json",
            description = "json (config/schemas/restore-report.schema.json; compare-report reads it) or md (a short page for an"
                    + " audit ticket). Default ${DEFAULT-VALUE}.")
    Format reportFormat;

    @Option(names = "--metrics-file", paramLabel = "FILE",
            description = {"Write mirror_v3_backup_verified_offset, mirror_v3_backup_last_verify_timestamp_seconds and"
                    + " mirror_v3_backup_verify_success per partition in node-exporter's textfile format (a *.prom file in its"
                    + " --collector.textfile.directory).", "e.g. --metrics-file /var/lib/node-exporter/orders-backup.prom"})
    Path metricsFile;

    @Option(names = "--pushgateway", paramLabel = "URL",
            description = {"Push the same metrics to this Prometheus Pushgateway (job mirror-v3-verify, grouped by connector and"
                    + " topic; each run replaces the last).", "e.g. --pushgateway http://pushgateway:9091"})
    String pushgateway;

    /** --all-topics: each topic's evidence goes to the one report and metrics file written for all of them. */
    private Consumer<RestoreEvidence> collector;

    boolean any() {
        return report != null || metricsFile != null || pushgateway != null || collector != null;
    }

    /**
     * This run is one topic of {@code restore --all-topics}: its evidence is handed to {@code collector} (which writes one
     * report and one metrics file for every topic) as well as pushed with {@code --pushgateway}, grouped by topic.
     */
    public void collectInto(Consumer<RestoreEvidence> collector) {
        this.collector = collector;
    }

    /** The options that name one file for the whole run, which each topic's run of --all-topics must not write. */
    public static boolean namesAFileForTheWholeRun(String option) {
        return List.of("--report", "--report-format", "--metrics-file").contains(option);
    }

    /** Writes what was asked for; a failure to write is reported and makes the run fail (the evidence is the point). */
    public boolean write(RestoreEvidence evidence, PrintWriter err) {
        if (!any()) {
            return true;
        }
        if (collector != null) {
            collector.accept(evidence);
        }
        long now = evidence.nowMs();
        String metrics = VerifyMetrics.render(evidence, now);
        boolean ok = writeReport(() -> evidence.report(toolVersion(), Instant.ofEpochMilli(now)), ReportMarkdown::render, err)
                & writeMetrics(metrics, err);
        if (pushgateway != null) {
            try {
                VerifyMetrics.push(pushgateway, "mirror-v3-verify", evidence.backup().connector().name(),
                        evidence.backup().sourceTopic(), metrics, Duration.ofSeconds(15));
            } catch (IOException | IllegalArgumentException e) {
                err.println("error: cannot push the verify metrics to " + pushgateway + ": " + e.getMessage());
                ok = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ok = false;
            }
        }
        err.flush();
        return ok;
    }

    /**
     * {@code restore --all-topics}: one report with an entry per topic and one metrics file with every topic's series,
     * the topics whose run left no evidence included (docs/restore-cli.md: Restore evidence).
     *
     * @param mode verify-only or restore
     */
    public boolean writeAll(String connector, String mode, List<TopicRun> runs, Instant now, PrintWriter err) {
        List<VerifyMetrics.Topic> series = runs.stream().map(t -> new VerifyMetrics.Topic(connector, t.topic(), t.evidence())).toList();
        boolean ok = writeReport(() -> allTopicsReport(connector, mode, runs, now), ReportMarkdown::renderAll, err)
                & writeMetrics(VerifyMetrics.render(series, now.toEpochMilli()), err);
        err.flush();
        return ok;
    }

    private static AllTopicsReport allTopicsReport(String connector, String mode, List<TopicRun> runs, Instant now) {
        String version = toolVersion();
        List<AllTopicsReport.Topic> topics = runs.stream().map(t -> new AllTopicsReport.Topic(t.topic(), t.exitCode() == 0 ? "ok"
                : "failed", t.exitCode(), t.error(), t.evidence() == null ? null : t.evidence().report(version, now))).toList();
        return new AllTopicsReport(RestoreReport.VERSION, "mirror-v3", version, now.toString(), mode,
                topics.stream().allMatch(t -> t.exitCode() == 0) ? "ok" : "failed", connector, topics);
    }

    private <R> boolean writeReport(Supplier<R> build, Function<R, String> markdown, PrintWriter err) {
        if (report == null) {
            return true;
        }
        try {
            R r = build.get();
            AtomicFiles.write(report, reportFormat == Format.md ? markdown.apply(r) : RestoreReport.JSON.writeValueAsString(r));
            return true;
        } catch (IOException e) {
            err.println("error: cannot write the report to " + report + ": " + e.getMessage());
            return false;
        }
    }

    private boolean writeMetrics(String metrics, PrintWriter err) {
        if (metricsFile == null) {
            return true;
        }
        try {
            AtomicFiles.write(metricsFile, metrics);
            return true;
        } catch (IOException e) {
            err.println("error: cannot write the metrics file " + metricsFile + ": " + e);
            return false;
        }
    }

    private static String toolVersion() {
        return Version.get();
    }
}
