package dev.mirrorv3.chain.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ChainValidator;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.store.ObjectExistsException;
import dev.mirrorv3.chain.store.ObjectMissingException;
import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.testsupport.s3.ReplyDroppingProxy;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import dev.mirrorv3.testsupport.s3.S3TestServer.Access;
import dev.mirrorv3.testsupport.s3.S3TestServer.ConditionalWrites;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/** The S3 store against a real (in-process) S3 server: commit, listing, identities, failures. */
class S3StoreTest {
    private static final String BUCKET = "backups";
    private static final String ADMIN_ID = "admin";
    private static final String ADMIN_SECRET = "admin-secret-value";
    private static final String WRITER_ID = "writer";
    private static final String WRITER_SECRET = "writer-secret-value";
    private static final String READER_ID = "reader";
    private static final String READER_SECRET = "reader-secret-value";
    private static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();

    static S3TestServer server;
    static S3Client admin;

    @BeforeAll
    static void startServer() {
        server = S3TestServer.start(ADMIN_ID, ADMIN_SECRET);
        server.addIdentity(WRITER_ID, WRITER_SECRET, Access.WRITE_ONLY);
        server.addIdentity(READER_ID, READER_SECRET, Access.READ_ONLY);
        server.createBucket(BUCKET);
        admin = S3Client.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ADMIN_ID, ADMIN_SECRET))).build();
    }

    @AfterAll
    static void stopServer() {
        admin.close();
        server.close();
    }

    private static S3Settings settings(String prefix, S3Identity write, S3Identity read) {
        return settings(server.endpoint(), prefix, write, read);
    }

    /** Settings for the bucket behind {@code endpoint} (the shared server, a proxy in front of it, or a server of its own). */
    private static S3Settings settings(URI endpoint, String prefix, S3Identity write, S3Identity read) {
        return S3Settings.of(Optional.of(endpoint), "us-east-1", BUCKET, prefix, true, write, read).withCallTimeout(Duration.ofSeconds(10));
    }

    private static S3Store leastPrivilegeStore(String prefix, String name) {
        return leastPrivilegeStore(server.endpoint(), prefix, name);
    }

    private static S3Store leastPrivilegeStore(URI endpoint, String prefix, String name) {
        return new S3Store(settings(endpoint, prefix, new S3Identity("write", WRITER_ID, WRITER_SECRET),
                new S3Identity("read", READER_ID, READER_SECRET)), name);
    }

    /** What a snapshot's footer read needs: the size (HeadObject) and ranges (ranged GetObject), by the read identity. */
    /** A reader's settings (restore, verify, status) need no write identity: it is asked for only when something is written. */
    @Test
    void aStoreWithoutAWriteIdentityReadsAndRefusesAWriteNamingTheSettings() {
        try (S3Store writer = leastPrivilegeStore("read-only", "m")) {
            writer.create(0, name(0, 9), bytes("0123456789"));
        }
        try (S3Store reader = new S3Store(settings("read-only", new S3Identity("write", "", ""),
                new S3Identity("read", READER_ID, READER_SECRET)), "m")) {
            assertThat(reader.list(0)).containsExactly(name(0, 9));
            assertThat(new String(reader.read(0, name(0, 9)), StandardCharsets.UTF_8)).isEqualTo("0123456789");
            assertThatThrownBy(() -> reader.create(0, name(10, 19), bytes("a")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("s3.write.access.key.id").hasMessageContaining("s3.write.secret.access.key")
                    .hasMessageContaining("the write identity");
        }
    }

    @Test
    void sizeAndRangesOfAnObject() {
        try (S3Store store = leastPrivilegeStore("ranges", "m")) {
            store.create(0, name(0, 9), bytes("0123456789"));
            assertThat(store.size(0, name(0, 9))).isEqualTo(10);
            assertThat(new String(store.readRange(0, name(0, 9), 2, 3), StandardCharsets.UTF_8)).isEqualTo("234");
            assertThat(new String(store.readRange(0, name(0, 9), 8, 10), StandardCharsets.UTF_8)).as("fewer at the end").isEqualTo("89");
            assertThatThrownBy(() -> store.size(0, name(10, 19))).isInstanceOf(ObjectMissingException.class);
            assertThatThrownBy(() -> store.readRange(0, name(10, 19), 0, 4)).isInstanceOf(ObjectMissingException.class);
        }
    }

    /**
     * A snapshot is committed from its local file without its bytes on the heap: when the PutObject goes out, the heap
     * holds no copy of the object (reading the file into an array, which the SDK copies again, would hold it twice); the
     * commit keeps its no-overwrite condition and its re-issue rule.
     */
    @Test
    void aSnapshotIsCommittedStreamedFromItsFileAndNeverOverwrites(@TempDir Path dir) throws Exception {
        int size = 32 * 1024 * 1024;
        Path file = dir.resolve("snapshot.parquet");
        java.util.Random random = new java.util.Random(3);
        try (java.io.OutputStream out = Files.newOutputStream(file)) {
            byte[] block = new byte[1024 * 1024];
            for (int i = 0; i < size / block.length; i++) {
                random.nextBytes(block);
                out.write(block);
            }
        }
        Path other = Files.write(dir.resolve("other.parquet"), bytes("another snapshot"));
        java.util.concurrent.atomic.AtomicLong heapAtSend = new java.util.concurrent.atomic.AtomicLong(-1);
        ExecutionInterceptor probe = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.httpRequest().method() == SdkHttpMethod.PUT) {
                    heapAtSend.set(usedHeapAfterGc());
                }
            }
        };
        try (S3Store store = new S3Store(settings("streamed", new S3Identity("write", WRITER_ID, WRITER_SECRET),
                new S3Identity("read", READER_ID, READER_SECRET)), "m", new StoreRequests(), List.of(probe))) {
            store.createFrom(0, name(0, 9), other, false); // warms the client up
            long before = usedHeapAfterGc();
            store.createFrom(0, name(10, 19), file, false);
            assertThat(heapAtSend.get() - before).as("heap held when the PutObject of a %d-byte snapshot is sent", size)
                    .isLessThan(size / 2);

            byte[] stored = admin.getObjectAsBytes(r -> r.bucket(BUCKET).key("streamed/m/0/" + name(10, 19))).asByteArray();
            assertThat(stored).isEqualTo(Files.readAllBytes(file));
            store.createFrom(0, name(10, 19), file, true); // a re-issue finds its own object: committed
            assertThatThrownBy(() -> store.createFrom(0, name(10, 19), other, false)).isInstanceOf(ObjectExistsException.class)
                    .hasMessageContaining("streamed/m/0/" + name(10, 19));
            assertThat(admin.getObjectAsBytes(r -> r.bucket(BUCKET).key("streamed/m/0/" + name(10, 19))).asByteArray())
                    .as("never overwritten").isEqualTo(stored);
        }
    }

    private static long usedHeapAfterGc() {
        System.gc();
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String name(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET).fileName();
    }

    @Test
    void objectsLiveUnderPrefixNamePartitionAndReadBack() {
        try (S3Store store = leastPrivilegeStore("/archive//kafka/", "orders")) {
            assertThat(store.list(0)).isEmpty();
            assertThat(store.partitions()).isEmpty();
            store.create(0, name(0, 9), bytes("a"));
            store.create(0, name(10, 19), bytes("b"));
            store.create(3, name(0, 4), bytes("c"));
            assertThat(store.list(0)).containsExactly(name(0, 9), name(10, 19));
            assertThat(store.listFrom(0, ObjectName.pad(10), 2)).containsExactly(name(10, 19));
            assertThat(store.listFrom(0, "", 1)).containsExactly(name(0, 9));
            assertThat(store.read(0, name(10, 19))).isEqualTo(bytes("b"));
            assertThat(store.exists(0, name(0, 9))).isTrue();
            assertThat(store.exists(0, name(20, 29))).isFalse();
            assertThatThrownBy(() -> store.read(0, name(20, 29))).isInstanceOf(ObjectMissingException.class);
            assertThat(store.partitions()).containsExactly(0, 3);
            assertThat(store.location(3)).isEqualTo("s3://backups/archive/kafka/orders/3");
            assertThat(store.removeTemporaryFiles(0)).isZero();
        }
        assertThat(admin.listObjectsV2(r -> r.bucket(BUCKET).prefix("archive/")).contents()).extracting(S3Object::key)
                .containsExactly("archive/kafka/orders/0/" + name(0, 9), "archive/kafka/orders/0/" + name(10, 19),
                        "archive/kafka/orders/3/" + name(0, 4));
    }

    @Test
    void metadataSnapshotsLiveBesideThePartitionsWithTheSameNoOverwriteCommit() {
        try (S3Store store = leastPrivilegeStore("meta-beside", "orders")) {
            store.create(0, name(0, 9), bytes("a"));
            store.createBeside("_meta/groups", "00000000000000000001.json", bytes("{}"));
            assertThatThrownBy(() -> store.createBeside("_meta/groups", "00000000000000000001.json", bytes("{ }")))
                    .isInstanceOf(ObjectExistsException.class)
                    .hasMessageContaining("meta-beside/orders/_meta/groups/00000000000000000001.json");
            assertThat(store.listBeside("_meta/groups")).containsExactly("00000000000000000001.json");
            assertThat(store.listBeside("_meta/topic")).isEmpty();
            assertThat(store.readBeside("_meta/groups", "00000000000000000001.json")).isEqualTo(bytes("{}"));
            assertThat(store.besideLocation("_meta/groups")).endsWith("/meta-beside/orders/_meta/groups");
            assertThat(store.partitions()).as("_meta is never a partition").containsExactly(0);
            assertThat(store.list(0)).containsExactly(name(0, 9));
        }
    }

    @Test
    void aForeignObjectAtTheNameIsNeverOverwritten() {
        try (S3Store store = leastPrivilegeStore("foreign", "m")) {
            admin.putObject(r -> r.bucket(BUCKET).key("foreign/m/0/" + name(0, 9)), RequestBody.fromBytes(bytes("theirs")));
            assertThatThrownBy(() -> store.create(0, name(0, 9), bytes("ours")))
                    .isInstanceOf(ObjectExistsException.class)
                    .hasMessageContaining("another writer created s3://backups/foreign/m/0/" + name(0, 9));
            assertThat(store.read(0, name(0, 9))).isEqualTo(bytes("theirs"));
        }
    }

    @Test
    void a412ForOurOwnEarlierAttemptIsOurCommit() {
        try (S3Store store = leastPrivilegeStore("retried", "m")) {
            // What the store sees when the SDK retries a PutObject whose first reply was lost: the key holds our bytes.
            admin.putObject(r -> r.bucket(BUCKET).key("retried/m/0/" + name(0, 9)), RequestBody.fromBytes(bytes("ours")));
            store.create(0, name(0, 9), bytes("ours"));
            assertThat(store.list(0)).containsExactly(name(0, 9));
        }
    }

    @Test
    void aLostReplyRetriedByTheSdkMeetsOurOwnObjectAndCounts() {
        try (ReplyDroppingProxy proxy = ReplyDroppingProxy.start(server.endpoint());
             S3Store store = leastPrivilegeStore(proxy.endpoint(), "lost", "m")) {
            server.resetCalls();
            proxy.dropFirstPutReply(BUCKET, "lost/m/0/" + name(0, 9));
            store.create(0, name(0, 9), bytes("ours"));
            assertThat(proxy.droppedReplies()).as("the first attempt's reply was lost").isEqualTo(1);
            assertThat(server.calls("putBlob")).as("the first attempt committed, the SDK's retry got 412").isEqualTo(2);
            assertThat(store.read(0, name(0, 9))).isEqualTo(bytes("ours"));
        }
    }

    /** Where the replies are lost after the object {@code 1-2} committed, so that its PutObject fails in the end. */
    enum LostAfterCommit {
        /** Every attempt of the PutObject: the first commits, the SDK's retries meet 412s. */
        EVERY_PUT_ATTEMPT,
        /** The first PutObject, then every attempt of the GET that compares the 412's object with ours. */
        FIRST_PUT_AND_THE_412_CHECK
    }

    @ParameterizedTest
    @EnumSource(LostAfterCommit.class)
    void aCommitThatLandedAndThenFailedIsCompletedByTheNextFlush(LostAfterCommit lost) {
        String prefix = "landed-" + lost.ordinal();
        try (ReplyDroppingProxy proxy = ReplyDroppingProxy.start(server.endpoint());
             S3Store store = leastPrivilegeStore(proxy.endpoint(), prefix, "m")) {
            ChainWriter writer = new ChainWriter(store, 0, EnvelopeCodecs.forSettings(SETTINGS), new FlushPolicy(10, 1 << 20, 60_000),
                    Clock.systemUTC(), ChainHead.empty(store.location(0)), 0);
            writer.append(record(0));
            writer.flush(FlushTrigger.RECORDS);

            String key = prefix + "/m/0/" + name(1, 2);
            if (lost == LostAfterCommit.EVERY_PUT_ATTEMPT) {
                proxy.dropEveryReply("PUT", BUCKET, key);
            } else {
                proxy.dropFirstPutReply(BUCKET, key);
                proxy.dropEveryReply("GET", BUCKET, key);
            }
            writer.append(record(1));
            writer.append(record(2));
            assertThatThrownBy(() -> writer.flush(FlushTrigger.RECORDS)).as("the SDK gives up").isInstanceOf(TransientStoreException.class)
                    .hasMessageContaining(lost == LostAfterCommit.EVERY_PUT_ATTEMPT ? "PutObject" : "GetObject");
            assertThat(proxy.droppedReplies()).as("the SDK's 3 attempts at least").isGreaterThanOrEqualTo(3);
            proxy.stopDropping();
            assertThat(store.list(0)).as("the object is there").containsExactly(name(0, 0), name(1, 2));

            writer.append(record(3));
            assertThat(writer.flush(FlushTrigger.RECORDS)).hasValueSatisfying(r -> assertThat(r.name().fileName()).isEqualTo(name(1, 2)));
            writer.flush(FlushTrigger.RECORDS);
            assertThat(writer.durableNext()).isEqualTo(4);
            assertThat(store.list(0)).containsExactly(name(0, 0), name(1, 2), name(3, 3));
        }
    }

    private static BackupRecord record(long offset) {
        return new BackupRecord("t", 0, offset, 1L, TimestampType.CREATE_TIME, null, bytes("v" + offset), List.of());
    }

    @Test
    void aChainOf5000ObjectsListsCompletelyAndTheTailCheckListsOnlyTheTail() {
        int n = 5000;
        for (int i = 0; i < n; i++) {
            server.putDirect(BUCKET, "long/m/0/" + name(i * 10L, i * 10L + 9), new byte[] {1});
        }
        try (S3Store store = leastPrivilegeStore("long", "m")) {
            server.resetCalls();
            List<String> names = store.list(0);
            assertThat(names).hasSize(n).isSorted().containsExactlyElementsOf(
                    IntStream.range(0, n).mapToObj(i -> name(i * 10L, i * 10L + 9)).toList());
            assertThat(server.calls("list")).as("ListObjectsV2 pages of 1,000 keys").isEqualTo(5);

            Chain chain = ChainValidator.validate(store.location(0), names, EnvelopeFormat.PARQUET, OptionalLong.empty());
            assertThat(chain.nextOffset()).hasValue(n * 10L);
            ChainWriter writer = new ChainWriter(store, 0, EnvelopeCodecs.forSettings(SETTINGS), new FlushPolicy(10, 1 << 20, 60_000),
                    Clock.systemUTC(), new ChainHead(chain.location(), Optional.empty(), chain.objects()), n * 10L);
            writer.append(new BackupRecord("t", 0, n * 10L, 1L, TimestampType.CREATE_TIME, null, bytes("v"), List.of()));
            server.resetCalls();
            writer.flush(FlushTrigger.RECORDS);
            assertThat(server.calls("list")).as("tail check before and twin check after the commit, one request each").isEqualTo(2);
            assertThat(store.listFrom(0, ObjectName.pad((n - 1) * 10L), 2))
                    .containsExactly(name((n - 1) * 10L, (n - 1) * 10L + 9), name(n * 10L, n * 10L));
        }
    }

    @Test
    void leastPrivilegeIdentitiesSwappedFailNamingIdentityOperationAndBucket() {
        S3Store swapped = new S3Store(settings("swapped", new S3Identity("write", READER_ID, READER_SECRET),
                new S3Identity("read", WRITER_ID, WRITER_SECRET)), "m");
        try (swapped) {
            assertThatThrownBy(() -> swapped.create(0, name(0, 9), bytes("x")))
                    .isInstanceOf(S3AccessException.class)
                    .hasMessageContaining("S3 denied PutObject s3://backups/swapped/m/0/" + name(0, 9))
                    .hasMessageContaining("the write identity").hasMessageContaining("s3:PutObject")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret-value"));
            assertThatThrownBy(swapped::checkReadAccess)
                    .isInstanceOf(S3AccessException.class)
                    .hasMessageContaining("ListObjectsV2").hasMessageContaining("the read identity")
                    .hasMessageContaining("s3:ListBucket");
        }
    }

    @Test
    void wrongSecretOrUnknownKeyIsACredentialsErrorWithoutTheSecret() {
        try (S3Store store = new S3Store(settings("creds", new S3Identity("write", WRITER_ID, "wrong-secret-value"),
                new S3Identity("read", "nobody", "other-secret-value")), "m")) {
            assertThat(failureAfterTransientRetries(() -> store.create(0, name(0, 9), bytes("x"))))
                    .isInstanceOf(S3AccessException.class)
                    .satisfies(e -> assertThat(((S3AccessException) e).role()).isEqualTo("write"))
                    .satisfies(e -> assertThat(e.getMessage()).contains("the write identity").doesNotContain("secret-value"));
            assertThatThrownBy(store::checkReadAccess)
                    .isInstanceOf(S3AccessException.class)
                    .satisfies(e -> assertThat(e.getMessage()).contains("the read identity").doesNotContain("secret-value"));
        }
    }

    /**
     * The first failure that is not transient, retrying a transient one as the task does. S3Proxy answers a signature
     * it refuses before reading the upload's body and closes the connection, so a client still sending the body can
     * see "Error writing request body to server" (transient) before the refusal (seen in clean-clone runs); the task's
     * retry then gets the refusal.
     */
    private static Throwable failureAfterTransientRetries(Runnable call) {
        for (int attempt = 1; ; attempt++) {
            try {
                call.run();
                throw new AssertionError("the call succeeded");
            } catch (TransientStoreException e) {
                if (attempt == 5) {
                    return e;
                }
            } catch (RuntimeException e) {
                return e;
            }
        }
    }

    @Test
    void aMissingBucketIsFatalAndNamed() {
        S3Settings s = settings("x", new S3Identity("write", ADMIN_ID, ADMIN_SECRET), new S3Identity("read", ADMIN_ID, ADMIN_SECRET));
        S3Settings missing = S3Settings.of(s.endpoint(), s.region(), "no-such-bucket", s.prefix(), true, s.write(), s.read())
                .withCallTimeout(s.callTimeout());
        try (S3Store store = new S3Store(missing, "m")) {
            assertThatThrownBy(store::checkReadAccess)
                    .isInstanceOf(S3AccessException.class).hasMessageContaining("bucket no-such-bucket does not exist")
                    .satisfies(e -> assertThat(((S3AccessException) e).problem()).isEqualTo(S3AccessException.Problem.NO_BUCKET));
        }
    }

    @ParameterizedTest
    @EnumSource(value = ConditionalWrites.class, names = {"NOT_IMPLEMENTED", "REFUSED"})
    void aStoreWithoutConditionalWritesIsFatalAndNamed(ConditionalWrites mode) {
        server.conditionalWrites(mode);
        try (S3Store store = leastPrivilegeStore("noconditional", "m")) {
            assertThatThrownBy(() -> store.create(0, name(0, 9), bytes("x")))
                    .isInstanceOf(StoreException.class).isNotInstanceOf(TransientStoreException.class)
                    .hasMessageContaining("does not support conditional writes")
                    .hasMessageContaining("If-None-Match: *")
                    .hasMessageContaining(server.endpoint().toString())
                    .hasMessageContaining("PutObject s3://backups/noconditional/m/0/" + name(0, 9))
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret-value"));
        } finally {
            server.conditionalWrites(ConditionalWrites.SUPPORTED);
        }
    }

    /**
     * The outage stops a server of its own, so that the shared server's connections stay valid for the tests after it
     * (the JDK's connection cache is JVM-wide; the parent pom turns its keep-alive off in tests for the same reason).
     */
    @Test
    void aStoppedServerIsTransientAndTheStoreRecoversWhenItIsBack() {
        try (S3TestServer own = S3TestServer.start(ADMIN_ID, ADMIN_SECRET)) {
            own.createBucket(BUCKET);
            S3Identity admin = new S3Identity("write", ADMIN_ID, ADMIN_SECRET);
            S3Settings s = settings(own.endpoint(), "outage", admin, admin);
            try (S3Store store = new S3Store(s, "m")) {
                store.create(0, name(0, 9), bytes("a"));
                own.stop();
                try {
                    assertThatThrownBy(() -> store.list(0)).isInstanceOf(TransientStoreException.class)
                            .hasMessageContaining("cannot reach S3");
                    assertThatThrownBy(() -> store.create(0, name(10, 19), bytes("b")))
                            .isInstanceOf(TransientStoreException.class);
                } finally {
                    own.restart();
                }
                store.create(0, name(10, 19), bytes("b"));
                assertThat(store.list(0)).containsExactly(name(0, 9), name(10, 19));
            }
        }
    }
}
