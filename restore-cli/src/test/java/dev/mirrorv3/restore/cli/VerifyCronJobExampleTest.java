package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.ParseResult;

/**
 * examples/kubernetes/verify-cronjob.yaml runs a read-only verify that the CLI accepts as it is written there, and that
 * verifies a real backup and pushes its result when run with the connector JSON its ConfigMap holds. CliArchiveIT runs
 * the same arguments through the image's entrypoint on the unpacked CLI archive.
 */
class VerifyCronJobExampleTest {
    @TempDir
    Path dir;

    @Test
    void theCronJobsArgumentsAreAVerifyOnlyRunThatReportsItsResult() throws Exception {
        JsonNode container = VerifyCronJob.container();
        assertThat(container.has("command")).as("the CronJob's args are the whole command line: the image's ENTRYPOINT "
                + "(docker/Dockerfile) is the CLI archive's bin/mirror-v3").isFalse();
        List<String> args = VerifyCronJob.args(container);
        ParseResult parsed = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), null)
                .parseArgs(args.toArray(String[]::new));
        ParseResult restore = parsed.subcommand();
        assertThat(restore.commandSpec().name()).isEqualTo("restore");
        assertThat(restore.hasMatchedOption("--verify-only")).isTrue();
        assertThat(restore.hasMatchedOption("--pushgateway") || restore.hasMatchedOption("--metrics-file")).isTrue();
        assertThat(restore.hasMatchedOption("--bootstrap-servers")).as("verify never touches Kafka").isFalse();
        assertThat(container.path("securityContext").path("readOnlyRootFilesystem").asBoolean()).isTrue();
    }

    /**
     * The CronJob's exact arguments, its mounts mapped to temp directories and its Pushgateway to an in-test server, verify
     * a filesystem backup of the connector its ConfigMap names (examples/blob-sink-s3.json with the destination switched to
     * the filesystem), push the result and write the report: exit 0.
     */
    @Test
    void theCronJobsArgumentsVerifyABackupAndPushTheResult() throws Exception {
        try (VerifyCronJob.Pushgateway pushgateway = new VerifyCronJob.Pushgateway()) {
            VerifyCronJob.Run cronJob = VerifyCronJob.prepare(dir, pushgateway.url());

            CliRun r = CliRun.run(cronJob.args().toArray(String[]::new));

            assertThat(r.exitCode()).as("the CronJob's run " + cronJob.args() + "\n" + r).isZero();
            assertVerifiedAndPushed(cronJob, r.out(), pushgateway.requests());
        }
    }

    /** What a successful run of the CronJob prints, pushes and reports (also for CliArchiveIT's run of it). */
    static void assertVerifiedAndPushed(VerifyCronJob.Run cronJob, String out, List<String> requests) throws Exception {
        String name = cronJob.connector();
        String topic = cronJob.topic();
        assertThat(out).contains("(connector " + name + ", destination " + name + ")", "offsets: 0-799", "offsets: 0-199",
                "total: 2 partitions, ");
        assertThat(requests).hasSize(1);
        assertThat(requests.get(0)).startsWith("PUT /metrics/job@base64/").contains(
                "mirror_v3_backup_verify_success{connector=\"" + name + "\",topic=\"" + topic + "\",partition=\"0\"} 1\n",
                "mirror_v3_backup_verified_offset{connector=\"" + name + "\",topic=\"" + topic + "\",partition=\"1\"} 199\n");
        assertThat(new ObjectMapper().readTree(cronJob.report().toFile()).toString()).contains("\"" + name + "\"");
    }
}
