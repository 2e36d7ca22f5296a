package dev.mirrorv3.restore.cli.report;

import dev.mirrorv3.restore.cli.MirrorV3Command;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

    boolean any() {
        return report != null || metricsFile != null || pushgateway != null;
    }

    /** Writes what was asked for; a failure to write is reported and makes the run fail (the evidence is the point). */
    public boolean write(RestoreEvidence evidence, PrintWriter err) {
        if (!any()) {
            return true;
        }
        long now = evidence.nowMs();
        boolean ok = true;
        if (report != null) {
            try {
                RestoreReport r = evidence.report(new MirrorV3Command.Version().getVersion()[0].replace("mirror-v3 ", ""),
                        java.time.Instant.ofEpochMilli(now));
                if (reportFormat == Format.md) {
                    Files.writeString(report, ReportMarkdown.render(r), StandardCharsets.UTF_8);
                } else {
                    r.writeJson(report);
                }
            } catch (IOException e) {
                err.println("error: cannot write the report to " + report + ": " + e.getMessage());
                ok = false;
            }
        }
        String metrics = VerifyMetrics.render(evidence, now);
        if (metricsFile != null) {
            try {
                VerifyMetrics.writeFile(metricsFile, metrics);
            } catch (IOException e) {
                err.println("error: cannot write the metrics file " + metricsFile + ": " + e);
                ok = false;
            }
        }
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
}
