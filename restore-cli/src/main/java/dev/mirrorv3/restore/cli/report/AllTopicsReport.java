package dev.mirrorv3.restore.cli.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The evidence of {@code restore --all-topics} ({@code --report}): one entry per topic of the connector, each with the
 * report its topic's restore would write alone ({@link RestoreReport}), or none when that run failed before it knew a
 * partition. {@code config/schemas/restore-report-all-topics.schema.json} describes it; {@code compare-report} compares
 * it topic by topic.
 *
 * @param mode verify-only or restore
 * @param result ok when every topic's run exited 0
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AllTopicsReport(int reportVersion, String tool, String toolVersion, String createdAt, String mode, String result,
        String connector, List<Topic> topics) {

    /**
     * One topic's run.
     *
     * @param exitCode the run's exit code (docs/restore-cli.md: Conventions and exit codes)
     * @param error the run's error lines, or null when it exited 0
     * @param report its report, or null when it failed before it knew a partition (a topic never backed up)
     */
    public record Topic(String topic, String result, int exitCode, String error, RestoreReport report) {
    }
}
