package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.restore.cli.RunbookBlocks.Block;
import dev.mirrorv3.restore.cli.RunbookShell.Step;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.RequiredTools;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runbooks' ```bash blocks run as written (docs/operations.md "Disaster recovery runbook" and its point-in-time
 * restore, docs/restore-cli.md; the marks: {@link RunbookBlocks}) against a real stack: the blob sink {@code orders-backup}
 * on a Connect worker backs up {@code orders} and the group {@code billing} of the "old" cluster, the old cluster is
 * stopped between the drill's steps 1 and 2 (the disaster), and the restore steps run against a second, empty broker.
 * After the blocks the restored topics are read back and the groups' offsets compared, by content.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RunbookIT {
    private static final Path EXAMPLE = RunbookBlocks.REPO.resolve("examples/blob-sink-filesystem.json");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARTITIONS = 2;
    /** Records per partition before the point in time ("the bad deploy") and after it. */
    private static final int BEFORE = 60;
    private static final int AFTER = 40;
    private static final Map<Integer, Long> BILLING_BEFORE = Map.of(0, 40L, 1, 25L);
    private static final Map<Integer, Long> BILLING_AFTER = Map.of(0, 90L, 1, 70L);
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    private static ConnectTestCluster old;
    private static KafkaTestBroker fresh;
    private static Path root;
    private static RunbookShell shell;

    @BeforeAll
    static void backUp() throws Exception {
        RequiredTools.require("curl", "to run the drill's curl -X DELETE of the connector", "Debian: apt-get install curl");
        old = ConnectTestCluster.start(1);
        fresh = KafkaTestBroker.start();
        root = dir.resolve("backups");
        old.kafka().createTopic("orders", PARTITIONS, 1, Map.of());
        // The drill's backup is examples/blob-sink-filesystem.json (orders-backup), its root and cluster the test's, and
        // its cadences short so that the test need not wait for the defaults.
        Map<String, Object> example = JSON.readValue(EXAMPLE.toFile(), new TypeReference<>() { });
        Map<String, String> c = new LinkedHashMap<>(
                JSON.convertValue(example.get("config"), new TypeReference<Map<String, String>>() { }));
        c.put("filesystem.root", root.toString());
        c.put("source.admin.bootstrap.servers", old.bootstrapServers());
        c.put("flush.max.records", "20");
        c.put("flush.max.time.ms", "300");
        c.put("metadata.interval.ms", "300");
        c.put("groups.interval.ms", "300");
        old.deploy("orders-backup", c);

        produce("a", 0, BEFORE);
        commitBilling(BILLING_BEFORE);
        awaitBackup(BEFORE, BILLING_BEFORE);
        // The point in time: after the snapshot with billing's first positions, before the later records.
        Instant pointInTime = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Thread.sleep(50);
        produce("b", BEFORE, AFTER);
        commitBilling(BILLING_AFTER);
        awaitBackup(BEFORE + AFTER, BILLING_AFTER);

        Path work = Files.createDirectories(dir.resolve("operator"));
        JSON.writerWithDefaultPrettyPrinter().writeValue(work.resolve("orders-backup.json").toFile(),
                Map.of("name", "orders-backup", "config", c));
        // validate's GitOps example reads connectors/*.json: the repository of connector configs, here the one backup
        Path connectors = Files.createDirectories(work.resolve("connectors"));
        Files.copy(work.resolve("orders-backup.json"), connectors.resolve("orders-backup.json"));
        URI connect = URI.create(old.connect().endpointForResource("connectors"));
        shell = new RunbookShell(work)
                .substitute("old-kafka:9092", old.bootstrapServers())
                .substitute("new-kafka:9092", fresh.bootstrapServers())
                .substitute("kafka:9092", fresh.bootstrapServers())
                .substitute("connect:8083", connect.getHost() + ":" + connect.getPort())
                .substitute("2026-11-30T14:02:00Z", pointInTime.toString());
    }

    @AfterAll
    static void stop() {
        if (old != null) {
            old.close();
        }
        if (fresh != null) {
            fresh.close();
        }
    }

    /** validate offline on a GitOps folder of configs, then against the live store and clusters (before the disaster). */
    @Test
    @Order(0)
    void validateAcceptsTheBackupsConfigOfflineAndOnline() throws Exception {
        runScenario("validate");
    }

    /** The drill: status and verify on the live backup, delete the connector, the old cluster lost, preview, restore, check. */
    @Test
    @Order(1)
    void theDisasterRecoveryDrillRestoresTheTopicAndTheGroupOnANewCluster() throws Exception {
        List<Block> blocks = RunbookBlocks.scenario("dr-drill");
        for (Block block : blocks) {
            for (Step step : RunbookShell.steps(block.text())) {
                if (step.number() == 2 && old != null) {
                    assertThat(old.connect().connectors()).as("after step 1, " + block).doesNotContain("orders-backup");
                    old.close(); // the disaster: the old cluster and its worker are gone from here on
                    old = null;
                }
                shell.run(block, step);
            }
        }
        assertThat(old).as("the drill's step 2 ran, after the old cluster was stopped").isNull();
        assertThat(values("orders")).isEqualTo(expected(BEFORE + AFTER));
        assertThat(billing("orders")).isEqualTo(BILLING_AFTER);
    }

    /** Point in time: the cut checked with --verify-only, then the prefix and the group's earlier position in a new topic. */
    @Test
    @Order(2)
    void thePointInTimeRestoreTakesThePrefixAndTheGroupsEarlierPosition() throws Exception {
        runScenario("point-in-time");
        assertThat(values("orders-1402")).isEqualTo(expected(BEFORE));
        assertThat(billing("orders-1402")).isEqualTo(BILLING_BEFORE);
        assertThat(shell.dir().resolve("orders-1402.json")).content(StandardCharsets.UTF_8).contains("groupOffsets", "billing");
    }

    private static void runScenario(String scenario) throws Exception {
        for (Block block : RunbookBlocks.scenario(scenario)) {
            for (Step step : RunbookShell.steps(block.text())) {
                shell.run(block, step);
            }
        }
    }

    private static void produce(String tag, int from, int count) {
        Map<String, Object> p = Map.of("bootstrap.servers", old.bootstrapServers(), "key.serializer", ByteArraySerializer.class,
                "value.serializer", ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int partition = 0; partition < PARTITIONS; partition++) {
                for (int i = from; i < from + count; i++) {
                    producer.send(new ProducerRecord<>("orders", partition, bytes("k" + i), bytes(value(tag, partition, i))));
                }
            }
        }
    }

    private static String value(String tag, int partition, int i) {
        return tag + "-" + partition + "-" + i;
    }

    /** Per partition the values produced before the cut ("a-…") and after it ("b-…"), up to {@code count} records. */
    private static Map<Integer, List<String>> expected(int count) {
        Map<Integer, List<String>> out = new TreeMap<>();
        for (int partition = 0; partition < PARTITIONS; partition++) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                values.add(value(i < BEFORE ? "a" : "b", partition, i));
            }
            out.put(partition, values);
        }
        return out;
    }

    private static void commitBilling(Map<Integer, Long> offsets) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
        offsets.forEach((p, o) -> m.put(new TopicPartition("orders", p), new OffsetAndMetadata(o)));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", old.bootstrapServers()))) {
            admin.alterConsumerGroupOffsets("billing", m).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static void awaitBackup(int records, Map<Integer, Long> billing) {
        MetaSnapshots meta = new MetaSnapshots(new FilesystemStore(root, "orders-backup"), ObjectEncryption.none());
        Awaitility.await("the backup of " + records + " records per partition and billing at " + billing).atMost(WAIT)
                .pollInterval(Duration.ofMillis(200)).until(() -> chainNext(0) == records && chainNext(1) == records
                        && meta.newestTopic().isPresent()
                        && meta.newestGroups().map(s -> positions(s.snapshot(), "billing")).filter(billing::equals).isPresent());
    }

    private static Map<Integer, Long> positions(GroupSnapshot s, String group) {
        Map<Integer, Long> out = new TreeMap<>();
        s.groups().getOrDefault(group, Map.of()).forEach((p, o) -> out.put(p, o.offset()));
        return out;
    }

    private static long chainNext(int partition) {
        FilesystemStore store = new FilesystemStore(root, "orders-backup");
        return store.list(partition).stream().map(ObjectName::parse).flatMap(Optional::stream).mapToLong(o -> o.to() + 1).max()
                .orElse(0);
    }

    /** The values of a topic on the new cluster, per partition in offset order. */
    private static Map<Integer, List<String>> values(String topic) {
        Map<String, Object> c = Map.of("bootstrap.servers", fresh.bootstrapServers(), "key.deserializer", ByteArrayDeserializer.class,
                "value.deserializer", ByteArrayDeserializer.class, "enable.auto.commit", false);
        Map<Integer, List<String>> out = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                tps.add(new TopicPartition(topic, p));
                out.put(p, new ArrayList<>());
            }
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> ends = consumer.endOffsets(tps);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    out.get(r.partition()).add(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
        }
        return out;
    }

    private static Map<Integer, Long> billing(String topic) throws Exception {
        Map<Integer, Long> out = new TreeMap<>();
        fresh.admin().listConsumerGroupOffsets("billing").partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS)
                .forEach((tp, o) -> {
                    if (tp.topic().equals(topic)) {
                        out.put(tp.partition(), o.offset());
                    }
                });
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
