package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.TestRecords;
import dev.mirrorv3.testsupport.TestRecords.PartitionContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Point-in-time restores into a real broker (one per class): only the prefix is sent, and the report is the evidence. */
class PointInTimeRestoreIT {
    private static KafkaTestBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        broker = KafkaTestBroker.start();
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private Path root() {
        return dir.resolve("backups");
    }

    private static String iso(long offset) {
        return Instant.ofEpochMilli(TestBackups.BASE_TS + offset).toString();
    }

    @Test
    void timestampCutOfTwoPartitionsWithPreserveSendsOnlyThePrefixAndReportsWhatTheVerifyRunSaw() throws Exception {
        List<BackupRecord> p0 = new ArrayList<>();
        for (BackupRecord r : TestBackups.records("orders", 0, 0, 2999, o -> true)) { // a late-stamped record at 1700
            long ts = r.offset() == 1700 ? TestBackups.BASE_TS + 86_400_000L : r.timestampMs();
            p0.add(new BackupRecord(r.topic(), 0, r.offset(), ts, r.timestampType(), r.key(), r.value(), r.headers()));
        }
        List<BackupRecord> p1 = TestBackups.records("orders", 1, 0, 1999, o -> true);
        TestBackups.write(root(), "orders-backup", 0, 0, p0, 1000);
        TestBackups.write(root(), "orders-backup", 1, 0, p1, 800);
        String config = TestBackups.connectorJson(dir, "orders-backup", "orders", root()).toString();
        Path verifyReport = dir.resolve("verify.json");
        CliRun verify = CliRun.run("restore", "--connector-config", config, "--offsets", "preserve", "--verify-only",
                "--until-timestamp", iso(1800), "--report", verifyReport.toString(), "--progress", "none");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(highWatermarkOrMissing("orders-pitr")).as("verify-only writes nothing").isNull();

        broker.createTopic("orders-pitr", 2, Map.of("retention.ms", "-1"));
        Path drillReport = dir.resolve("drill.json");
        CliRun r = CliRun.run("restore", "--connector-config", config, "--offsets", "preserve", "--bootstrap-servers",
                broker.bootstrapServers(), "--topic", "orders-pitr", "--until-timestamp", iso(1800), "--report",
                drillReport.toString(), "--progress", "plain");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("up to offset 1699", "first excluded: offset 1700", "up to offset 1800", "first excluded: offset 1801",
                "restored: 3501 records into orders-pitr");
        assertPrefix("orders-pitr", 0, p0.subList(0, 1700), false);
        assertPrefix("orders-pitr", 1, p1.subList(0, 1801), false);

        PointInTimeRestoreTest.assertValid(drillReport);
        JsonNode drill = RestoreReport.read(drillReport);
        assertThat(drill.path("mode").asText()).isEqualTo("restore");
        assertThat(drill.path("target").path("topic").asText()).isEqualTo("orders-pitr");
        assertThat(drill.path("partitions").get(0).path("targetHighWatermarkBefore").asLong()).isZero();
        assertThat(drill.path("partitions").get(0).path("targetHighWatermarkAfter").asLong()).isEqualTo(1700);
        assertThat(drill.path("partitions").get(1).path("targetHighWatermarkAfter").asLong()).isEqualTo(1801);
        assertThat(drill.path("durationsMs").path("restore").asLong()).isPositive();
        CliRun compare = CliRun.run("compare-report", verifyReport.toString(), drillReport.toString());
        assertThat(compare.exitCode()).as(compare.toString()).isZero();
    }

    @Test
    void offsetCutOfAnEncryptedChainWithRenumber() throws Exception {
        Path keys = Files.createDirectories(dir.resolve("keys"));
        Files.writeString(keys.resolve("k1"), Base64.getEncoder().encodeToString(DecryptTest.K1));
        EnvelopeCodec encrypted = EnvelopeCodecs.forSettings(TestBackups.SETTINGS, new ObjectEncryption(KeyRing.load(keys), "k1"));
        List<BackupRecord> records = TestBackups.records("states", 0, 0, 1499, o -> o % 7 != 3); // holes; every object ends on a record
        FilesystemStore store = new FilesystemStore(root(), "states-backup");
        for (int from = 0; from < 1500; from += 500) {
            int f = from;
            List<BackupRecord> batch = records.stream().filter(x -> x.offset() >= f && x.offset() < f + 500).toList();
            ObjectName name = new ObjectName(from, batch.get(batch.size() - 1).offset(), TestBackups.SETTINGS.format(), "k1");
            store.create(0, name.fileName(), encrypted.encode(batch));
        }
        String config = TestBackups.connectorJson(dir, "states-backup", "states", root()).toString();
        broker.createTopic("states-pitr", 1, Map.of("retention.ms", "-1"));
        CliRun r = CliRun.run("restore", "--connector-config", config, "--keys-dir", keys.toString(), "--offsets", "renumber",
                "--bootstrap-servers", broker.bootstrapServers(), "--topic", "states-pitr", "--until-offset", "0:777", "--progress", "none");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<BackupRecord> prefix = records.stream().filter(x -> x.offset() <= 777).toList();
        assertThat(r.out()).contains("offsets: 0-777\nrecords: " + prefix.size() + "\n");
        assertPrefix("states-pitr", 0, prefix, true);
    }

    private static Long highWatermarkOrMissing(String topic) throws Exception {
        if (!broker.admin().listTopics().names().get().contains(topic)) {
            return null;
        }
        return TestRecords.readToEnd(broker.bootstrapServers(), new TopicPartition(topic, 0), Duration.ofSeconds(30)).highWatermark();
    }

    /** The whole partition read back to its high watermark: exactly the prefix, nothing after the cut. */
    private static void assertPrefix(String topic, int partition, List<BackupRecord> expected, boolean renumber) {
        PartitionContent content = TestRecords.readToEnd(broker.bootstrapServers(), new TopicPartition(topic, partition), Duration.ofSeconds(60));
        assertThat(content.highWatermark()).as("high watermark of %s-%d", topic, partition)
                .isEqualTo(renumber ? expected.size() : expected.get(expected.size() - 1).offset() + 1);
        List<ConsumerRecord<byte[], byte[]>> got = content.records();
        assertThat(got).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(got.get(i).offset()).isEqualTo(renumber ? i : expected.get(i).offset());
            assertThat(got.get(i).value()).as("value at %d", expected.get(i).offset()).isEqualTo(expected.get(i).value());
            assertThat(got.get(i).timestamp()).isEqualTo(expected.get(i).timestampMs());
        }
    }
}
