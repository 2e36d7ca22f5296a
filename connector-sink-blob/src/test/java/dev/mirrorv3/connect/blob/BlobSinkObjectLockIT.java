package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.s3.S3Identity;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.testsupport.Closeables;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.s3.ReplyDroppingProxy;
import dev.mirrorv3.testsupport.s3.ReplyDroppingProxy.Request;
import dev.mirrorv3.testsupport.s3.S3MockServer;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.zip.CRC32;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfo;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfos;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The blob sink writing into a bucket with S3 Object Lock and a default retention, on Adobe's S3Mock behind a proxy that
 * keeps every request's head (what went over the wire): a chain, its topic metadata beside it, and compaction=log
 * snapshots, each PutObject asking for the settings' retention (s3.object.lock.mode, s3.object.lock.retain.days) with a
 * CRC32 that S3Mock checked against the body and kept. validate() refuses the settings on a bucket without Object Lock.
 * S3Mock keeps a bucket's Object Lock configuration but enforces no retention; a real S3 refuses to overwrite or delete
 * a locked object (docs/blob-sink.md, "Immutable backups").
 */
class BlobSinkObjectLockIT {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String LOCKED = "locked-backups";
    private static final String PLAIN = "plain-backups";
    private static final String PREFIX = "kafka";

    @RegisterExtension
    static final S3MockServer S3MOCK = new S3MockServer();

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);

    static ReplyDroppingProxy wire;
    static S3Client admin;
    static Function<String, Store> stores;

    @TempDir
    static Path spill;

    @BeforeAll
    static void buckets() {
        S3MOCK.createBucket(LOCKED, true);
        S3MOCK.createBucket(PLAIN, false);
        admin = S3TestUsers.client(S3MOCK.endpoint(), "admin", "admin-secret");
        admin.putObjectLockConfiguration(r -> r.bucket(LOCKED).objectLockConfiguration(c -> c.objectLockEnabled("Enabled")
                .rule(rule -> rule.defaultRetention(d -> d.mode(ObjectLockRetentionMode.GOVERNANCE).days(1)))));
        wire = ReplyDroppingProxy.start(S3MOCK.endpoint());
        S3Identity any = new S3Identity("read", "admin", "admin-secret");
        S3Settings direct = S3Settings.of(Optional.of(S3MOCK.endpoint()), "us-east-1", LOCKED, PREFIX, true, any, any)
                .withCallTimeout(Duration.ofSeconds(20));
        stores = name -> new S3Store(direct, name);
    }

    @AfterAll
    static void closeClients() {
        Closeables.closeAll("the Object Lock test's clients", wire, admin);
    }

    /** The blob sink on S3 (through the proxy) with a retention of {@code days} per object in governance mode. */
    private static Map<String, String> config(String topic, String bucket) {
        Map<String, String> c = sinkConfig(topic, spill, cluster.bootstrapServers());
        c.remove("filesystem.root");
        c.putAll(ConnectorConfigs.s3(wire.endpoint().toString(), bucket, "writer", "writer-secret", "reader", "reader-secret"));
        c.put("s3.prefix", PREFIX);
        c.put("encryption", "none");
        c.put("s3.object.lock.mode", "governance");
        c.put("s3.object.lock.retain.days", "3");
        return c;
    }

    @Test
    void aChainItsMetadataAndSnapshotsAreWrittenIntoABucketWithObjectLockEachWithTheRetentionAndAChecksum() {
        String chainTopic = "locked-orders";
        String snapshotTopic = "locked-states";
        cluster.kafka().createTopic(chainTopic, 2);
        cluster.kafka().createTopic(snapshotTopic, 1, 1, Map.of("cleanup.policy", "compact"));
        produceVaried(cluster.bootstrapServers(), chainTopic, 2, 400, 7);
        produceKeyed(snapshotTopic, 300);
        Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        cluster.deploy(chainTopic, config(chainTopic, LOCKED));
        Map<String, String> snapshots = config(snapshotTopic, LOCKED);
        snapshots.put("compaction", "log");
        snapshots.put("compaction.spill.dir", spill.toString());
        snapshots.remove("flush.max.records");
        snapshots.put("flush.max.time.ms", "2000");
        cluster.deploy(snapshotTopic, snapshots);

        BlobSinkTestSupport.assertBackupComplete(cluster, stores, chainTopic, chainTopic, 2, WAIT);
        awaitSnapshotAtEnd(snapshotTopic);
        awaitTopicMetadata(chainTopic);
        awaitTopicMetadata(snapshotTopic);
        cluster.delete(chainTopic);
        cluster.delete(snapshotTopic);
        // The bucket is listed before the proxy's requests are read: a task closing after its connector's delete may still
        // put a manifest, and the proxy records a PUT before S3Mock stores it, so every object listed has its request.
        List<S3Object> objects = admin.listObjectsV2Paginator(r -> r.bucket(LOCKED).prefix(PREFIX + "/")).contents().stream().toList();
        Instant after = Instant.now();

        List<Request> puts = wire.requests().stream().filter(r -> r.method().equals("PUT") && r.path().startsWith("/" + LOCKED + "/")
                && r.query().isEmpty()).toList();
        assertThat(puts).as("chain objects of both partitions, snapshots and topic metadata, each put")
                .anyMatch(r -> r.path().startsWith("/" + LOCKED + "/kafka/" + chainTopic + "/0/"))
                .anyMatch(r -> r.path().startsWith("/" + LOCKED + "/kafka/" + chainTopic + "/1/"))
                .anyMatch(r -> r.path().startsWith("/" + LOCKED + "/kafka/" + snapshotTopic + "/0/"))
                .anyMatch(r -> r.path().startsWith("/" + LOCKED + "/kafka/" + chainTopic + "/_meta/topic/"))
                .anyMatch(r -> r.path().startsWith("/" + LOCKED + "/kafka/" + snapshotTopic + "/_meta/topic/"));
        for (Request put : puts) {
            Map<String, String> h = put.headers();
            assertThat(h.get("if-none-match")).as("%s %s", put.path(), h).isEqualTo("*");
            assertThat(h.get("x-amz-object-lock-mode")).as("%s %s", put.path(), h).isEqualTo("GOVERNANCE");
            assertThat(Instant.parse(h.get("x-amz-object-lock-retain-until-date"))).as("%s %s", put.path(), h)
                    .isBetween(before.plus(Duration.ofDays(3)), after.plus(Duration.ofDays(3)));
            assertThat(h.get("x-amz-sdk-checksum-algorithm")).as("%s %s", put.path(), h).isEqualTo("CRC32");
            assertThat(h.get("x-amz-checksum-crc32")).as("%s %s", put.path(), h).isNotBlank();
        }
        List<String> putPaths = puts.stream().map(Request::path).toList();
        for (S3Object o : objects) {
            assertThat(putPaths).as("every object in the bucket was put through the proxy").contains("/" + LOCKED + "/" + o.key());
            byte[] body = admin.getObjectAsBytes(r -> r.bucket(LOCKED).key(o.key())).asByteArray();
            String kept = admin.headObject(r -> r.bucket(LOCKED).key(o.key()).checksumMode(ChecksumMode.ENABLED)).checksumCRC32();
            assertThat(kept).as("the CRC32 S3Mock checked against %s's body and kept", o.key()).isEqualTo(crc32(body));
        }
    }

    @Test
    void validateRefusesTheRetentionOnABucketWithoutObjectLockNamingTheSetting() {
        Map<String, String> plain = config("validate-plain", PLAIN);
        String refusal = errors(cluster.validate(BlobSinkConnector.class.getName(), plain)).get("s3.object.lock.mode").toString();
        assertThat(refusal).contains("bucket plain-backups does not have S3 Object Lock enabled",
                "(GetObjectLockConfiguration s3://plain-backups answered HTTP 400)", "enable it, or remove both settings");

        Map<String, List<String>> locked = errors(cluster.validate(BlobSinkConnector.class.getName(), config("validate-locked", LOCKED)));
        assertThat(locked.get("s3.object.lock.mode")).as("a bucket with Object Lock").isEmpty();
        assertThat(locked.get("s3.object.lock.retain.days")).isEmpty();

        plain.remove("s3.object.lock.mode");
        plain.remove("s3.object.lock.retain.days");
        assertThat(errors(cluster.validate(BlobSinkConnector.class.getName(), plain)).get("s3.object.lock.mode"))
                .as("without the settings the bucket's Object Lock is not asked").isEmpty();
    }

    /** {@code count} records over 50 keys (a compacted topic takes keyed records only). */
    private static void produceKeyed(String topic, int count) {
        try (KafkaProducer<byte[], byte[]> producer = BlobSinkTestSupport.producer(cluster.bootstrapServers())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, BlobSinkTestSupport.utf8("key-" + (i % 50)),
                        BlobSinkTestSupport.utf8("value-" + i)));
            }
            producer.flush();
        }
    }

    private static Map<String, List<String>> errors(ConfigInfos infos) {
        Map<String, List<String>> errors = new HashMap<>();
        for (ConfigInfo info : infos.configs()) {
            errors.put(info.configValue().name(), info.configValue().errors());
        }
        return errors;
    }

    private static void awaitSnapshotAtEnd(String topic) {
        List<ConsumerRecord<byte[], byte[]>> records = consumeAll(cluster.bootstrapServers(), topic).get(0);
        long last = records.get(records.size() - 1).offset();
        Awaitility.await("a snapshot of " + topic + " up to offset " + last).atMost(WAIT).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions().until(() -> {
                    try (Store store = stores.apply(topic)) {
                        return store.list(0).stream().map(ObjectName::parse).flatMap(Optional::stream)
                                .anyMatch(o -> o.to() == last);
                    }
                });
    }

    private static void awaitTopicMetadata(String name) {
        Awaitility.await("topic metadata of " + name).atMost(WAIT).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> {
                    try (Store store = stores.apply(name)) {
                        return !store.listBeside("_meta/topic").isEmpty();
                    }
                });
    }

    private static String crc32(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        return Base64.getEncoder().encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }
}
