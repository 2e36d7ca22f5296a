package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.ConnectorConfigEndpoint;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.restore.cli.report.RestoreReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code restore --verify-only}, usage and help: no Kafka needed. */
class RestoreVerifyTest extends BackupsDirTestBase {
    private Path config() throws Exception {
        return TestBackups.connectorJson(dir, "orders-backup", "orders", root());
    }

    @Test
    void helpListsSubcommandsAndExitCodes() {
        CliRun top = CliRun.run("--help");
        assertThat(top.exitCode()).as(top.toString()).isZero();
        assertThat(top.out()).contains("restore", "status", "Exit codes:", "2  usage");
        CliRun restore = CliRun.run("restore", "--help");
        assertThat(restore.exitCode()).isZero();
        assertThat(restore.out()).contains("--offsets", "--verify-only", "--chain-start", "--partition", "--original-offset-header",
                "--accept-retention", "--accept-log-append-time", "--connector-config", "--connect-url", "--bootstrap-servers",
                "--command-config", "Examples:");
        assertThat(restore.out()).contains("${env:…}, ${file:…} and ${directory:…}").doesNotContain("null");
        assertThat(CliRun.run("status", "--help").out()).contains("--format", "table|json");
    }

    @Test
    void usageErrorsExitTwo() throws Exception {
        Path config = config();
        assertThat(CliRun.run().exitCode()).isEqualTo(2); // no subcommand
        assertThat(CliRun.run("restore", "--connector-config", config.toString(), "--verify-only").exitCode()).isEqualTo(2); // no --offsets
        assertThat(CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "sideways").exitCode()).isEqualTo(2);
        CliRun noTarget = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "preserve");
        assertThat(noTarget.exitCode()).isEqualTo(2);
        assertThat(noTarget.err()).contains("--bootstrap-servers and --topic");
        assertThat(CliRun.run("restore", "--offsets", "preserve", "--verify-only").exitCode()).isEqualTo(2); // no backup
        Path noRoot = dir.resolve("noroot.json");
        Files.writeString(noRoot, "{\"name\":\"x\",\"config\":{\"topics\":\"orders\"}}");
        CliRun bad = CliRun.run("restore", "--connector-config", noRoot.toString(), "--offsets", "preserve", "--verify-only");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(2);
        assertThat(bad.err()).contains("filesystem.root is required");
    }

    @Test
    void verifyOnlyPrintsSummaryPerPartitionAndTotal() throws Exception {
        TestBackups.write(root(), "orders-backup", 0, 0, TestBackups.records("orders", 0, 0, 2499, o -> true), 1000);
        // partition 1: a hole at every offset divisible by 10 except 0... and the last present
        TestBackups.write(root(), "orders-backup", 1, 0, TestBackups.records("orders", 1, 0, 1199, o -> o % 10 != 3), 500);
        CliRun r = CliRun.run("restore", "--connector-config", config().toString(), "--offsets", "renumber", "--verify-only");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        Path p0 = root().resolve("orders-backup").resolve("0");
        Path p1 = root().resolve("orders-backup").resolve("1");
        assertThat(r.out()).contains(
                "backup: " + p0 + " (connector orders-backup, destination orders-backup)\n"
                        + "source: orders/0\nobjects: 3\noffsets: 0-2499\nrecords: 2500\nholes: 0\n",
                "backup: " + p1 + " (connector orders-backup, destination orders-backup)\n"
                        + "source: orders/1\nobjects: 3\noffsets: 0-1199\nrecords: 1080\nholes: 120\n",
                "total: 2 partitions, 6 objects, 3580 records, 120 holes");
    }

    @Test
    void preserveWithAHoleIsRefusedNamingTheFirstHole() throws Exception {
        TestBackups.write(root(), "orders-backup", 0, 0, TestBackups.records("orders", 0, 0, 999, o -> o != 417 && o != 800), 300);
        CliRun r = CliRun.run("restore", "--connector-config", config().toString(), "--offsets", "preserve", "--verify-only");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("holes: 2");
        assertThat(r.err()).contains("the first hole is at offset 417", "use --offsets renumber");
        CliRun renumber = CliRun.run("restore", "--connector-config", config().toString(), "--offsets", "renumber", "--verify-only");
        assertThat(renumber.exitCode()).as(renumber.toString()).isZero();
    }

    @Test
    void aChainStartingAfterZeroNeedsChainStartAndCannotBePreserved() throws Exception {
        TestBackups.write(root(), "orders-backup", 0, 500, TestBackups.records("orders", 0, 500, 1499, o -> true), 400);
        String config = config().toString();
        CliRun r = CliRun.run("restore", "--connector-config", config, "--offsets", "renumber", "--verify-only");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        // written as an earlier version wrote it (no manifest, no start record): refused as before the start rule
        assertThat(r.err()).contains("starts at offset 500", "not at 0; if objects before it were removed on purpose, pass"
                + " --chain-start 500");
        CliRun allowed = CliRun.run("restore", "--connector-config", config, "--offsets", "renumber", "--verify-only",
                "--chain-start", "500");
        assertThat(allowed.exitCode()).as(allowed.toString()).isZero();
        assertThat(allowed.out()).contains("offsets: 500-1499", "records: 1000", "holes: 0");
        CliRun preserve = CliRun.run("restore", "--connector-config", config, "--offsets", "preserve", "--verify-only",
                "--chain-start", "500");
        assertThat(preserve.exitCode()).isEqualTo(1);
        assertThat(preserve.err()).contains("the first hole is at offset 0", "offsets 0-499 are in no object");
    }

    @Test
    void corruptObjectsAreNamed() throws Exception {
        String config = config().toString();
        Path p0 = root().resolve("orders-backup").resolve("0");
        List<ObjectName> names = TestBackups.write(root(), "orders-backup", 0, 0, TestBackups.records("orders", 0, 0, 299, o -> true), 100);

        // truncated
        byte[] original = Files.readAllBytes(p0.resolve(names.get(1).fileName()));
        Files.write(p0.resolve(names.get(1).fileName()), java.util.Arrays.copyOf(original, original.length / 2));
        assertVerifyFails(config, names.get(1).fileName(), "cannot be read");
        Files.write(p0.resolve(names.get(1).fileName()), original);

        // renamed to a wrong range: 100-199 -> 100-249, 200-299 moved out of the way to 250-299
        Path o2 = p0.resolve(names.get(2).fileName());
        Path moved2 = dir.resolve("moved");
        Files.move(o2, moved2);
        ObjectName wrong = ObjectName.plain(100, 249, names.get(1).format());
        Files.move(p0.resolve(names.get(1).fileName()), p0.resolve(wrong.fileName()));
        Files.copy(moved2, p0.resolve(ObjectName.plain(250, 299, wrong.format()).fileName()));
        assertVerifyFails(config, wrong.fileName(), "its last record has offset 199, and its name says 249");
        Files.move(p0.resolve(wrong.fileName()), p0.resolve(names.get(1).fileName()));
        Files.delete(p0.resolve(ObjectName.plain(250, 299, wrong.format()).fileName()));
        Files.move(moved2, o2);

        // a gap: the middle object missing
        Files.move(p0.resolve(names.get(1).fileName()), dir.resolve("middle"));
        assertVerifyFails(config, names.get(2).fileName(), "gap in the chain", "offsets 100-199 are in no object");
        Files.move(dir.resolve("middle"), p0.resolve(names.get(1).fileName()));

        // another topic's records under a right name
        List<BackupRecord> other = TestBackups.records("payments", 0, 300, 399, o -> true);
        TestBackups.write(dir.resolve("other"), "x", 0, 300, other, 100);
        Files.copy(dir.resolve("other/x/0").resolve(ObjectName.plain(300, 399, wrong.format()).fileName()),
                p0.resolve(ObjectName.plain(300, 399, wrong.format()).fileName()));
        assertVerifyFails(config, "00000000000000000300-00000000000000000399.parquet", "record at offset 300 is from payments/0",
                "this backup is of orders/0");
    }

    @Test
    void aPartitionThatFailsItsVerifyIsReportedBesideTheOnesThatPassed() throws Exception {
        TestBackups.write(root(), "orders-backup", 0, 0, TestBackups.records("orders", 0, 0, 199, o -> true), 100);
        List<ObjectName> p1 = TestBackups.write(root(), "orders-backup", 1, 0, TestBackups.records("orders", 1, 0, 199, o -> true), 100);
        TestBackups.write(root(), "orders-backup", 2, 0, TestBackups.records("orders", 2, 0, 99, o -> true), 100);
        Path broken = root().resolve("orders-backup").resolve("1").resolve(p1.get(1).fileName());
        byte[] original = Files.readAllBytes(broken);
        Files.write(broken, java.util.Arrays.copyOf(original, original.length / 2));
        Path json = dir.resolve("report.json");
        CliRun r = CliRun.run("restore", "--connector-config", config().toString(), "--offsets", "preserve", "--verify-only",
                "--report", json.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("source: orders/0\n", "source: orders/2\n", "total: 2 partitions, 3 objects, 300 records, 0 holes")
                .doesNotContain("source: orders/1\n");
        assertThat(r.err()).contains("error: partition 1: ", p1.get(1).fileName(), "cannot be read");
        com.fasterxml.jackson.databind.JsonNode partitions = RestoreReport.read(json).path("partitions");
        assertThat(partitions).hasSize(3);
        for (int p = 0; p < 3; p++) {
            assertThat(partitions.get(p).path("partition").asInt()).isEqualTo(p);
            assertThat(partitions.get(p).path("status").asText()).isEqualTo(p == 1 ? "failed" : "ok");
        }
        assertThat(partitions.get(1).path("error").asText()).contains(p1.get(1).fileName());
    }

    private static void assertVerifyFails(String config, String... expected) {
        CliRun r = CliRun.run("restore", "--connector-config", config, "--offsets", "renumber", "--verify-only");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains(expected);
    }

    @Test
    void configProvidersAreResolvedAsAWorkerWould() throws Exception {
        TestBackups.write(root(), "env-backup", 0, 0, TestBackups.records("orders", 0, 0, 99, o -> true), 100);
        Path props = dir.resolve("secrets.properties");
        Files.writeString(props, "root=" + root() + "\n");
        Path topicDir = dir.resolve("topicdir");
        Files.createDirectories(topicDir);
        Files.writeString(topicDir.resolve("topic"), "orders");
        Path flat = dir.resolve("flat.json");
        // a flat map, as PUT /connectors/<name>/config takes it; MIRROR_V3_TEST_DEST=env-backup is set by the pom
        Files.writeString(flat, "{\"topics\":\"${directory:" + topicDir + ":topic}\",\"filesystem.root\":\"${file:" + props + ":root}\","
                + "\"destination.name\":\"${env:MIRROR_V3_TEST_DEST}\"}");
        CliRun r = CliRun.run("restore", "--connector-config", flat.toString(), "--connector", "whatever", "--offsets", "preserve",
                "--verify-only");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("backup: " + root().resolve("env-backup/0") + " (connector whatever, destination env-backup)",
                "source: orders/0", "records: 100");
        CliRun noName = CliRun.run("restore", "--connector-config", flat.toString(), "--offsets", "preserve", "--verify-only");
        assertThat(noName.exitCode()).isEqualTo(2);
        assertThat(noName.err()).contains("pass --connector NAME");
    }

    @Test
    void connectUrlReadsTheConfigThroughTheRestApiAndProgressBarsGoToStderr() throws Exception {
        TestBackups.write(root(), "rest-backup", 0, 0, TestBackups.records("orders", 0, 0, 199, o -> true), 100);
        byte[] body = ("{\"topics\":\"orders\",\"filesystem.root\":\"" + root() + "\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (ConnectorConfigEndpoint server = ConnectorConfigEndpoint.serving("rest-backup", body)) {
            String url = server.url();
            CliRun r = CliRun.run("restore", "--connect-url", url, "--connector", "rest-backup", "--offsets", "preserve", "--verify-only",
                    "--progress", "bar");
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).contains("(connector rest-backup, destination rest-backup)", "records: 200");
            assertThat(r.err()).contains("] verify total: 200 records", "records/s");
            CliRun missing = CliRun.run("restore", "--connect-url", url, "--connector", "nope", "--offsets", "preserve", "--verify-only");
            assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(2);
            assertThat(missing.err()).contains("connector nope does not exist");
            CliRun noName = CliRun.run("restore", "--connect-url", url, "--offsets", "preserve", "--verify-only");
            assertThat(noName.exitCode()).isEqualTo(2);
            assertThat(noName.err()).contains("--connect-url needs --connector NAME");
        }
    }
}
