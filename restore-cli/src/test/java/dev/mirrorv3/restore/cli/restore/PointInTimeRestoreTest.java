package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.restore.cli.report.RestoreReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code restore --verify-only} with a cut and a report, and {@code compare-report}: no Kafka needed. */
class PointInTimeRestoreTest {
    static final Path SCHEMA = Path.of("..", "config", "schemas", "restore-report.schema.json");
    /** The report of restore --all-topics: an entry per topic, each holding a report of {@link #SCHEMA}. */
    static final Path ALL_TOPICS_SCHEMA = Path.of("..", "config", "schemas", "restore-report-all-topics.schema.json");

    @TempDir
    Path dir;

    private Path root() {
        return dir.resolve("backups");
    }

    private String config() throws Exception {
        return TestBackups.connectorJson(dir, "orders-backup", "orders", root()).toString();
    }

    private CliRun verify(String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("restore", "--connector-config", config(), "--verify-only", "--progress", "none"));
        if (!List.of(extra).contains("--offsets")) {
            args.addAll(List.of("--offsets", "preserve"));
        }
        args.addAll(List.of(extra));
        return CliRun.run(args.toArray(String[]::new));
    }

    /** Records 0..2499 stamped BASE_TS + offset, except a late-stamped one at 1500 (a producer's clock a day ahead). */
    private static List<BackupRecord> withLateRecord(TimestampType type) {
        List<BackupRecord> out = new ArrayList<>();
        for (BackupRecord r : TestBackups.records("orders", 0, 0, 2499, o -> true)) {
            long ts = r.offset() == 1500 && type == TimestampType.CREATE_TIME ? TestBackups.BASE_TS + 86_400_000L : r.timestampMs();
            out.add(new BackupRecord(r.topic(), r.partition(), r.offset(), ts, type, r.key(), r.value(), r.headers()));
        }
        return out;
    }

    private static String iso(long offset) {
        return Instant.ofEpochMilli(TestBackups.BASE_TS + offset).toString();
    }

    @Test
    void createTimeCutEndsBeforeALateStampedRecordAndSaysWhere() throws Exception {
        TestBackups.write(root(), "orders-backup", 0, 0, withLateRecord(TimestampType.CREATE_TIME), 1000);
        CliRun r = verify("--until-timestamp", iso(2000));
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("offsets: 0-1499\nrecords: 1500\nholes: 0\n",
                "cut: until timestamp " + iso(2000) + ": up to offset 1499 (last restored record stamped " + iso(1499)
                        + "); first excluded: offset 1500 stamped " + Instant.ofEpochMilli(TestBackups.BASE_TS + 86_400_000L));
        assertThat(r.out()).contains("objects: 2");
    }

    @Test
    void logAppendTimeCutsExactlyAndEpochMillisWork() throws Exception {
        TestBackups.write(root(), "orders-backup", 0, 0, withLateRecord(TimestampType.LOG_APPEND_TIME), 1000);
        CliRun r = verify("--until-timestamp", Long.toString(TestBackups.BASE_TS + 1234));
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("offsets: 0-1234\nrecords: 1235\n", "first excluded: offset 1235 stamped " + iso(1235));
    }

    @Test
    void aCutBeforeTheFirstRecordRestoresNothingAndOneAfterTheLastEverything() throws Exception {
        TestBackups.write(root(), "orders-backup", 0, 0, withLateRecord(TimestampType.LOG_APPEND_TIME), 1000);
        CliRun before = verify("--until-timestamp", iso(-1));
        assertThat(before.exitCode()).as(before.toString()).isEqualTo(1);
        assertThat(before.err()).contains("nothing to restore until timestamp " + iso(-1), "first record (offset 0, timestamp " + iso(0),
                "pick a later cut");
        CliRun after = verify("--until-timestamp", iso(1_000_000));
        assertThat(after.exitCode()).as(after.toString()).isZero();
        assertThat(after.out()).contains("offsets: 0-2499\nrecords: 2500\n", "up to offset 2499", "no record after it was read");
    }

    @Test
    void offsetCutsInsideAnObjectOnAHoleAndPastTheEnd() throws Exception {
        TestBackups.write(root(), "orders-backup", 0, 0, TestBackups.records("orders", 0, 0, 2499, o -> o != 417), 1000);
        CliRun inside = verify("--offsets", "renumber", "--until-offset", "0:1234");
        assertThat(inside.exitCode()).as(inside.toString()).isZero();
        assertThat(inside.out()).contains("objects: 2\noffsets: 0-1234\nrecords: 1234\nholes: 1\n", "until offset 1234: up to offset 1234");

        CliRun onHole = verify("--offsets", "renumber", "--until-offset", "0:417");
        assertThat(onHole.exitCode()).as(onHole.toString()).isZero();
        assertThat(onHole.out()).contains("offsets: 0-416\nrecords: 417\nholes: 0\n", "first excluded: offset 418");
        CliRun preserveBeforeHole = verify("--until-offset", "0:416");
        assertThat(preserveBeforeHole.exitCode()).as("preserve restores the prefix before the hole: " + preserveBeforeHole).isZero();

        CliRun past = verify("--offsets", "renumber", "--until-offset", "0:2500");
        assertThat(past.exitCode()).as(past.toString()).isEqualTo(1);
        assertThat(past.err()).contains("--until-offset 0:2500 is past the chain's end, offset 2499", "give at most 0:2499");
    }

    @Test
    void cutOptionsThatDoNotFitArUsageErrors() throws Exception {
        TestBackups.write(root(), "orders-backup", 0, 0, TestBackups.records("orders", 0, 0, 99, o -> true), 100);
        TestBackups.write(root(), "orders-backup", 1, 0, TestBackups.records("orders", 1, 0, 99, o -> true), 100);
        CliRun missing = verify("--until-offset", "0:50");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(2);
        assertThat(missing.err()).contains("no offset for partitions [1]");
        CliRun notRestored = verify("--partition", "0", "--until-offset", "1:50");
        assertThat(notRestored.exitCode()).isEqualTo(2);
        assertThat(notRestored.err()).contains("partition 1 is not restored");
        CliRun badTime = verify("--until-timestamp", "yesterday");
        assertThat(badTime.exitCode()).isEqualTo(2);
        assertThat(badTime.err()).contains("'yesterday' is neither epoch milliseconds nor an ISO-8601 time");
        CliRun both = verify("--partition", "0", "--until-offset", "0:60", "--until-timestamp", iso(40));
        assertThat(both.exitCode()).as(both.toString()).isZero();
        assertThat(both.out()).contains("offsets: 0-40\n");
    }

    @Test
    void reportsOfTheSameDataHaveTheSameDigestsAndOneChangedByteChangesThem() throws Exception {
        List<BackupRecord> records = TestBackups.records("orders", 0, 0, 1999, o -> true);
        List<ObjectName> names = TestBackups.write(root(), "orders-backup", 0, 0, records, 700);
        TestBackups.write(root(), "orders-backup", 1, 0, TestBackups.records("orders", 1, 0, 499, o -> true), 700);
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        Path renumbered = dir.resolve("renumbered.json");
        assertThat(verify("--until-timestamp", iso(1500), "--report", a.toString()).exitCode()).isZero();
        assertThat(verify("--until-timestamp", iso(1500), "--report", b.toString()).exitCode()).isZero();
        assertThat(verify("--offsets", "renumber", "--until-timestamp", iso(1500), "--report", renumbered.toString()).exitCode()).isZero();
        assertValid(a);
        JsonNode report = RestoreReport.read(a);
        assertThat(report.path("mode").asText()).isEqualTo("verify-only");
        assertThat(report.path("backup").path("sourceTopic").asText()).isEqualTo("orders");
        assertThat(report.path("cut").path("untilTimestamp").asText()).isEqualTo(iso(1500));
        JsonNode p0 = report.path("partitions").get(0);
        assertThat(p0.path("lastOffset").asLong()).isEqualTo(1500);
        assertThat(p0.path("records").asLong()).isEqualTo(1501);
        assertThat(p0.path("firstExcludedOffset").asLong()).isEqualTo(1501);
        assertThat(p0.path("sha256").asText()).hasSize(64);
        assertThat(report.path("partitions").get(1).path("sha256").asText()).isNotEqualTo(p0.path("sha256").asText());

        CliRun same = CliRun.run("compare-report", a.toString(), b.toString());
        assertThat(same.exitCode()).as(same.toString()).isZero();
        assertThat(same.out()).contains("same data: orders, 2 partitions, 2001 records");
        assertThat(CliRun.run("compare-report", a.toString(), renumbered.toString()).exitCode()).as("offsets mode is not data").isZero();

        // One byte of one record's value changed: the object written again as a different valid object.
        Path p0dir = root().resolve("orders-backup").resolve("0");
        ObjectName second = names.get(1);
        List<BackupRecord> changed = new ArrayList<>();
        for (BackupRecord r : records.subList(700, 1400)) {
            byte[] value = r.value() == null ? null : r.value().clone();
            if (r.offset() == 1000) {
                value[0] ^= 1;
            }
            changed.add(new BackupRecord(r.topic(), r.partition(), r.offset(), r.timestampMs(), r.timestampType(), r.key(),
                    value, r.headers()));
        }
        Files.write(p0dir.resolve(second.fileName()), TestBackups.CODEC.encode(changed));
        Path c = dir.resolve("c.json");
        assertThat(verify("--until-timestamp", iso(1500), "--report", c.toString()).exitCode()).isZero();
        CliRun different = CliRun.run("compare-report", a.toString(), c.toString());
        assertThat(different.exitCode()).as(different.toString()).isEqualTo(1);
        assertThat(different.out()).contains("partition 0 sha256: " + p0.path("sha256").asText()).doesNotContain("partition 1");
    }

    @Test
    void aFailedVerifyStillWritesItsReportAndMarkdownRendersIt() throws Exception {
        TestBackups.write(root(), "orders-backup", 0, 0, TestBackups.records("orders", 0, 0, 999, o -> o != 417), 500);
        Path json = dir.resolve("failed.json");
        CliRun r = verify("--report", json.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertValid(json);
        JsonNode report = RestoreReport.read(json);
        assertThat(report.path("result").asText()).isEqualTo("failed");
        assertThat(report.path("partitions").get(0).path("error").asText()).contains("the first hole is at offset 417");
        assertThat(CliRun.run("compare-report", json.toString(), json.toString()).exitCode()).isEqualTo(1);

        Path md = dir.resolve("drill.md");
        CliRun ok = verify("--offsets", "renumber", "--report", md.toString(), "--report-format", "md");
        assertThat(ok.exitCode()).as(ok.toString()).isZero();
        assertThat(Files.readString(md)).startsWith("# Backup verification of orders: OK\n")
                .contains("| 0 | ok | 2 | 999 | 1 | 0–999 | " + iso(999) + " | - | - | `");
        CliRun notJson = CliRun.run("compare-report", md.toString(), json.toString());
        assertThat(notJson.exitCode()).isEqualTo(2);
    }

    static void assertValid(Path report) throws Exception {
        JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Files.readString(SCHEMA));
        Set<ValidationMessage> errors = schema.validate(RestoreReport.JSON.readTree(report.toFile()));
        assertThat(errors).as(Files.readString(report)).isEmpty();
    }

    /** A report of restore --all-topics, its entries' reports by the single topic's schema (a relative $ref from the file). */
    static void assertValidAllTopics(Path report) throws Exception {
        assertThat(allTopicsSchemaErrors(RestoreReport.JSON.readTree(report.toFile()))).as(Files.readString(report)).isEmpty();
    }

    static Set<ValidationMessage> allTopicsSchemaErrors(JsonNode report) {
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(ALL_TOPICS_SCHEMA.toAbsolutePath().normalize().toUri()).validate(report);
    }
}
