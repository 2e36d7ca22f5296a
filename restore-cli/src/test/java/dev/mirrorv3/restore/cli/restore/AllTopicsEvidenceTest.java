package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.restore.cli.report.RestoreReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code restore --verify-only --all-topics} with {@code --report} and {@code --metrics-file}: one report with an entry per
 * topic and one metrics file with every topic's series, also for the topic that failed, each file written whole. No
 * Kafka needed (docs/restore-cli.md: Restore evidence).
 */
class AllTopicsEvidenceTest extends BackupsDirTestBase {
    /**
     * Connector "backups" backs up orders and payments, each into a destination of its name; payments/1's second object is
     * cut in half (as a copy interrupted by a full disk would leave it). Returns that object's file.
     */
    private Path twoTopicsOneObjectCutInHalf() throws Exception {
        for (String topic : List.of("orders", "payments")) {
            TestBackups.write(root(), topic, 0, 0, TestBackups.records(topic, 0, 0, 299, o -> true), 100);
            TestBackups.write(root(), topic, 1, 0, TestBackups.records(topic, 1, 0, 199, o -> true), 100);
        }
        Path cut = root().resolve("payments/1/" + ObjectName.plain(100, 199, TestBackups.SETTINGS.format()).fileName());
        byte[] whole = Files.readAllBytes(cut);
        cut.toFile().setWritable(true);
        Files.write(cut, Arrays.copyOf(whole, whole.length / 2));
        return cut;
    }

    private Path config() throws Exception {
        Path file = TestBackups.connectorJson(dir, "backups", "orders,payments", root());
        Files.writeString(file, Files.readString(file).replace("\"tasks.max\"", "\"destination.name\":\"${topic}\",\"tasks.max\""));
        return file;
    }

    private CliRun verifyAllTopics(String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("restore", "--connector-config", config().toString(), "--offsets", "preserve",
                "--verify-only", "--all-topics", "--progress", "none"));
        args.addAll(List.of(extra));
        return CliRun.run(args.toArray(String[]::new));
    }

    @Test
    void oneReportAndOneMetricsFileSpeakOfEveryTopicAlsoTheFailedOne() throws Exception {
        Path cut = twoTopicsOneObjectCutInHalf();
        Path report = dir.resolve("verify.json");
        Path metrics = dir.resolve("backups.prom");

        CliRun r = verifyAllTopics("--report", report.toString(), "--metrics-file", metrics.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("orders: ok", "payments: FAILED (exit 1)");
        String text = Files.readString(metrics);
        assertThat(text).as("the metrics file").contains(
                "mirror_v3_backup_verify_success{connector=\"backups\",topic=\"payments\",partition=\"1\"} 0\n",
                "mirror_v3_backup_verify_success{connector=\"backups\",topic=\"orders\",partition=\"1\"} 1\n");
        JsonNode json = RestoreReport.read(report);
        Map<String, JsonNode> topics = new HashMap<>();
        json.path("topics").forEach(t -> topics.put(t.path("topic").asText(), t));
        assertThat(topics).as("the report's topics in\n" + json.toPrettyString()).containsOnlyKeys("orders", "payments");
        assertThat(json.path("result").asText()).isEqualTo("failed");
        assertThat(json.path("mode").asText()).isEqualTo("verify-only");
        assertThat(json.path("connector").asText()).isEqualTo("backups");
        JsonNode orders = topics.get("orders");
        assertThat(orders.path("result").asText()).isEqualTo("ok");
        assertThat(orders.path("exitCode").asInt()).isZero();
        assertThat(orders.at("/report/backup/sourceTopic").asText()).isEqualTo("orders");
        assertThat(orders.at("/report/partitions/1/lastOffset").asLong()).isEqualTo(199);
        assertThat(orders.at("/report/partitions/0/sha256").asText()).hasSize(64);
        JsonNode payments = topics.get("payments");
        assertThat(payments.path("result").asText()).isEqualTo("failed");
        assertThat(payments.path("exitCode").asInt()).isEqualTo(1);
        assertThat(payments.path("error").asText()).contains("partition 1", cut.getFileName().toString());
        assertThat(payments.at("/report/partitions/0/status").asText()).isEqualTo("ok");
        assertThat(payments.at("/report/partitions/1/status").asText()).isEqualTo("failed");
        assertThat(payments.at("/report/partitions/1/error").asText()).contains(cut.getFileName().toString());
        PointInTimeRestoreTest.assertValidAllTopics(report);
        ObjectNode broken = json.deepCopy();
        ((ObjectNode) broken.at("/topics/0/report")).remove("partitions");
        assertThat(PointInTimeRestoreTest.allTopicsSchemaErrors(broken)).as("an entry's report is checked by its own schema")
                .isNotEmpty();

        for (String topic : List.of("orders", "payments")) {
            for (int p = 0; p < 2; p++) {
                boolean ok = !(topic.equals("payments") && p == 1);
                assertThat(text).contains("mirror_v3_backup_verify_success{connector=\"backups\",topic=\"" + topic + "\",partition=\""
                        + p + "\"} " + (ok ? 1 : 0) + "\n");
                assertThat(text).contains("mirror_v3_backup_last_verify_timestamp_seconds{connector=\"backups\",topic=\"" + topic
                        + "\",partition=\"" + p + "\"} ");
            }
        }
        assertThat(text).contains("mirror_v3_backup_verified_offset{connector=\"backups\",topic=\"payments\",partition=\"0\"} 299\n")
                .doesNotContain("mirror_v3_backup_verified_offset{connector=\"backups\",topic=\"payments\",partition=\"1\"}");
        for (String topic : List.of("orders", "payments")) { // each topic's run's own requests to its backup store
            assertThat(text).containsPattern("mirror_v3_store_requests_total\\{mirror=\"backups\",topic=\"" + topic
                    + "\",operation=\"LIST\",outcome=\"ok\"} [1-9]");
        }
        assertOneFamilyEach(text);
    }

    @Test
    void aTopicThatLeftNoEvidenceOfItsOwnIsInTheReportAndFailsInTheMetrics() throws Exception {
        TestBackups.write(root(), "orders", 0, 0, TestBackups.records("orders", 0, 0, 99, o -> true), 100);
        // payments was never backed up: its destination does not exist, so its run fails before any partition is known
        Path report = dir.resolve("verify.json");
        Path metrics = dir.resolve("backups.prom");

        CliRun r = verifyAllTopics("--report", report.toString(), "--metrics-file", metrics.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        JsonNode payments = null;
        for (JsonNode t : RestoreReport.read(report).path("topics")) {
            if (t.path("topic").asText().equals("payments")) {
                payments = t;
            }
        }
        assertThat(payments).as(Files.readString(report)).isNotNull();
        assertThat(payments.path("result").asText()).isEqualTo("failed");
        assertThat(payments.path("error").asText()).contains("holds no partition directories");
        assertThat(payments.path("report").isNull()).isTrue();
        PointInTimeRestoreTest.assertValidAllTopics(report);
        String text = Files.readString(metrics);
        assertThat(text).contains("mirror_v3_backup_verify_success{connector=\"backups\",topic=\"orders\",partition=\"0\"} 1\n",
                "mirror_v3_backup_verify_success{connector=\"backups\",topic=\"payments\"} 0\n",
                "mirror_v3_backup_last_verify_timestamp_seconds{connector=\"backups\",topic=\"payments\"} ")
                .contains("mirror_v3_store_requests_total{mirror=\"backups\",topic=\"orders\",operation=\"GET\",outcome=\"ok\"} ")
                .as("a run that opened no backup made no request")
                .doesNotContain("mirror_v3_store_requests_total{mirror=\"backups\",topic=\"payments\"");
        assertOneFamilyEach(text);
    }

    @Test
    void theMarkdownReportHasATableOfTheTopicsAndEachTopicsSection() throws Exception {
        Path cut = twoTopicsOneObjectCutInHalf();
        Path md = dir.resolve("verify.md");

        CliRun r = verifyAllTopics("--report", md.toString(), "--report-format", "md");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        String page = Files.readString(md);
        assertThat(page).startsWith("# Backup verification of connector backups (2 topics): FAILED\n")
                .contains("| orders | ok |  |\n", "| payments | failed (exit 1) | partition 1: ", cut.getFileName().toString(),
                        "## Backup verification of orders: OK\n", "## Backup verification of payments: FAILED\n",
                        "| 1 | failed: ");
    }

    @Test
    void compareReportComparesTopicByTopicAndATopicOfAnAllTopicsReportWithItsOwnReport() throws Exception {
        for (String topic : List.of("orders", "payments")) {
            TestBackups.write(root(), topic, 0, 0, TestBackups.records(topic, 0, 0, 299, o -> true), 100);
        }
        Path first = dir.resolve("first.json");
        Path second = dir.resolve("second.json");
        assertThat(verifyAllTopics("--report", first.toString()).exitCode()).isZero();
        assertThat(verifyAllTopics("--report", second.toString()).exitCode()).isZero();
        CliRun same = CliRun.run("compare-report", first.toString(), second.toString());
        assertThat(same.exitCode()).as(same.toString()).isZero();
        assertThat(same.out()).contains("same data: orders, 1 partitions, 300 records", "same data: payments, 1 partitions, 300 records");

        Path ordersOnly = dir.resolve("orders.json");
        CliRun one = CliRun.run("restore", "--connector-config", config().toString(), "--source-topic", "orders", "--offsets",
                "preserve", "--verify-only", "--progress", "none", "--report", ordersOnly.toString());
        assertThat(one.exitCode()).as(one.toString()).isZero();
        CliRun ofOrders = CliRun.run("compare-report", ordersOnly.toString(), first.toString());
        assertThat(ofOrders.exitCode()).as(ofOrders.toString()).isZero();
        assertThat(ofOrders.out()).contains("same data: orders, 1 partitions, 300 records").doesNotContain("payments");

        TestBackups.write(root(), "payments", 0, 300, TestBackups.records("payments", 0, 300, 309, o -> true), 100);
        Path grown = dir.resolve("grown.json");
        assertThat(verifyAllTopics("--report", grown.toString()).exitCode()).isZero();
        CliRun different = CliRun.run("compare-report", first.toString(), grown.toString());
        assertThat(different.exitCode()).as(different.toString()).isEqualTo(1);
        assertThat(different.out()).contains("payments: partition 0 lastOffset: 299 vs 309").doesNotContain("orders:");
    }

    /**
     * The report and the metrics file are written whole, a temporary file renamed over the name, never rewritten in place: a
     * reader (the textfile collector, a copy job, a parallel run) sees the old file or the new one. A hard link to the old
     * file keeps the old content only if the name was replaced, not rewritten.
     */
    @Test
    void theReportAndTheMetricsFileReplaceTheOldFilesWhole() throws Exception {
        TestBackups.write(root(), "orders", 0, 0, TestBackups.records("orders", 0, 0, 99, o -> true), 100);
        Path report = dir.resolve("verify.json");
        Path metrics = dir.resolve("orders.prom");
        Path oldReport = Files.writeString(dir.resolve("old-report.json"), "{\"old\": true}\n");
        Path oldMetrics = Files.writeString(dir.resolve("old.prom"), "# old\n");
        Files.createLink(report, oldReport);
        Files.createLink(metrics, oldMetrics);

        CliRun r = CliRun.run("restore", "--connector-config", config().toString(), "--source-topic", "orders", "--offsets",
                "preserve", "--verify-only", "--progress", "none", "--report", report.toString(), "--metrics-file", metrics.toString());

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(RestoreReport.read(report).path("result").asText()).isEqualTo("ok");
        assertThat(Files.readString(metrics)).contains("mirror_v3_backup_verify_success{connector=\"backups\",topic=\"orders\"");
        assertThat(Files.readString(oldReport)).as("the old report's inode, rewritten in place?").isEqualTo("{\"old\": true}\n");
        assertThat(Files.readString(oldMetrics)).as("the old metrics file's inode, rewritten in place?").isEqualTo("# old\n");
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("no temporary file left").noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    /**
     * The text format as Prometheus' parsers take it: each family's HELP and TYPE once, before its samples, and its samples
     * together (the textfile collector refuses a second TYPE line of a family).
     */
    static void assertOneFamilyEach(String text) {
        List<String> families = new ArrayList<>();
        String current = null;
        for (String line : text.lines().toList()) {
            if (line.startsWith("# TYPE ")) {
                current = line.split(" ")[2];
                assertThat(families).as("a second TYPE line of " + current + " in\n" + text).doesNotContain(current);
                families.add(current);
            } else if (!line.startsWith("#")) {
                assertThat(line).as("a sample outside its family in\n" + text).startsWith(current + "{");
            }
        }
        assertThat(families).containsExactly("mirror_v3_backup_verified_offset", "mirror_v3_backup_last_verify_timestamp_seconds",
                "mirror_v3_backup_verify_success", "mirror_v3_store_requests_total");
    }
}
