package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
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

    /**
     * examples/kubernetes/verify-all-topics-cronjob.yaml's exact arguments verify both topics of
     * examples/blob-sink-several-topics.json's backup: each topic pushed under its own grouping key, one report with an
     * entry per topic. With one object of payments cut in half the run exits 1, and the report and payments' push say so.
     */
    @Test
    void theAllTopicsCronJobsArgumentsVerifyEveryTopicAndReportEachOne() throws Exception {
        JsonNode container = VerifyCronJob.container(VerifyCronJob.ALL_TOPICS_FILE);
        assertThat(container.has("command")).as("the image's ENTRYPOINT is bin/mirror-v3").isFalse();
        assertThat(container.path("securityContext").path("readOnlyRootFilesystem").asBoolean()).isTrue();
        try (VerifyCronJob.Pushgateway pushgateway = new VerifyCronJob.Pushgateway()) {
            VerifyCronJob.AllTopicsRun cronJob = VerifyCronJob.prepareAllTopics(dir, pushgateway.url());
            writeBackups(cronJob);

            CliRun r = CliRun.run(cronJob.args().toArray(String[]::new));

            assertThat(r.exitCode()).as("the CronJob's run " + cronJob.args() + "\n" + r).isZero();
            assertAllTopicsVerifiedAndPushed(cronJob, r.out(), pushgateway.requests(), null);
        }
    }

    @Test
    void theAllTopicsCronJobReportsTheTopicThatFailed() throws Exception {
        try (VerifyCronJob.Pushgateway pushgateway = new VerifyCronJob.Pushgateway()) {
            VerifyCronJob.AllTopicsRun cronJob = VerifyCronJob.prepareAllTopics(dir, pushgateway.url());
            writeBackups(cronJob);
            String failing = cronJob.topics().get(cronJob.topics().size() - 1);
            Path object;
            try (var files = Files.list(cronJob.root().resolve(failing).resolve("0"))) {
                object = files.sorted().toList().get(1);
            }
            byte[] whole = Files.readAllBytes(object);
            object.toFile().setWritable(true);
            Files.write(object, Arrays.copyOf(whole, whole.length / 2));

            CliRun r = CliRun.run(cronJob.args().toArray(String[]::new));

            assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
            assertAllTopicsVerifiedAndPushed(cronJob, r.out(), pushgateway.requests(), failing);
            JsonNode entry = new ObjectMapper().readTree(cronJob.report().toFile()).path("topics")
                    .get(cronJob.topics().indexOf(failing));
            assertThat(entry.path("error").asText()).contains("partition 0", object.getFileName().toString());
        }
    }

    /** 300 records in partition 0 of each topic of the all-topics CronJob's connector, in objects of 100. */
    private static void writeBackups(VerifyCronJob.AllTopicsRun cronJob) {
        for (String topic : cronJob.topics()) {
            TestBackups.write(cronJob.root(), topic, 0, 0, TestBackups.records(topic, 0, 0, 299, o -> true), 100); // ${topic}
        }
    }

    /**
     * What a run of the all-topics CronJob prints, pushes and reports: every topic, each pushed under its own grouping key;
     * {@code failed} (or none) the topic whose partition 0 did not verify.
     */
    static void assertAllTopicsVerifiedAndPushed(VerifyCronJob.AllTopicsRun cronJob, String out, List<String> requests, String failed)
            throws Exception {
        String name = cronJob.connector();
        assertThat(cronJob.topics()).hasSizeGreaterThan(1);
        assertThat(requests).hasSize(cronJob.topics().size());
        JsonNode report = new ObjectMapper().readTree(cronJob.report().toFile());
        assertThat(report.path("connector").asText()).isEqualTo(name);
        assertThat(report.path("result").asText()).isEqualTo(failed == null ? "ok" : "failed");
        for (int i = 0; i < cronJob.topics().size(); i++) {
            String topic = cronJob.topics().get(i);
            boolean ok = !topic.equals(failed);
            assertThat(out).contains("=== " + topic, topic + ": " + (ok ? "ok" : "FAILED (exit 1)"));
            String group = "/topic@base64/" + Base64.getUrlEncoder().encodeToString(topic.getBytes(StandardCharsets.UTF_8)) + "\n";
            assertThat(requests).as("the push of " + topic).filteredOn(q -> q.startsWith("PUT /metrics/job@base64/")
                    && q.contains(group)).singleElement().asString()
                    .contains("mirror_v3_backup_verify_success{connector=\"" + name + "\",topic=\"" + topic + "\",partition=\"0\"} "
                            + (ok ? 1 : 0) + "\n");
            JsonNode entry = report.path("topics").get(i);
            assertThat(entry.path("topic").asText()).isEqualTo(topic);
            assertThat(entry.path("result").asText()).isEqualTo(ok ? "ok" : "failed");
            assertThat(entry.at("/report/partitions/0/records").asLong()).isEqualTo(ok ? 300 : 0);
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
