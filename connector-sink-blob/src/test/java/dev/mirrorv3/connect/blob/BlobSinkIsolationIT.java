package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertBackupComplete;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertChainEquals;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertContiguous;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.chain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.createTopicWithRecords;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.producer;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.readChain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import dev.mirrorv3.chain.manifest.ManifestName;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.kafka.FailureNote;
import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.ObservabilityFiles;
import dev.mirrorv3.testsupport.TestRecords;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One bad partition stops only itself (docs/operations.md, "A failed partition"): each condition of one partition
 * isolates that partition, named by mirror_v3_partition_failed, by the offset the connector's group commits for it
 * (what mirror-v3 status shows) and by one log line, while the task and the other partitions go on and stay exact; the
 * failed partition is never written past its condition; the operator's retry, a restart of the connector's tasks
 * (restart?includeTasks=true, which also restarts a RUNNING task), resumes it once the cause is gone. A condition of the
 * task (credentials) still fails the task.
 */
class BlobSinkIsolationIT extends BlobSinkWorkerBase {
    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dir;

    static final PrometheusRegistry exporter = ObservabilityFiles.exporter();

    private static Map<String, String> config(TestDestination d, String topics) {
        Map<String, String> c = d.config(topics, cluster.bootstrapServers());
        c.put("flush.max.records", "10");
        c.put("chain.check.interval.ms", "1000");
        c.put("partition.retry.max.ms", "2000");
        return c;
    }

    /**
     * Creates a topic of two partitions with ten records each and deploys the connector on it: {@link #config} and one
     * setting on top.
     */
    private static void deployOnTwoPartitions(TestDestination d, String topic, String key, String value) {
        createTopicWithRecords(cluster, topic, 2, 10, 1);
        Map<String, String> config = config(d, topic);
        config.put(key, value);
        cluster.deploy(topic, config);
    }

    private static String name(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET).fileName();
    }

    private static List<String> isolationLines(LogCapture logs, String partition) {
        return logs.lines().stream().filter(l -> l.contains(partition + " FAILED and is isolated")).toList();
    }

    /** The operator's retry: every task of the connector restarted, the RUNNING one included. */
    private static void restartTasks(String connector) {
        cluster.connect().restartConnectorAndTasks(connector, false, true, false);
    }

    private static void awaitHealthy(String connector, String topic, int partition) {
        Awaitility.await(topic + "-" + partition + " healthy again").atMost(WAIT).pollInterval(Duration.ofMillis(250))
                .until(() -> cluster.partitionFailedGauge(connector, topic, partition) == 0
                        && FailureNote.HEALTHY.equals(cluster.committedOffsetMetadata(connector, topic, partition)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anotherWritersObjectIsolatesItsPartitionTheOthersCompleteAndARestartResumesItOnceRemoved(TestDestination d) {
        String topic = "isolate-foreign-" + d;
        createTopicWithRecords(cluster, topic, 3, 20, 1);
        try (LogCapture logs = LogCapture.attach()) {
            cluster.deploy(topic, config(d, topic));
            awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, 20L, 1, 20L, 2, 20L), WAIT);
            String foreign = name(20, 29);
            d.put(topic, 1, foreign, d.read(topic, 1, name(0, 9))); // another writer's object where partition 1 continues
            produceVaried(cluster.bootstrapServers(), topic, 3, 20, 2);

            String note = cluster.awaitPartitionFailed(topic, topic, 1, WAIT);
            assertThat(note).contains("partition FAILED since", "needs an operator", d.location(topic, 1, foreign));
            Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(cluster.bootstrapServers(), topic);
            awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, 40L, 2, 40L), WAIT);
            for (int p : List.of(0, 2)) {
                assertChainEquals(expected.get(p), readChain(d.stores(), topic, topic, p, PARQUET));
                assertContiguous(chain(d.stores(), topic, p, PARQUET), 0);
            }
            assertThat(d.list(topic, 1)).as("nothing written past the foreign object")
                    .containsExactlyInAnyOrder(name(0, 9), name(10, 19), foreign);
            assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
            // What Prometheus gets through the shipped config/jmx-exporter.yaml: the series of the alert MirrorV3PartitionFailed.
            String scrape = ObservabilityFiles.scrape(exporter);
            assertThat(ObservabilityFiles.mirrorSeries(scrape)).containsEntry("mirror_v3_partition_failed{mirror=\"" + topic
                    + "\",partition=\"1\",topic=\"" + topic + "\"}", 1.0)
                    .doesNotContainKey("mirror_v3_partition_failed{mirror=\"" + topic + "\",partition=\"0\",topic=\"" + topic + "\"}");
            assertThat(ObservabilityFiles.assertScrapeServesTheQueries(scrape, ObservabilityFiles::failureSeries))
                    .containsExactly("mirror_v3_partition_failed");
            List<String> lines = isolationLines(logs, topic + "-1");
            assertThat(lines).as("one log line, with what to do").hasSize(1);
            assertThat(lines.get(0)).contains(d.location(topic, 1, foreign), "restart?includeTasks=true");

            d.delete(topic, 1, foreign); // the operator removed the other writer's object
            restartTasks(topic);
            assertBackupComplete(cluster, d.stores(), topic, topic, 3, WAIT);
            awaitHealthy(topic, topic, 1);
            assertThat(isolationLines(logs, topic + "-1")).as("not failed again").hasSize(1);
            assertThat(ObservabilityFiles.mirrorSeries(ObservabilityFiles.scrape(exporter)).keySet())
                    .noneMatch(k -> k.startsWith("mirror_v3_partition_failed"));
        }
        cluster.delete(topic);
    }

    /**
     * A manifest problem of one partition isolates that partition only (docs/blob-sink.md, "Chain manifests"): an object a
     * manifest records that is gone and an older manifest changed after it was written are found by the periodic check's
     * probe while the partition writes; a manifest another writer put after the newest is found when the partition opens.
     * The healthy partition goes on and stays exact; the task stays RUNNING.
     */
    @Test
    void aManifestProblemIsolatesItsPartitionOnly() throws Exception {
        TestDestination d = destinations.filesystem();
        String topic = "isolate-manifests";
        cluster.kafka().createTopic(topic, 4);
        Map<String, String> config = config(d, topic);
        for (int run = 1; run <= 2; run++) { // two runs, each closing its partitions: manifests 0-19 and 20-39 of each
            produceVaried(cluster.bootstrapServers(), topic, 4, 20, run);
            cluster.deploy(topic, config);
            long next = 20L * run;
            awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, next, 1, next, 2, next, 3, next), WAIT);
            cluster.delete(topic);
            Awaitility.await(topic + "'s task gone").atMost(WAIT).until(() -> !cluster.connect().connectors().contains(topic));
        }
        String older = new ManifestName(0, 19).fileName();
        String newest = new ManifestName(20, 39).fileName();
        String foreign = new ManifestName(40, 59).fileName();
        try (FilesystemStore store = (FilesystemStore) d.store(topic)) {
            for (int p = 0; p < 4; p++) {
                assertThat(store.listBeside(ManifestName.dir(p))).as("the premise: partition %d's manifests", p)
                        .containsExactly(older, newest);
            }
            d.delete(topic, 1, name(20, 29)); // an object manifest 20-39 records, gone
            Path changed = store.besideDir(ManifestName.dir(2)).resolve(older);
            String json = Files.readString(changed);
            int at = json.indexOf("\"sha256\":\"") + 10;
            Files.writeString(changed, json.substring(0, at) + (json.charAt(at) == '0' ? '1' : '0') + json.substring(at + 1));
            Files.write(store.besideDir(ManifestName.dir(3)).resolve(foreign), store.readBeside(ManifestName.dir(3), newest));
            assertThat(store.list(1)).as("the premise: object 20-29 gone").doesNotContain(name(20, 29));
            assertThat(ManifestCodec.sha256(store.readBeside(ManifestName.dir(2), older)))
                    .as("the premise: manifest 0-19 of partition 2 changed")
                    .isNotEqualTo(ManifestCodec.sha256(store.readBeside(ManifestName.dir(1), older)));
        }

        cluster.deploy(topic, config);
        long seed = 10;
        while (Stream.of(1, 2, 3).anyMatch(p -> cluster.partitionFailedGauge(topic, topic, p) != 1)) {
            assertThat(seed).as("partitions 1-3 isolated within %s", WAIT).isLessThan(10 + WAIT.toSeconds() * 2);
            produceVaried(cluster.bootstrapServers(), topic, 4, 5, seed++); // a partition that writes is checked
            Thread.sleep(500);
        }
        assertThat(cluster.awaitPartitionFailed(topic, topic, 1, WAIT)).contains(d.location(topic, 1, name(20, 29)), "is gone",
                newest);
        assertThat(cluster.awaitPartitionFailed(topic, topic, 2, WAIT)).contains(older, "was changed after it was written");
        assertThat(cluster.awaitPartitionFailed(topic, topic, 3, WAIT)).contains(foreign, "is not this partition's manifest");
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(cluster.bootstrapServers(), topic);
        awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, (long) expected.get(0).size()), WAIT);
        assertChainEquals(expected.get(0), readChain(d.stores(), topic, topic, 0, PARQUET));
        assertThat(cluster.partitionFailedGauge(topic, topic, 0)).isZero();
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        cluster.delete(topic);
    }

    /**
     * An old task instance that Connect gave up on (its stop timed out) closes partition 1 after the live task opened it: its
     * last object and the manifest recording it land after the live writer's tail, while the live task buffers the same
     * records. The live partition is not left for an operator: it is opened again by itself from the chain's new end, the
     * other partition never stops, and the backup is exact.
     */
    @Test
    void anOldInstancesLastObjectAndItsManifestAfterTheLiveTailReopenThePartitionByItself() throws Exception {
        TestDestination d = destinations.filesystem();
        String topic = "isolate-moved-on";
        cluster.kafka().createTopic(topic, 2);
        produceTo(topic, 0, 0, 10);
        produceTo(topic, 1, 0, 10);
        Map<String, String> config = config(d, topic);
        config.put("flush.max.records", "1000");
        config.put("flush.max.time.ms", "8000"); // the live task's next object waits: the old instance's lands first
        try (LogCapture logs = LogCapture.attach(); FilesystemStore store = (FilesystemStore) d.store(topic)) {
            cluster.deploy(topic, config);
            awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, 10L, 1, 10L), WAIT);
            restartTasks(topic); // the close writes the manifest of 0-9: the live task opens on it
            Awaitility.await("manifest 0-9 of partition 1").atMost(WAIT)
                    .until(() -> store.listBeside(ManifestName.dir(1)).contains(new ManifestName(0, 9).fileName()));
            Awaitility.await("the restarted task positioned").atMost(WAIT)
                    .until(() -> logs.lines().stream().filter(l -> l.contains("starting mirror " + topic + "-1")).count() >= 2);

            ChainWriter old = new ChainWriter(store, 1, EnvelopeCodecs.forSettings(PARQUET), new FlushPolicy(1000, 1 << 24, 60_000),
                    Clock.systemUTC(), new ChainReader(store, PARQUET).head(1), 10);
            produceTo(topic, 1, 10, 10);
            for (ConsumerRecord<byte[], byte[]> r : consumeAll(cluster.bootstrapServers(), topic).get(1).subList(10, 20)) {
                old.append(new BackupRecord(topic, 1, r.offset(), r.timestamp(), TimestampType.CREATE_TIME, r.key(), r.value(), List.of()));
            }
            old.flush(FlushTrigger.CLOSE);
            old.manifests().writeWaiting();
            assertThat(store.list(1)).as("the premise: the old instance's object landed first").containsExactly(name(0, 9), name(10, 19));

            String line = Awaitility.await(topic + "-1 isolated for the chain moving on").atMost(WAIT)
                    .until(() -> isolationLines(logs, topic + "-1"), l -> !l.isEmpty()).get(0);
            assertThat(line).contains(name(10, 19), "recorded by", "opened again from its new end", "can clear by itself");
            produceTo(topic, 0, 10, 10);
            produceTo(topic, 1, 20, 10);
            assertBackupComplete(cluster, d.stores(), topic, topic, 2, WAIT);
            awaitHealthy(topic, topic, 1);
            assertContiguous(chain(d.stores(), topic, 1, PARQUET), 0);
            assertThat(store.list(1)).as("the live task went on after the old instance's object").contains(name(10, 19))
                    .anyMatch(n -> n.startsWith(ObjectName.pad(20)));
            assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        }
        cluster.delete(topic);
    }

    /** Records whose values are not UTF-8 while values.type=utf8: the object holding one cannot be encoded. */
    @Test
    void aRecordThatCannotBeConvertedIsolatesItsPartitionOnly() {
        TestDestination d = destinations.filesystem();
        String topic = "isolate-utf8";
        cluster.kafka().createTopic(topic, 3);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            for (int p = 0; p < 3; p++) {
                byte[] value = p == 2 && i == 20 ? new byte[] {(byte) 0xff, (byte) 0xfe} : utf8("value " + p + "/" + i);
                records.add(new ProducerRecord<>(topic, p, utf8("k" + i), value));
            }
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(cluster.bootstrapServers())) {
            TestRecords.sendAll(producer, records, Duration.ofSeconds(60));
        }
        Map<String, String> config = config(d, topic);
        config.put("values.type", "utf8");
        cluster.deploy(topic, config);

        String note = cluster.awaitPartitionFailed(topic, topic, 2, WAIT);
        assertThat(note).contains("topic " + topic + " partition 2 offset 20", "is not valid UTF-8", "values.type");
        EnvelopeSettings utf8 = new EnvelopeSettings(EnvelopeFormat.PARQUET, PARQUET.compression(), PARQUET.keysType(), ValueType.UTF8);
        awaitChainNext(cluster, d.stores(), topic, utf8, Map.of(0, 30L, 1, 30L), WAIT);
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(cluster.bootstrapServers(), topic);
        for (int p : List.of(0, 1)) {
            assertChainEquals(expected.get(p), readChain(d.stores(), topic, topic, p, utf8));
        }
        List<BackupRecord> failed = readChain(d.stores(), topic, topic, 2, utf8);
        assertThat(failed.size()).as("nothing written past the record").isLessThanOrEqualTo(20);
        assertChainEquals(expected.get(2).subList(0, failed.size()), failed);
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        cluster.delete(topic);
    }

    /**
     * A chain that names a key id the keys dir lacks (an old key not mounted on this worker yet): its partition is
     * isolated and opened again on its own backoff; once the key file is there, it continues. The other partitions'
     * chains hold no object of that key and go on.
     */
    @Test
    void aMissingKeyIdIsolatesItsPartitionUntilTheKeyFileAppears() throws Exception {
        String topic = "isolate-key";
        Path root = Files.createDirectories(dir.resolve("keys-root"));
        Path keys = Files.createDirectories(dir.resolve("keys"));
        SecureRandom random = new SecureRandom();
        String k1 = key(random);
        Files.writeString(keys.resolve("k1"), k1);
        Files.writeString(keys.resolve("k2"), key(random));
        cluster.kafka().createTopic(topic, 3);
        produceTo(topic, 1, 0, 10); // only partition 1's chain gets objects of k1
        Map<String, String> config = BlobSinkTestSupport.sinkConfig(topic, root, cluster.bootstrapServers());
        config.put("flush.max.records", "10");
        config.put("partition.retry.max.ms", "2000");
        config.put("encryption", "parquet");
        config.put("encryption.keys.dir", keys.toString());
        config.put("encryption.key.id", "k1");
        cluster.deploy(topic, config);
        Awaitility.await("partition 1 backed up with k1").atMost(WAIT).ignoreExceptions()
                .until(() -> chainNext(root, topic, 1, keys) == 10);
        // Rotated to k2: the topic's metadata snapshots are written with k2 from then on; k1 is then taken off the worker
        // too soon, while partition 1's chain still holds objects of it.
        config.put("encryption.key.id", "k2");
        config.put("metadata.interval.ms", "500");
        cluster.deploy(topic, config);
        try (Admin admin = cluster.kafka().createAdminClient()) { // changed metadata: snapshotted again, now with k2
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(new AlterConfigOp(
                    new ConfigEntry("retention.ms", "86400000"), AlterConfigOp.OpType.SET)))).all().get();
        }
        Path topicSnapshots = root.resolve(topic).resolve("_meta").resolve("topic");
        Awaitility.await("a topic snapshot written with k2").atMost(WAIT).until(() -> {
            try (Stream<Path> files = Files.list(topicSnapshots)) {
                return files.anyMatch(f -> f.getFileName().toString().contains(".k-k2."));
            }
        });
        cluster.stop(topic, WAIT);
        Files.delete(keys.resolve("k1"));
        cluster.connect().resumeConnector(topic);
        for (int p = 0; p < 3; p++) {
            produceTo(topic, p, 10, 10);
        }

        String note = cluster.awaitPartitionFailed(topic, topic, 1, WAIT);
        assertThat(note).contains("retried by itself", "key ids [k1]", "missing");
        Awaitility.await("the other partitions go on").atMost(WAIT).ignoreExceptions()
                .until(() -> chainNext(root, topic, 0, keys) == 10 && chainNext(root, topic, 2, keys) == 10);
        assertThat(cluster.partitionFailedGauge(topic, topic, 1)).as("still failed: k1 is missing").isEqualTo(1);

        Files.writeString(keys.resolve("k1"), k1); // the key file is mounted: the next attempt finds it
        Awaitility.await("partition 1 continues by itself").atMost(WAIT).ignoreExceptions()
                .failFast("the task failed", () -> cluster.failureTrace(topic) != null)
                .until(() -> chainNext(root, topic, 1, keys) == 20);
        awaitHealthy(topic, topic, 1);
        cluster.delete(topic);
    }

    private static String key(SecureRandom random) {
        byte[] k = new byte[32];
        random.nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }

    private static void produceTo(String topic, int partition, int from, int count) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            records.add(new ProducerRecord<>(topic, partition, utf8("k" + i), utf8("v" + i)));
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(cluster.bootstrapServers())) {
            TestRecords.sendAll(producer, records, Duration.ofSeconds(60));
        }
    }

    /** The next offset of an encrypted chain (0 when empty), read with the keys as they are in the keys dir. */
    private static long chainNext(Path root, String name, int partition, Path keys) {
        try (FilesystemStore store = new FilesystemStore(root, name)) {
            return new ChainReader(store, PARQUET, KeyRing.load(keys)).listChain(partition, OptionalLong.empty()).nextOffset()
                    .orElse(0);
        }
    }

    /**
     * Topic a deleted and created again under a stopped connector that also backs up topic b: every partition of a is
     * isolated (nothing of the new topic is written), b goes on.
     */
    @Test
    void aRecreatedSourceTopicIsolatesThatTopicsPartitionsOnly() {
        TestDestination d = destinations.filesystem();
        String a = "isolate-recreated-a";
        String b = "isolate-recreated-b";
        String name = "isolate-recreated";
        cluster.kafka().createTopic(a, 2);
        cluster.kafka().createTopic(b, 1);
        produceVaried(cluster.bootstrapServers(), a, 2, 20, 1);
        produceVaried(cluster.bootstrapServers(), b, 1, 20, 2);
        Map<String, String> config = config(d, a + "," + b);
        config.put("destination.name", name + "-${topic}");
        cluster.deploy(name, config);
        awaitChainNext(cluster, d.stores(), name + "-" + a, PARQUET, Map.of(0, 20L, 1, 20L), WAIT);
        awaitChainNext(cluster, d.stores(), name + "-" + b, PARQUET, Map.of(0, 20L), WAIT);
        cluster.stop(name, WAIT);
        cluster.kafka().deleteTopic(a);
        createTopicWithRecords(cluster, a, 2, 40, 3);
        produceVaried(cluster.bootstrapServers(), b, 1, 20, 4);
        cluster.connect().resumeConnector(name);

        for (int p = 0; p < 2; p++) {
            assertThat(cluster.awaitPartitionFailed(name, a, p, WAIT)).contains("source topic " + a + " was deleted and created again",
                    "Nothing of the new topic was written");
        }
        awaitChainNext(cluster, d.stores(), name + "-" + b, PARQUET, Map.of(0, 40L), WAIT);
        assertChainEquals(consumeAll(cluster.bootstrapServers(), b).get(0), readChain(d.stores(), name + "-" + b, b, 0, PARQUET));
        for (int p = 0; p < 2; p++) {
            assertThat(chain(d.stores(), name + "-" + a, p, PARQUET).nextOffset()).as("nothing of the new topic").hasValue(20);
        }
        assertThat(cluster.taskState(name)).isEqualTo("RUNNING");
        cluster.delete(name);
    }

    /** With partition.failure=task a condition of one partition fails the task, as before isolation existed. */
    @Test
    void withPartitionFailureTaskAnotherWritersObjectFailsTheTask() {
        TestDestination d = destinations.filesystem();
        String topic = "isolate-off";
        deployOnTwoPartitions(d, topic, "partition.failure", "task");
        awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, 10L, 1, 10L), WAIT);
        d.put(topic, 1, name(10, 19), d.read(topic, 1, name(0, 9)));
        produceVaried(cluster.bootstrapServers(), topic, 2, 10, 2);
        assertThat(cluster.awaitTaskFailure(topic, WAIT)).contains(d.location(topic, 1, name(10, 19)));
        assertThat(cluster.partitionFailedGauge(topic, topic, 1)).isZero();
        cluster.delete(topic);
    }

    /** Credentials S3 does not accept are the task's condition: the task fails naming the identity, no partition is isolated. */
    @Test
    void badCredentialsStillFailTheTask() {
        TestDestination d = destinations.s3();
        String topic = "isolate-credentials";
        deployOnTwoPartitions(d, topic, "s3.write.secret.access.key", "not-the-writer-secret");
        String trace = cluster.awaitTaskFailure(topic, WAIT);
        assertThat(trace).contains("does not accept the credentials of", "s3.write.access.key.id")
                .doesNotContain("not-the-writer-secret");
        cluster.delete(topic);
    }
}
