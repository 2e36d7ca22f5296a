package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.SnapshotChain;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * compaction=log end to end with encryption=parquet: the blob sink backs a compacted topic up as encrypted snapshots,
 * {@code status} shows the newest one's keys and end, and {@code restore --offsets renumber} brings back a topic whose
 * key -> value map is the source's.
 */
class SnapshotBackupIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);

    @TempDir
    Path dir;

    @Test
    void anEncryptedSnapshotBackupRestoresTheTopicsLatestValuePerKey() throws Exception {
        String topic = "user-states";
        cluster.kafka().createTopic(topic, 1, 1, Map.of("cleanup.policy", "compact"));
        Random random = new Random(21);
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", cluster.bootstrapServers(),
                "key.serializer", ByteArraySerializer.class, "value.serializer", ByteArraySerializer.class))) {
            for (int i = 0; i < 12_000; i++) {
                byte[] value = random.nextInt(6) == 0 ? null : ("state-" + i).getBytes(StandardCharsets.UTF_8);
                p.send(new ProducerRecord<>(topic, 0, ("user-" + random.nextInt(3_000)).getBytes(StandardCharsets.UTF_8), value));
            }
        }
        TestRecords.PartitionContent source = TestRecords.readToEnd(cluster.bootstrapServers(), new TopicPartition(topic, 0),
                Duration.ofSeconds(60));
        Map<String, String> expected = TestBackups.newestValues(source.records());

        Path keys = TestBackups.keysWithK1(dir);
        Path root = Files.createDirectory(dir.resolve("backups"));
        Map<String, String> c = ConnectorConfigs.sink(ConnectorKind.BLOB_SINK.className(), topic, cluster.bootstrapServers());
        c.put("filesystem.root", root.toString());
        c.put("format", "parquet");
        c.put("compaction", "log");
        c.put("compaction.spill.dir", dir.resolve("spill").toString());
        c.put("flush.max.time.ms", "1000");
        c.put("encryption", "parquet");
        c.put("encryption.keys.dir", keys.toString());
        c.put("encryption.key.id", "k1");
        cluster.deploy("states-snapshots", c);

        FilesystemStore store = new FilesystemStore(root, "states-snapshots");
        long end = source.highWatermark() - 1;
        ObjectName newest = Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> newest(store), n -> n.isPresent() && n.get().to() == end).orElseThrow();
        assertThat(newest.keyId()).isEqualTo("k1");
        cluster.delete("states-snapshots");
        Path config = dir.resolve("states-snapshots.json");
        Files.writeString(config, JSON.writeValueAsString(Map.of("name", "states-snapshots", "config", c)));

        CliRun status = CliRun.run("status", "--connector-config", config.toString(), "--format", "json");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        JsonNode row = JSON.readTree(status.out()).get(0);
        assertThat(row.get("snapshot_keys").asLong()).isEqualTo(expected.size());
        assertThat(row.get("snapshot_to").asLong()).isEqualTo(end);
        assertThat(row.get("lag").asLong()).isZero();

        cluster.kafka().createTopic("user-states-restored", 1, 1, Map.of("cleanup.policy", "compact"));
        CliRun restore = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber",
                "--bootstrap-servers", cluster.bootstrapServers(), "--topic", "user-states-restored", "--progress", "none");
        assertThat(restore.exitCode()).as(restore.toString()).isZero();
        Map<String, String> got = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : TestRecords.readToEnd(cluster.bootstrapServers(),
                new TopicPartition("user-states-restored", 0), Duration.ofSeconds(60)).records()) {
            got.put(new String(r.key(), StandardCharsets.UTF_8), new String(r.value(), StandardCharsets.UTF_8));
        }
        assertThat(got).as("key -> value of the restored topic").isEqualTo(expected);
    }

    private static Optional<ObjectName> newest(FilesystemStore store) {
        return store.partitions().contains(0) ? SnapshotChain.validate(store.location(0), store.list(0)).newest() : Optional.empty();
    }
}
