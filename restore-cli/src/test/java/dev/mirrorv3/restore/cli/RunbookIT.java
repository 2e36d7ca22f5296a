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
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
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
 * restore, the Kafka sink standby runbook, docs/restore-cli.md, the examples' posts; the marks: {@link RunbookBlocks})
 * against a real stack: the blob sink {@code orders-backup}, posted to a Connect worker by docs/blob-sink.md's command,
 * backs up {@code orders} and the group {@code billing} of the "old" cluster; the examples' own posts start their
 * connectors; the standby runbook mirrors the topic and the group to a third broker; the old cluster is stopped between
 * the drill's steps 1 and 2 (the disaster), and the restore steps run against a second, empty broker. After the blocks
 * the topics are read back and the group's offsets compared, by content.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RunbookIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARTITIONS = 6;
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
    private static KafkaTestBroker standby;
    private static Path root;
    /** The examples as in an operator's clone of the repository, with the test's hosts, roots and cadences. */
    private static Path clone;
    /** The operator's working directory of the runbooks, with orders-backup.json and orders-dr.json. */
    private static Path work;
    private static RunbookShell shell;

    @BeforeAll
    static void backUp() throws Exception {
        RequiredTools.require("curl", "to run the runbooks' calls to the Connect REST API", "Debian: apt-get install curl");
        old = ConnectTestCluster.start(1);
        fresh = KafkaTestBroker.start();
        standby = KafkaTestBroker.start();
        root = dir.resolve("backups");
        old.kafka().createTopic("orders", PARTITIONS, 1, Map.of());
        URI connect = URI.create(old.connect().endpointForResource("connectors"));
        shell = new RunbookShell(dir.resolve("shell"))
                .substitute("old-kafka:9092", old.bootstrapServers())
                .substitute("new-kafka:9092", fresh.bootstrapServers())
                .substitute("kafka:9092", fresh.bootstrapServers())
                .substitute("kafka-dr:9092", standby.bootstrapServers())
                .substitute("connect:8083", connect.getHost() + ":" + connect.getPort())
                .substitute("localhost:8083", connect.getHost() + ":" + connect.getPort());
        // The drill's backup is examples/blob-sink-filesystem.json (orders-backup), deployed by docs/blob-sink.md's command
        clone = dir.resolve("clone");
        copyExamples(clone.resolve("examples"));
        runScenario("deploy", clone);
        old.awaitRunning("orders-backup", WAIT);

        produce("a", 0, BEFORE);
        commitBilling(BILLING_BEFORE);
        awaitBackup(BEFORE, BILLING_BEFORE);
        // The point in time: after the snapshot with billing's first positions, before the later records.
        Instant pointInTime = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Thread.sleep(50);
        produce("b", BEFORE, AFTER);
        commitBilling(BILLING_AFTER);
        awaitBackup(BEFORE + AFTER, BILLING_AFTER);

        shell.substitute("2026-11-30T14:02:00Z", pointInTime.toString());

        work = Files.createDirectories(dir.resolve("operator"));
        Files.copy(clone.resolve("examples/blob-sink-filesystem.json"), work.resolve("orders-backup.json"));
        // validate's GitOps example reads connectors/*.json: the repository of connector configs, here the one backup
        Path connectors = Files.createDirectories(work.resolve("connectors"));
        Files.copy(work.resolve("orders-backup.json"), connectors.resolve("orders-backup.json"));
        // The standby runbook's orders-dr.json: the Kafka sink example with groups.sync, from the old cluster to the standby.
        Map<String, String> mirror = exampleConfig(clone.resolve("examples/kafka-sink/orders-dr.json"));
        mirror.put("groups.sync", "true");
        mirror.put("groups.interval.ms", "300");
        JSON.writerWithDefaultPrettyPrinter().writeValue(work.resolve("orders-dr.json").toFile(),
                Map.of("name", "orders-dr", "config", mirror));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : Arrays.asList(old, fresh, standby)) {
            if (c != null) {
                c.close();
            }
        }
    }

    /** validate offline on a GitOps folder of configs, then against the live store and clusters (before the disaster). */
    @Test
    @Order(0)
    void validateAcceptsTheBackupsConfigOfflineAndOnline() throws Exception {
        runScenario("validate", work);
    }

    /** The Kafka sink standby: its topic, the mirror with the groups, and after the catch-up the failover's two commands. */
    @Test
    @Order(1)
    void theStandbyRunbookMirrorsTheTopicAndTheGroupThenStopsTheMirror() throws Exception {
        runScenario("standby", work, (block, step) -> {
            if (step == 2) { // what the operator watches on the metrics: the standby caught up, the groups synced
                Awaitility.await("the standby has the records and billing's offsets").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                        .until(() -> values(standby, "orders").equals(expected(BEFORE + AFTER))
                                && billing(standby, "orders").equals(BILLING_AFTER));
            }
        });
        assertThat(old.connect().connectors()).as("the mirror deleted by the failover").doesNotContain("orders-dr");
        assertRecordsAndBilling(standby, "orders", BEFORE + AFTER, BILLING_AFTER);
    }

    /** The examples' own commands, posting them from a clone: each connector starts and runs (then goes, for the drill). */
    @Test
    @Order(2)
    void theExamplesPostedAsTheirReadmesSayRun() throws Exception {
        runScenario("examples", clone);
        for (String name : List.of("orders-dr", "orders-dual-backup")) {
            old.awaitRunning(name, WAIT);
            old.delete(name);
        }
    }

    /** The drill: status and verify on the live backup, delete the connector, the old cluster lost, preview, restore, check. */
    @Test
    @Order(3)
    void theDisasterRecoveryDrillRestoresTheTopicAndTheGroupOnANewCluster() throws Exception {
        runScenario("dr-drill", work, (block, step) -> {
            if (step == 2 && old != null) {
                assertThat(old.connect().connectors()).as("after step 1, " + block).doesNotContain("orders-backup");
                old.close(); // the disaster: the old cluster and its worker are gone from here on
                old = null;
            }
        });
        assertThat(old).as("the drill's step 2 ran, after the old cluster was stopped").isNull();
        assertRecordsAndBilling(fresh, "orders", BEFORE + AFTER, BILLING_AFTER);
    }

    /** Point in time: the cut checked with --verify-only, then the prefix and the group's earlier position in a new topic. */
    @Test
    @Order(4)
    void thePointInTimeRestoreTakesThePrefixAndTheGroupsEarlierPosition() throws Exception {
        runScenario("point-in-time", work);
        assertRecordsAndBilling(fresh, "orders-1402", BEFORE, BILLING_BEFORE);
        assertThat(work.resolve("orders-1402.json")).content(StandardCharsets.UTF_8).contains("groupOffsets", "billing");
    }

    /** The config object of an example connector (a REST body), to be adapted to the test's stack. */
    private static Map<String, String> exampleConfig(Path example) throws Exception {
        Map<String, Object> body = JSON.readValue(example.toFile(), new TypeReference<>() { });
        return new LinkedHashMap<>(JSON.convertValue(body.get("config"), new TypeReference<Map<String, String>>() { }));
    }

    private static void runScenario(String scenario, Path cwd) throws Exception {
        runScenario(scenario, cwd, (block, step) -> { });
    }

    /** What the test does before a numbered step of a block: what the runbook leaves to the world (a disaster, a wait). */
    private interface BeforeStep {
        void run(Block block, int step) throws Exception;
    }

    /** Runs the scenario's blocks in {@code cwd}, a block of an examples/ README in its folder there. */
    private static void runScenario(String scenario, Path cwd, BeforeStep beforeStep) throws Exception {
        for (Block block : RunbookBlocks.scenario(scenario)) {
            for (Step step : RunbookShell.steps(block.text())) {
                beforeStep.run(block, step.number());
                shell.run(block, step, cwd(block, cwd));
            }
        }
    }

    private static Path cwd(Block block, Path cwd) {
        return block.file().startsWith("examples/") ? cwd.resolve(block.file()).getParent() : cwd;
    }

    /**
     * The examples tree with each connector config's hosts and roots the test's (the source cluster is the old one, a
     * Kafka sink's destination the standby) and a blob sink's cadences short, so that the test need not wait for them.
     */
    private static void copyExamples(Path into) throws Exception {
        Path from = RunbookBlocks.REPO.resolve("examples");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(from)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        for (Path f : files) {
            Path to = into.resolve(from.relativize(f).toString());
            Files.createDirectories(to.getParent());
            if (!f.toString().endsWith(".json") || !JSON.readTree(f.toFile()).path("config").isObject()) {
                Files.copy(f, to);
                continue;
            }
            Map<String, String> c = exampleConfig(f);
            c.computeIfPresent("filesystem.root", (k, v) -> root.toString());
            c.computeIfPresent("source.admin.bootstrap.servers", (k, v) -> old.bootstrapServers());
            c.computeIfPresent("destination.bootstrap.servers", (k, v) -> standby.bootstrapServers());
            if (c.get("connector.class").endsWith(".BlobSinkConnector")) {
                c.putAll(Map.of("flush.max.records", "20", "flush.max.time.ms", "300", "metadata.interval.ms", "300",
                        "groups.interval.ms", "300"));
            }
            JSON.writerWithDefaultPrettyPrinter().writeValue(to.toFile(), Map.of("name", JSON.readTree(f.toFile()).path("name").asText(),
                    "config", c));
        }
    }

    /** The topic holds the first {@code records} values of each partition, and billing's offsets on it are {@code billing}. */
    private static void assertRecordsAndBilling(KafkaTestBroker broker, String topic, int records, Map<Integer, Long> billing)
            throws Exception {
        assertThat(values(broker, topic)).as(topic + " on " + broker.bootstrapServers()).isEqualTo(expected(records));
        assertThat(billing(broker, topic)).as("billing's offsets on " + topic).isEqualTo(billing);
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
                .pollInterval(Duration.ofMillis(200)).until(() -> IntStream.range(0, PARTITIONS).allMatch(p -> chainNext(p) == records)
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
    private static Map<Integer, List<String>> values(KafkaTestBroker broker, String topic) {
        Map<String, Object> c = Map.of("bootstrap.servers", broker.bootstrapServers(), "key.deserializer", ByteArrayDeserializer.class,
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

    private static Map<Integer, Long> billing(KafkaTestBroker broker, String topic) throws Exception {
        Map<Integer, Long> out = new TreeMap<>();
        broker.admin().listConsumerGroupOffsets("billing").partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS)
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
