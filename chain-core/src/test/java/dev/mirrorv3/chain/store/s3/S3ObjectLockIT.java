package dev.mirrorv3.chain.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.store.ObjectExistsException;
import dev.mirrorv3.chain.store.ObjectLockedException;
import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.testsupport.s3.S3MockServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.ObjectLockRetention;

/**
 * The S3 store and S3 Object Lock, against Adobe's S3Mock (a process: it models a bucket's Object Lock configuration and
 * the retention PutObjectRetention sets, checks and keeps a CRC32, answers {@code If-None-Match: *} with 412; it does not
 * refuse a delete or an overwrite of a locked object, and ignores the retention headers of a PutObject):
 * <ul>
 *   <li>every create into a bucket with Object Lock carries the settings' retention and a CRC32 S3Mock checked and kept;
 *   <li>whether a bucket has Object Lock, as validate asks it;
 *   <li>the store's delete leaves an object whose retention has not ended and reports it, and deletes it once it has.
 * </ul>
 */
class S3ObjectLockIT {
    private static final String LOCKED = "locked";
    private static final String PLAIN = "plain";

    @RegisterExtension
    static final S3MockServer S3MOCK = new S3MockServer();

    static S3Client admin;
    final RecordedPuts puts = new RecordedPuts();

    @TempDir
    Path dir;

    @BeforeAll
    static void buckets() {
        S3MOCK.createBucket(LOCKED, true);
        S3MOCK.createBucket(PLAIN, false);
        admin = S3Client.builder().endpointOverride(S3MOCK.endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("admin", "admin-secret"))).build();
    }

    @AfterAll
    static void closeAdmin() {
        if (admin != null) {
            admin.close();
        }
    }

    private S3Settings settings(String bucket, String prefix) {
        S3Identity write = new S3Identity("write", "writer", "writer-secret");
        S3Identity read = new S3Identity("read", "reader", "reader-secret");
        return S3Settings.of(Optional.of(S3MOCK.endpoint()), "us-east-1", bucket, prefix, true, write, read)
                .withCallTimeout(Duration.ofSeconds(20)).withPrune(new S3Identity("prune", "pruner", "pruner-secret"));
    }

    private S3Store store(S3Settings settings) {
        return new S3Store(settings, "orders", new StoreRequests(), List.of(puts));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ObjectLockMode.class, names = {"GOVERNANCE", "COMPLIANCE"})
    void everyCreateAsksForTheRetentionFromItsOwnTimeWithAChecksumS3Kept(ObjectLockMode mode) throws Exception {
        String prefix = "creates-" + mode;
        Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<byte[]> bodies;
        try (S3Store store = store(settings(LOCKED, prefix).withObjectLock(new NewObjectRetention(mode, 30)))) {
            bodies = RecordedPuts.createOfEachKind(store, dir);
            assertThatThrownBy(() -> store.create(0, RecordedPuts.CHAIN_OBJECT, "another".getBytes(StandardCharsets.UTF_8)))
                    .as("never over an existing object").isInstanceOf(ObjectExistsException.class);
        }
        Instant after = Instant.now();
        List<Map<String, List<String>>> sent = puts.sent();
        assertThat(sent).as("one PutObject per create, and the refused one").hasSize(4);
        List<String> keys = List.of(prefix + "/orders/0/" + RecordedPuts.CHAIN_OBJECT,
                prefix + "/orders/" + RecordedPuts.META_DIR + "/" + RecordedPuts.META_OBJECT,
                prefix + "/orders/1/" + RecordedPuts.SNAPSHOT);
        for (int i = 0; i < 3; i++) {
            Map<String, List<String>> headers = sent.get(i);
            assertThat(headers.get("x-amz-object-lock-mode")).as("%s", headers).containsExactly(mode.toString());
            Instant until = Instant.parse(headers.get("x-amz-object-lock-retain-until-date").get(0));
            assertThat(until).as("%s", headers).isBetween(before.plus(Duration.ofDays(30)), after.plus(Duration.ofDays(30)));
            assertThat(headers.get("x-amz-sdk-checksum-algorithm")).as("%s", headers).containsExactly("CRC32");
            String key = keys.get(i);
            String kept = admin.headObject(r -> r.bucket(LOCKED).key(key).checksumMode(ChecksumMode.ENABLED)).checksumCRC32();
            assertThat(kept).as("the CRC32 S3Mock checked against the body and kept for %s", key)
                    .isEqualTo(RecordedPuts.crc32(bodies.get(i)));
        }
    }

    @Test
    void whetherTheBucketHasObjectLockIsAskedWithTheReadIdentity() {
        try (S3Store store = store(settings(LOCKED, "check"))) {
            store.checkObjectLockEnabled();
        }
        try (S3Store store = store(settings(PLAIN, "check"))) {
            assertThatThrownBy(store::checkObjectLockEnabled).isInstanceOf(StoreException.class)
                    .hasMessageContaining("bucket plain does not have S3 Object Lock enabled")
                    .hasMessageContaining("s3.object.lock.mode, s3.object.lock.retain.days");
        }
        try (S3Store store = store(settings("no-such-bucket", "check"))) {
            assertThatThrownBy(store::checkObjectLockEnabled).isInstanceOf(S3AccessException.class)
                    .hasMessageContaining("bucket no-such-bucket does not exist");
        }
    }

    /**
     * Retention set by the test with PutObjectRetention (and read back: the premise), on a chain object in each mode and
     * on an object beside the partitions: the delete reports each, naming the mode and the end, and leaves it; an object
     * without retention, and one whose retention has ended, are deleted. S3Mock itself would delete a locked object:
     * what keeps it is the store's GetObjectRetention before its DeleteObject.
     */
    @Test
    void anObjectWhoseRetentionHasNotEndedIsReportedAndKeptTheOthersAreDeleted() {
        String prefix = "deletes";
        String governance = "00000000000000000000-00000000000000000009.parquet";
        String compliance = "00000000000000000010-00000000000000000019.parquet";
        String unlocked = "00000000000000000020-00000000000000000029.parquet";
        String ending = "00000000000000000030-00000000000000000039.parquet";
        Instant until = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
        try (S3Store store = store(settings(LOCKED, prefix))) {
            for (String name : List.of(governance, compliance, unlocked, ending)) {
                store.create(0, name, name.getBytes(StandardCharsets.UTF_8));
            }
            store.createBeside(RecordedPuts.META_DIR, RecordedPuts.META_OBJECT, "{}".getBytes(StandardCharsets.UTF_8));
            String chain = prefix + "/orders/0/";
            retain(chain + governance, ObjectLockMode.GOVERNANCE, until);
            retain(chain + compliance, ObjectLockMode.COMPLIANCE, until);
            retain(prefix + "/orders/" + RecordedPuts.META_DIR + "/" + RecordedPuts.META_OBJECT, ObjectLockMode.COMPLIANCE, until);
            Instant soon = Instant.now().plusSeconds(10).truncatedTo(ChronoUnit.SECONDS);
            retain(chain + ending, ObjectLockMode.GOVERNANCE, soon);
            assertThatThrownBy(() -> store.delete(0, ending)).as("a few seconds to go").isInstanceOf(ObjectLockedException.class);

            assertThatThrownBy(() -> store.delete(0, governance)).isInstanceOfSatisfying(ObjectLockedException.class, e -> {
                assertThat(e.mode()).isEqualTo("GOVERNANCE");
                assertThat(e.retainUntil()).contains(until);
                assertThat(e.location()).isEqualTo("s3://locked/deletes/orders/0/" + governance);
            }).hasMessage("s3://locked/deletes/orders/0/" + governance + " is under an Object Lock retention (GOVERNANCE) until "
                    + until + ": it cannot be deleted before the retention ends; it stays, and a later run deletes it");
            assertThatThrownBy(() -> store.delete(0, compliance)).isInstanceOfSatisfying(ObjectLockedException.class,
                    e -> assertThat(e.mode()).isEqualTo("COMPLIANCE"));
            assertThatThrownBy(() -> store.deleteBeside(RecordedPuts.META_DIR, RecordedPuts.META_OBJECT))
                    .isInstanceOf(ObjectLockedException.class).hasMessageContaining("/_meta/topic/" + RecordedPuts.META_OBJECT);
            long deletesBefore = store.requests().count(StoreRequests.Operation.DELETE, StoreRequests.Outcome.OK);
            long headsBefore = store.requests().count(StoreRequests.Operation.HEAD);
            store.delete(0, unlocked);
            assertThat(store.list(0)).containsExactly(governance, compliance, ending);
            assertThat(store.requests().count(StoreRequests.Operation.DELETE, StoreRequests.Outcome.OK))
                    .as("the store request metric: the DeleteObject").isEqualTo(deletesBefore + 1);
            assertThat(store.requests().count(StoreRequests.Operation.HEAD)).as("and the GetObjectRetention before it")
                    .isEqualTo(headsBefore + 1);
            assertThat(store.listBeside(RecordedPuts.META_DIR)).containsExactly(RecordedPuts.META_OBJECT);

            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> Instant.now().isAfter(soon));
            store.delete(0, ending);
            assertThat(store.list(0)).containsExactly(governance, compliance);
        }
    }

    /** Sets a retention as an operator (or a bucket's default) would, and reads it back: the premise of the deletes. */
    private static void retain(String key, ObjectLockMode mode, Instant until) {
        admin.putObjectRetention(r -> r.bucket(LOCKED).key(key).retention(ObjectLockRetention.builder()
                .mode(mode.toString()).retainUntilDate(until).build()));
        ObjectLockRetention kept = admin.getObjectRetention(r -> r.bucket(LOCKED).key(key)).retention();
        assertThat(kept.modeAsString()).as("S3Mock keeps the retention of %s", key).isEqualTo(mode.toString());
        assertThat(kept.retainUntilDate()).isEqualTo(until);
    }
}
