package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.manifest.ManifestName;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code restore --verify-only} on a chain the blob sink's writer wrote, one of whose objects was changed in place. */
class RestoreTamperTest {
    @TempDir
    Path dir;

    @Test
    void anObjectRewrittenUnderItsOwnNameIsNamed() throws Exception {
        Path root = dir.resolve("backups");
        List<ObjectName> names = TestBackups.writeWithTheSinksWriter(root, TestBackups.records("orders", 0, 0, 299, o -> true), 100);
        Path config = TestBackups.connectorJson(dir, "orders-backup", "orders", root);
        CliRun before = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "preserve", "--verify-only");
        assertThat(before.exitCode()).as(before.toString()).isZero();

        // One record's timestamp +1 ms, the same name, a valid Parquet object: what a new user tried on the demo chain.
        Path target = root.resolve("orders-backup/0").resolve(names.get(1).fileName());
        List<BackupRecord> records = new ArrayList<>(TestBackups.records("orders", 0, 100, 199, o -> true));
        BackupRecord r = records.get(42);
        records.set(42, new BackupRecord(r.topic(), r.partition(), r.offset(), r.timestampMs() + 1, r.timestampType(), r.key(),
                r.value(), r.headers()));
        byte[] original = Files.readAllBytes(target);
        Files.write(target, TestBackups.CODEC.encode(records));
        assertThat(Files.readAllBytes(target)).as("the premise: the object changed").isNotEqualTo(original);

        CliRun after = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "preserve", "--verify-only");
        assertThat(after.exitCode()).as(after.toString()).isEqualTo(1);
        assertThat(after.err()).contains("partition 0", names.get(1).fileName(), "SHA-256");
    }

    @Test
    void aManifestChangedOrNamingAnObjectThatIsGoneIsNamedAndTheRunsStoreRequestsAreInTheMetricsFile() throws Exception {
        Path root = dir.resolve("backups");
        TestBackups.writeWithTheSinksWriter(root, TestBackups.records("orders", 0, 0, 299, o -> true), 100);
        List<ObjectName> second = TestBackups.writeWithTheSinksWriter(root, TestBackups.records("orders", 0, 300, 599, o -> true), 100);
        Path config = TestBackups.connectorJson(dir, "orders-backup", "orders", root);
        Path metrics = dir.resolve("verify.prom");
        CliRun ok = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "preserve", "--verify-only",
                "--metrics-file", metrics.toString());
        assertThat(ok.exitCode()).as(ok.toString()).isZero();
        assertThat(ok.out()).contains("manifests: 2, hash chain intact, 6 objects with a recorded SHA-256, up to offset 599");
        assertThat(Files.readString(metrics)).contains("# TYPE mirror_v3_store_requests_total counter",
                        "mirror_v3_store_requests_total{mirror=\"orders-backup\",topic=\"orders\",operation=\"LIST\",outcome=\"ok\"} ",
                        "mirror_v3_store_requests_total{mirror=\"orders-backup\",topic=\"orders\",operation=\"PUT\",outcome=\"ok\"} 0\n")
                .containsPattern("operation=\"GET\",outcome=\"ok\"} (8|9|[1-9][0-9]+)\n"); // 6 objects and 2 manifests at least

        Path manifests = root.resolve("orders-backup/_manifest/0");
        Path first = manifests.resolve(new ManifestName(0, 299).fileName());
        String original = Files.readString(first);
        Files.writeString(first, original.replace("\"start\":0", "\"start\":100"));
        assertVerifyFails(config, "partition 0", first + " was changed after it was written");
        Files.writeString(first, original);

        Path last = root.resolve("orders-backup/0").resolve(second.get(2).fileName());
        Files.move(last, dir.resolve("moved"));
        assertVerifyFails(config, "partition 0", last + " is gone, and the manifest "
                + manifests.resolve(new ManifestName(300, 599).fileName()) + " records it");
    }

    private static void assertVerifyFails(Path config, String... expected) {
        CliRun r = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "preserve", "--verify-only");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains(expected);
    }
}
