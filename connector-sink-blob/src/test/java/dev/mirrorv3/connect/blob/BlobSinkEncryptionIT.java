package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertChainEquals;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertContiguous;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.nextAfterLast;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.producer;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.MissingKeysException;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.s3.S3Identity;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.testsupport.Closeables;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import dev.mirrorv3.testsupport.s3.S3TestServer.Access;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Parquet modular encryption through a real worker: round trips on the filesystem and on S3 with
 * every record back byte for byte and no plaintext in any object; one chain that goes plain -> k1 -> k2 (rotation) ->
 * plain; a removed old key fails listing naming it (and isolates the partition until it is back); the keys never appear
 * in the worker's logs.
 */
class BlobSinkEncryptionIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final EnvelopeSettings PARQUET = EnvelopeSettings.parquetBytes();
    private static final String BUCKET = "enc-backups";
    private static final String ADMIN_ID = "admin";
    private static final String ADMIN_SECRET = "admin-SECRET-enc";
    private static final String WRITER_ID = "writer";
    private static final String WRITER_SECRET = "writer-SECRET-enc";
    private static final String READER_ID = "reader";
    private static final String READER_SECRET = "reader-SECRET-enc";
    private static final String MARKER = "PLAINTEXT-MARKER-";

    static ConnectTestCluster cluster;
    static S3TestServer s3;
    static S3Client admin;
    static Function<String, Store> s3Stores;
    static final StringWriter logs = new StringWriter();
    static Path keys;
    static String k1;
    static String k2;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        LogCapture.appendTo(logs, "encryption-it-capture", "%p %c{1} %m%n%ex");
        keys = Files.createDirectory(dir.resolve("keys"));
        SecureRandom random = new SecureRandom();
        k1 = newKey(random);
        k2 = newKey(random);
        Files.writeString(keys.resolve("k1"), k1 + "\n");
        Files.writeString(keys.resolve("k2"), k2 + "\n");
        s3 = S3TestServer.start(ADMIN_ID, ADMIN_SECRET);
        s3.addIdentity(WRITER_ID, WRITER_SECRET, Access.WRITE_ONLY);
        s3.addIdentity(READER_ID, READER_SECRET, Access.READ_ONLY);
        s3.createBucket(BUCKET);
        admin = S3Client.builder().endpointOverride(s3.endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ADMIN_ID, ADMIN_SECRET))).build();
        S3Identity adminIdentity = new S3Identity("read", ADMIN_ID, ADMIN_SECRET);
        S3Settings adminSettings = S3Settings.of(Optional.of(s3.endpoint()), "us-east-1", BUCKET, "", true,
                adminIdentity, adminIdentity).withCallTimeout(Duration.ofSeconds(10));
        s3Stores = name -> new S3Store(adminSettings, name);
        cluster = ConnectTestCluster.start(1, Map.of());
    }

    static String newKey(SecureRandom random) {
        byte[] k = new byte[32];
        random.nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }

    @AfterAll
    static void stop() {
        Closeables.closeAll("the encryption test's worker and clients", cluster, admin, s3);
        String all = logs.toString();
        assertThat(all).as("worker logs").contains("encryption parquet with key id k1");
        assertThat(all).as("worker logs hold no key material").doesNotContain(k1).doesNotContain(k2)
                .doesNotContain(k1.substring(0, 16)).doesNotContain(k2.substring(0, 16));
    }

    private static Map<String, String> encrypted(Map<String, String> c, String keyId) {
        c.put("encryption", "parquet");
        c.put("encryption.keys.dir", keys.toString());
        c.put("encryption.key.id", keyId);
        c.put("compression", "uncompressed"); // so that the grep for plaintext would find it if it were there
        return c;
    }

    private static Map<String, String> s3Config(String topic) {
        Map<String, String> c = sinkConfig(topic, dir, cluster.bootstrapServers());
        c.remove("filesystem.root");
        c.putAll(ConnectorConfigs.s3(s3.endpoint().toString(), BUCKET, WRITER_ID, WRITER_SECRET, READER_ID, READER_SECRET));
        return c;
    }

    /** Records with readable text in keys, values and headers, and the varied ones (nulls, empty, duplicates). */
    private static void produceText(String topic, int partitions, int from, int n) {
        try (KafkaProducer<byte[], byte[]> producer = producer(cluster.bootstrapServers())) {
            for (int i = from; i < from + n; i++) {
                RecordHeaders headers = new RecordHeaders();
                headers.add("trace", utf8(MARKER + "header-" + i));
                producer.send(new ProducerRecord<>(topic, i % partitions, null, utf8(MARKER + "key-" + i),
                        utf8("{\"card\":\"" + MARKER + "value-" + i + "\"}"), headers));
            }
            producer.flush();
        }
        BlobSinkTestSupport.produceVaried(cluster.bootstrapServers(), topic, partitions, n / 10, from);
    }

    private static Chain chain(Function<String, Store> stores, String name, int partition, KeyRing ring) {
        try (Store store = stores.apply(name)) {
            return new ChainReader(store, PARQUET, ring).listChain(partition, OptionalLong.empty());
        }
    }

    private static List<BackupRecord> readChain(Function<String, Store> stores, String name, String topic, int partition, KeyRing ring) {
        try (Store store = stores.apply(name)) {
            ChainReader reader = new ChainReader(store, PARQUET, ring);
            List<BackupRecord> records = new ArrayList<>();
            for (ObjectName o : reader.listChain(partition, OptionalLong.empty()).objects()) {
                records.addAll(reader.read(partition, o, topic).records());
            }
            return records;
        }
    }

    /** Waits for every committed record of the topic, then compares record by record. */
    private static Map<Integer, List<ConsumerRecord<byte[], byte[]>>> assertBackupComplete(Function<String, Store> stores, String name,
                                                                                          String topic, int partitions) {
        KeyRing ring = KeyRing.load(keys);
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(cluster.bootstrapServers(), topic);
        Map<Integer, Long> next = nextAfterLast(expected);
        cluster.awaitUnlessFailed(name, "chain " + name + " reaches " + next, WAIT)
                .until(() -> next.entrySet().stream().allMatch(e -> chain(stores, name, e.getKey(), ring).nextOffset()
                        .orElse(-1) >= e.getValue()));
        for (int p = 0; p < partitions; p++) {
            assertChainEquals(expected.get(p), readChain(stores, name, topic, p, ring));
            assertContiguous(chain(stores, name, p, ring), 0);
        }
        return expected;
    }

    private static void assertNoPlaintext(String object, byte[] bytes) {
        String latin1 = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(latin1).as(object + " holds plaintext").doesNotContain(MARKER).doesNotContain("card").doesNotContain("trace");
        assertThat(latin1).as(object + " starts and ends with PARE").startsWith("PARE").endsWith("PARE");
    }

    @Test
    void roundTripsOnTheFilesystemAndOnS3WithNoPlaintextInAnyObject() throws Exception {
        String topic = "enc-orders";
        cluster.kafka().createTopic(topic, 2);
        produceText(topic, 2, 0, 3000);
        Path root = Files.createDirectory(dir.resolve("fs"));
        cluster.deploy("enc-fs", encrypted(sinkConfig(topic, root, cluster.bootstrapServers()), "k1"));
        cluster.deploy("enc-s3", encrypted(s3Config(topic), "k1"));

        assertBackupComplete(name -> new FilesystemStore(root, name), "enc-fs", topic, 2);
        assertBackupComplete(s3Stores, "enc-s3", topic, 2);

        int objects = 0;
        for (int p = 0; p < 2; p++) {
            try (java.util.stream.Stream<Path> files = Files.list(root.resolve("enc-fs/" + p))) {
                for (Path f : files.toList()) {
                    assertThat(f.getFileName().toString()).matches("\\d{20}-\\d{20}\\.k-k1\\.parquet");
                    assertNoPlaintext(f.toString(), Files.readAllBytes(f));
                    objects++;
                }
            }
        }
        List<S3Object> s3Objects = admin.listObjectsV2(r -> r.bucket(BUCKET).prefix("enc-s3/")).contents();
        assertThat(s3Objects).isNotEmpty();
        for (S3Object o : s3Objects) {
            // chain objects, and the topic/group metadata snapshots beside them: every one sealed with k1
            assertThat(o.key()).matches("enc-s3/(\\d/\\d{20}-\\d{20}\\.k-k1\\.parquet|_meta/(topic|groups)/\\d{20}\\.k-k1\\.json)");
            byte[] bytes = admin.getObjectAsBytes(r -> r.bucket(BUCKET).key(o.key())).asByteArray();
            if (o.key().contains("/_meta/")) { // AES-GCM sealed JSON: neither the topic's name nor any JSON in clear
                assertThat(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1)).as(o.key() + " holds plaintext")
                        .doesNotContain(topic).doesNotContain("format_version");
            } else {
                assertNoPlaintext(o.key(), bytes);
            }
        }
        assertThat(objects).isGreaterThanOrEqualTo(4);
        cluster.delete("enc-fs");
        cluster.delete("enc-s3");
    }

    @Test
    void oneChainGoesPlainThenK1ThenK2ThenPlainAndAMissingOldKeyFailsListing() throws Exception {
        String topic = "enc-switch";
        String name = "enc-switch";
        cluster.kafka().createTopic(topic, 1);
        Path root = Files.createDirectory(dir.resolve("switch"));
        Map<String, String> plain = sinkConfig(topic, root, cluster.bootstrapServers());
        plain.put("encryption.keys.dir", keys.toString()); // none, with the keys to read what older configs encrypted
        Function<String, Store> stores = n -> new FilesystemStore(root, n);
        List<Map<String, String>> phases = List.of(sinkConfig(topic, root, cluster.bootstrapServers()),
                encrypted(sinkConfig(topic, root, cluster.bootstrapServers()), "k1"),
                encrypted(sinkConfig(topic, root, cluster.bootstrapServers()), "k2"), plain);
        List<String> keyIdsInOrder = new ArrayList<>();
        int produced = 0;
        for (Map<String, String> config : phases) {
            // Stopped while its config changes: records produced next are written by a task with the new settings (a
            // running task would keep consuming with the old ones until Connect restarts it).
            if (produced > 0) {
                cluster.connect().stopConnector(name);
                cluster.connect().assertions().assertConnectorIsStopped(name, "the connector did not stop");
            }
            cluster.deploy(name, config);
            if (produced > 0) {
                cluster.connect().resumeConnector(name);
            }
            cluster.awaitRunning(name, Duration.ofSeconds(60));
            produceText(topic, 1, produced, 500);
            produced += 500;
            assertBackupComplete(stores, name, topic, 1);
            String keyId = config.get("encryption.key.id");
            keyIdsInOrder.add(keyId == null ? "plain" : keyId);
        }
        assertThat(keyIdsInOrder).containsExactly("plain", "k1", "k2", "plain");
        List<String> runs = new ArrayList<>();
        for (ObjectName o : chain(stores, name, 0, KeyRing.load(keys)).objects()) {
            String id = o.keyId() == null ? "plain" : o.keyId();
            if (runs.isEmpty() || !runs.get(runs.size() - 1).equals(id)) {
                runs.add(id);
            }
        }
        assertThat(runs).as("the chain's objects, grouped by key id in offset order").containsExactly("plain", "k1", "k2", "plain");

        // Remove k1: listing fails naming it, and so does opening the partition, which is isolated (the key may come back).
        cluster.delete(name);
        Path parked = Files.move(keys.resolve("k1"), dir.resolve("k1-parked"));
        try {
            assertThatThrownBy(() -> chain(stores, name, 0, KeyRing.load(keys)))
                    .isInstanceOf(MissingKeysException.class).hasMessageContaining("[k1]");
            Map<String, String> k2Only = encrypted(sinkConfig(topic, root, cluster.bootstrapServers()), "k2");
            cluster.deploy(name + "-again", withName(k2Only, name));
            String note = cluster.awaitPartitionFailed(name + "-again", topic, 0, WAIT);
            assertThat(note).contains("[k1]", "missing from keys dir " + keys, "retried by itself");
            cluster.delete(name + "-again");
        } finally {
            Files.move(parked, keys.resolve("k1"));
        }
    }

    private static Map<String, String> withName(Map<String, String> c, String destinationName) {
        c.put("destination.name", destinationName);
        return c;
    }
}
