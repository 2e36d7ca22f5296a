package dev.mirrorv3.restore.cli.prune;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.s3.S3Identity;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.testsupport.s3.S3MockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.ObjectLockRetention;

/**
 * {@code mirror-v3 prune} on a bucket with Object Lock (Adobe's S3Mock, which keeps the retention PutObjectRetention sets,
 * and would itself let a locked object be deleted): objects the test locks are left and reported, with the objects
 * after them, the ones before them are removed, the chain's recorded start is where what remains begins, and every
 * reader accepts the chain.
 */
class PruneObjectLockIT {
    private static final String BUCKET = "locked";
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final S3MockServer S3MOCK = new S3MockServer();

    static S3Client admin;

    @TempDir
    Path dir;

    @BeforeAll
    static void bucket() {
        S3MOCK.createBucket(BUCKET, true);
        admin = S3Client.builder().endpointOverride(S3MOCK.endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("admin", "admin-secret"))).build();
    }

    @AfterAll
    static void closeAdmin() {
        if (admin != null) {
            admin.close();
        }
    }

    @Test
    void lockedObjectsAndTheOnesAfterThemAreLeftAndReportedTheOnesBeforeRemovedAndTheStartIsWhereWhatRemainsBegins()
            throws Exception {
        S3Settings settings = S3Settings.of(Optional.of(S3MOCK.endpoint()), "us-east-1", BUCKET, "prod", true,
                new S3Identity("write", "writer", "writer-secret"), new S3Identity("read", "reader", "reader-secret"))
                .withCallTimeout(Duration.ofSeconds(20));
        List<BackupRecord> records = TestBackups.records("orders", 0, 0, 999, o -> true); // stamped BASE_TS + offset
        List<ObjectName> objects;
        try (S3Store store = new S3Store(settings, "orders-backup")) {
            objects = writeWithTheSinksWriter(store, records, 100);
        }
        assertThat(objects).hasSize(10);
        Instant until = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
        retain(objects.get(2), ObjectLockMode.COMPLIANCE, until); // offsets 200-299
        retain(objects.get(4), ObjectLockMode.GOVERNANCE, until); // offsets 400-499, after the first locked one

        Path config = dir.resolve("orders-backup.json");
        Files.writeString(config, JSON.writeValueAsString(Map.of("name", "orders-backup", "config", Map.ofEntries(
                Map.entry("connector.class", "dev.mirrorv3.connect.blob.BlobSinkConnector"), Map.entry("topics", "orders"),
                Map.entry("format", "parquet"), Map.entry("destination.type", "s3"),
                Map.entry("s3.endpoint", S3MOCK.endpoint().toString()), Map.entry("s3.region", "us-east-1"),
                Map.entry("s3.bucket", BUCKET), Map.entry("s3.prefix", "prod"), Map.entry("s3.path.style.access", "true"),
                Map.entry("s3.read.access.key.id", "reader"), Map.entry("s3.read.secret.access.key", "reader-secret"),
                // as the verify CronJob fills it: the read identity's keys (restore never writes)
                Map.entry("s3.write.access.key.id", "reader"), Map.entry("s3.write.secret.access.key", "reader-secret"),
                Map.entry("s3.prune.access.key.id", "pruner"), Map.entry("s3.prune.secret.access.key", "pruner-secret"),
                Map.entry("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter"),
                Map.entry("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter")))));
        Path report = dir.resolve("prune.json");
        Path metrics = dir.resolve("prune.prom");
        CliRun prune = CliRun.run("prune", "--connector-config", config.toString(), "--before",
                Instant.ofEpochMilli(TestBackups.BASE_TS + 700).toString(), "--report", report.toString(), "--metrics-file",
                metrics.toString());

        assertThat(prune.exitCode()).as("objects under a retention are reported, not an error: " + prune).isZero();
        String locked = "s3://" + BUCKET + "/prod/orders-backup/0/" + objects.get(2).fileName();
        assertThat(prune.out()).contains("removed s3://" + BUCKET + "/prod/orders-backup/0/" + objects.get(0).fileName(),
                "removed s3://" + BUCKET + "/prod/orders-backup/0/" + objects.get(1).fileName(),
                "left " + locked + " is under an Object Lock retention (COMPLIANCE) until " + until,
                "prune: 2 objects").doesNotContain(objects.get(3).fileName());
        JsonNode p = JSON.readTree(report.toFile()).get("partitions").get(0);
        assertThat(p.get("removed").findValuesAsText("object"))
                .containsExactly(objects.get(0).fileName(), objects.get(1).fileName());
        assertThat(p.get("locked").findValuesAsText("object")).containsExactly(objects.get(2).fileName());
        assertThat(p.get("locked").get(0).get("reason").asText()).contains("(COMPLIANCE) until " + until);
        assertThat(p.get("kept_objects").asLong()).isEqualTo(8);
        assertThat(p.get("new_start").asLong()).as("the start recorded is where what remains begins").isEqualTo(200);
        assertThat(Files.readString(metrics)).contains("mirror_v3_prune_locked_objects{connector=\"orders-backup\",topic=\"orders\","
                + "dry_run=\"false\"} 1");

        try (S3Store store = new S3Store(settings, "orders-backup")) {
            ChainReader reader = new ChainReader(store, TestBackups.SETTINGS);
            assertThat(reader.listChain(0, OptionalLong.empty()).objects()).as("no gap: everything from the locked one on")
                    .containsExactlyElementsOf(objects.subList(2, 10));
            assertThat(ChainStart.recorded(store, 0, reader.listing(0).newest())).hasValue(200);
            assertThat(reader.head(0).nextOffset()).as("the sink's open accepts it").hasValue(1000);
        }
        CliRun verify = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--progress", "none");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).contains("offsets: 200-999", "records: 800");
    }

    /** Sets a retention as an operator would, and reads it back: the premise. */
    private static void retain(ObjectName object, ObjectLockMode mode, Instant until) {
        String key = "prod/orders-backup/0/" + object.fileName();
        admin.putObjectRetention(r -> r.bucket(BUCKET).key(key).retention(ObjectLockRetention.builder()
                .mode(mode.toString()).retainUntilDate(until).build()));
        ObjectLockRetention kept = admin.getObjectRetention(r -> r.bucket(BUCKET).key(key)).retention();
        assertThat(kept.modeAsString()).as("S3Mock keeps the retention of %s", key).isEqualTo(mode.toString());
        assertThat(kept.retainUntilDate()).isEqualTo(until);
    }

    /** The records as objects of {@code perObject} records, written as the blob sink writes, its manifest written. */
    private static List<ObjectName> writeWithTheSinksWriter(S3Store store, List<BackupRecord> records, int perObject) {
        ChainWriter writer = new ChainWriter(store, 0, TestBackups.CODEC, new FlushPolicy(perObject, Long.MAX_VALUE, 3_600_000),
                Clock.systemUTC(), new ChainReader(store, TestBackups.SETTINGS).head(0), 0);
        List<ObjectName> names = new ArrayList<>();
        for (BackupRecord r : records) {
            writer.append(r);
            writer.sizeTrigger().flatMap(writer::flush).ifPresent(f -> names.add(f.name()));
        }
        writer.flush(FlushTrigger.CLOSE).ifPresent(f -> names.add(f.name()));
        writer.manifests().writeWaiting();
        return names;
    }
}
