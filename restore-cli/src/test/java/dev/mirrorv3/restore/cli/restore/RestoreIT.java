package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.restore.KeptObjects;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.testsupport.TestRecords;
import dev.mirrorv3.testsupport.TestRecords.PartitionContent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** {@code restore} into a real broker (one per class): round trips, refusals, a foreign writer, a changed object. */
class RestoreIT extends RestoreIntoBrokerBase {
    private String config(String topic) throws Exception {
        return TestBackups.connectorJson(dir, topic + "-backup", topic, root()).toString();
    }

    private CliRun restore(String config, String target, String mode, String... extra) {
        return restoreWithHook(null, config, target, mode, extra);
    }

    private CliRun restoreWithHook(dev.mirrorv3.kafka.restore.RestoreOptions.PartitionHook hook, String config, String target,
            String mode, String... extra) {
        List<String> args = new ArrayList<>(List.of("restore", "--connector-config", config, "--offsets", mode,
                "--bootstrap-servers", broker.bootstrapServers(), "--topic", target, "--progress", "plain"));
        args.addAll(List.of(extra));
        return CliRun.runWithHook(hook, args.toArray(String[]::new));
    }

    @Test
    void preserveRoundTripOfTwoPartitions() throws Exception {
        List<BackupRecord> p0 = TestBackups.records("orders", 0, 0, 2999, o -> true);
        List<BackupRecord> p1 = TestBackups.records("orders", 1, 0, 1999, o -> true);
        TestBackups.write(root(), "orders-backup", 0, 0, p0, 1000);
        TestBackups.write(root(), "orders-backup", 1, 0, p1, 700);
        broker.createTopic("orders-restored", 2, Map.of("retention.ms", "-1"));
        CliRun r = restore(config("orders"), "orders-restored", "preserve");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("records: 3000", "records: 2000", "restored: 5000 records into orders-restored partitions [0, 1]");
        assertRestored("orders-restored", 0, p0, false, null);
        assertRestored("orders-restored", 1, p1, false, null);
    }

    @Test
    void renumberOfAChainWithHolesWritesZeroToNMinusOneWithTheOriginalOffsetHeader() throws Exception {
        List<BackupRecord> records = TestBackups.records("states", 0, 0, 2999, o -> o % 7 != 0 && o != 2998);
        TestBackups.write(root(), "states-backup", 0, 0, records, 1000);
        broker.createTopic("states-compacted", 1, Map.of("retention.ms", "-1", "cleanup.policy", "compact"));
        CliRun compacted = restore(config("states"), "states-compacted", "renumber");
        assertThat(compacted.exitCode()).as(compacted.toString()).isEqualTo(1);
        assertThat(compacted.err()).contains("the record at offset 5 of states/0 has no key", "Nothing was sent");
        broker.createTopic("states-restored", 1, Map.of("retention.ms", "-1"));
        CliRun r = restore(config("states"), "states-restored", "renumber", "--original-offset-header", "mirror-v3.offset");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("holes: " + (3000 - records.size()));
        assertRestored("states-restored", 0, records, true, "mirror-v3.offset");
    }

    @Test
    void preserveRefusesAHoleBeforeProducing() throws Exception {
        TestBackups.write(root(), "holes-backup", 0, 0, TestBackups.records("holes", 0, 0, 999, o -> o != 640), 500);
        broker.createTopic("holes-restored", 1, Map.of("retention.ms", "-1"));
        CliRun r = restore(config("holes"), "holes-restored", "preserve");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("the first hole is at offset 640");
        assertThat(highWatermark("holes-restored", 0)).isZero();
    }

    @Test
    void refusesANonEmptyTargetAMissingTopicAndTooFewPartitions() throws Exception {
        List<BackupRecord> p0 = backedUp("full", 99, 100);
        TestBackups.write(root(), "full-backup", 1, 0, TestBackups.records("full", 1, 0, 99, o -> true), 100);
        broker.createTopic("full-restored", 2, Map.of("retention.ms", "-1"));
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            p.send(new ProducerRecord<>("full-restored", 1, null, "x".getBytes(StandardCharsets.UTF_8))).get();
        }
        String config = config("full");
        CliRun r = restore(config, "full-restored", "preserve");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("target full-restored/1 is not empty (high watermark 1)", "delete the topic and create it again");
        assertThat(highWatermark("full-restored", 0)).isZero();

        CliRun missing = restore(config, "no-such-topic", "preserve");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(1);
        assertThat(missing.err()).contains("target topic no-such-topic does not exist", "never creates topics");

        broker.createTopic("one-partition", 1, Map.of("retention.ms", "-1"));
        CliRun few = restore(config, "one-partition", "preserve");
        assertThat(few.exitCode()).isEqualTo(1);
        assertThat(few.err()).contains("has 1 partitions, and the backup has partition 1");
        CliRun onlyZero = restore(config, "one-partition", "preserve", "--partition", "0");
        assertThat(onlyZero.exitCode()).as(onlyZero.toString()).isZero();
        assertRestored("one-partition", 0, p0, false, null);
    }

    @Test
    void smallMaxMessageBytesGivesMoreBatchesAndTheSameResultAndARecordAboveItIsRefusedBeforeSending() throws Exception {
        List<BackupRecord> records = backedUp("small", 1999, 1000);
        broker.createTopic("small-restored", 1, Map.of("retention.ms", "-1", "max.message.bytes", "4096"));
        CliRun r = restore(config("small"), "small-restored", "preserve");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        long largest = Long.parseLong(r.out().replaceAll("(?s).*batches of at most (\\d+) bytes.*", "$1"));
        assertThat(largest).isBetween(1L, 4096L);
        assertRestored("small-restored", 0, records, false, null);

        List<BackupRecord> big = new ArrayList<>(TestBackups.records("big", 0, 0, 99, o -> true));
        BackupRecord r57 = big.get(57);
        big.set(57, new BackupRecord("big", 0, 57, r57.timestampMs(), TimestampType.CREATE_TIME, r57.key(), new byte[5000], List.of()));
        TestBackups.write(root(), "big-backup", 0, 0, big, 100);
        broker.createTopic("big-restored", 1, Map.of("retention.ms", "-1", "max.message.bytes", "4096"));
        CliRun tooLarge = restore(config("big"), "big-restored", "preserve");
        assertThat(tooLarge.exitCode()).as(tooLarge.toString()).isEqualTo(1);
        assertThat(tooLarge.err()).contains("the record at offset 57 of big/0", "as a batch on its own, and target topic big-restored"
                + " takes at most 4096 (max.message.bytes)", "Nothing was sent");
        assertThat(highWatermark("big-restored", 0)).isZero();
    }

    @Test
    void aForeignWriterDuringTheRestoreIsDetected() throws Exception {
        backedUp("busy", 9999, 1000);
        broker.createTopic("busy-restored", 1, Map.of("retention.ms", "-1"));
        CliRun r = restoreWithHook(partition -> {
            try (KafkaProducer<byte[], byte[]> p = producer()) {
                p.send(new ProducerRecord<>("busy-restored", partition, null, "foreign".getBytes(StandardCharsets.UTF_8))).get();
            }
        }, config("busy"), "busy-restored", "preserve");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("target: sent for offset 1000, the broker stored it at busy-restored/0 offset 1001: another writer on"
                + " the partition, or a record lost or written twice. Records sent before this may still be stored: delete the topic"
                + " and create it again before restoring again");
    }

    @Test
    void partitionsAreSentAnObjectOfEachInTurnAndAChangedObjectStopsThemAll() throws Exception {
        List<ObjectName> p0 = TestBackups.write(root(), "turns-backup", 0, 0, TestBackups.records("turns", 0, 0, 2999, o -> true), 1000);
        TestBackups.write(root(), "turns-backup", 1, 0, TestBackups.records("turns", 1, 0, 2999, o -> true), 1000);
        broker.createTopic("turns-restored", 2, Map.of("retention.ms", "-1"));
        // partition 0's last object, the fifth in turn: read again well after partition 0's first object is acknowledged
        Path last = root().resolve("turns-backup/0").resolve(p0.get(2).fileName());
        System.setProperty(KeptObjects.BUDGET_PROPERTY, "0"); // nothing kept: every object is read again while producing
        try {
            CliRun r = restoreWithHook(partition -> {
                if (partition == 0) {
                    rewriteWithOneRecordChanged(last, "turns", 0, 2000, 2999);
                }
            }, config("turns"), "turns-restored", "preserve");
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
            // sent before it, in turn: 0/0-999, 1/0-999, 0/1000-1999, 1/1000-1999; nothing after it
            assertThat(r.err()).contains("after sending 4000 records: ", p0.get(2).fileName() + " changed since the verify pass");
            assertThat(highWatermark("turns-restored", 0)).isEqualTo(2000);
            assertThat(highWatermark("turns-restored", 1)).isEqualTo(2000);
        } finally {
            System.clearProperty(KeptObjects.BUDGET_PROPERTY);
        }
    }

    @Test
    void anObjectChangedBetweenTheVerifyAndTheProducePassStopsTheRestoreWhenItWasNotKept() throws Exception {
        List<ObjectName> names = TestBackups.write(root(), "moving-backup", 0, 0,
                TestBackups.records("moving", 0, 0, 2999, o -> true), 1000);
        broker.createTopic("moving-restored", 1, Map.of("retention.ms", "-1"));
        // the third object: the second may be read ahead while the first is sent, before the hook runs
        Path third = root().resolve("moving-backup/0").resolve(names.get(2).fileName());
        System.setProperty(KeptObjects.BUDGET_PROPERTY, "0"); // nothing kept: every object is read again while producing
        try {
            CliRun r = restoreWithHook(partition -> {
                rewriteWithOneRecordChanged(third, "moving", 0, 2000, 2999);
            }, config("moving"), "moving-restored", "preserve");
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).contains("after sending 2000 records: ", names.get(2).fileName() + " changed since the verify pass",
                    "delete the topic and create it again before restoring again");
        } finally {
            System.clearProperty(KeptObjects.BUDGET_PROPERTY);
        }
    }

    @Test
    void anObjectKeptFromTheVerifyPassIsRestoredAsVerifiedThoughItChangedSince() throws Exception {
        List<BackupRecord> records = TestBackups.records("kept", 0, 0, 2999, o -> true);
        List<ObjectName> names = TestBackups.write(root(), "kept-backup", 0, 0, records, 1000);
        broker.createTopic("kept-restored", 1, Map.of("retention.ms", "-1"));
        Path second = root().resolve("kept-backup/0").resolve(names.get(1).fileName());
        CliRun r = restoreWithHook(partition -> {
            rewriteWithOneRecordChanged(second, "kept", 0, 1000, 1999);
        }, config("kept"), "kept-restored", "preserve");
        assertThat(TestBackups.CODEC.decode(Files.readAllBytes(second), "changed").get(3).value()).as("the premise: the object changed")
                .containsExactly(1);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertRestored("kept-restored", 0, records, false, null);
    }

    @Test
    void retentionAndLogAppendTimeAreRefusedUnlessAccepted() throws Exception {
        List<BackupRecord> records = backedUp("old", 99, 100);
        String config = config("old");
        broker.createTopic("old-short", 1, Map.of("retention.ms", "3600000"));
        CliRun r = restore(config, "old-short", "preserve");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("retention.ms=3600000", "Set retention.ms=-1", "--accept-retention");
        broker.createTopic("old-append", 1, Map.of("retention.ms", "-1", "message.timestamp.type", "LogAppendTime"));
        CliRun a = restore(config, "old-append", "preserve");
        assertThat(a.exitCode()).as(a.toString()).isEqualTo(1);
        assertThat(a.err()).contains("message.timestamp.type=LogAppendTime", "--accept-log-append-time");
        CliRun accepted = restore(config, "old-short", "preserve", "--accept-retention");
        assertThat(accepted.exitCode()).as(accepted.toString()).isZero();
        assertRestored("old-short", 0, records, false, null);
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers(), "key.serializer", ByteArraySerializer.class,
                "value.serializer", ByteArraySerializer.class));
    }

    /**
     * Writes over {@code object} the records {@code from} to {@code last} of the topic's partition, the fourth with its key
     * dropped, timestamp 1 and value {1}: the same name and offsets, other bytes (an object replaced after the verify pass).
     */
    private static void rewriteWithOneRecordChanged(Path object, String topic, int partition, long from, long last) throws IOException {
        List<BackupRecord> changed = new ArrayList<>(TestBackups.records(topic, partition, from, last, o -> true));
        changed.set(3, new BackupRecord(topic, partition, from + 3, 1L, TimestampType.CREATE_TIME, null, new byte[] {1}, List.of()));
        Files.write(object, TestBackups.CODEC.encode(changed));
    }

    private static long highWatermark(String topic, int partition) throws Exception {
        TopicPartition tp = new TopicPartition(topic, partition);
        return broker.admin().listOffsets(Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.latest())).all().get().get(tp).offset();
    }

    /**
     * Reads the whole partition back (to its high watermark, so extras and duplicates fail) and compares it with the
     * backup's records (preserve: same offsets, high watermark = last offset + 1; renumber: 0..n-1, high watermark n).
     */
    /** Offsets 0 to {@code last} of the topic's partition 0 in its backup, {@code perObject} records an object; returns them. */
    private List<BackupRecord> backedUp(String topic, long last, int perObject) {
        List<BackupRecord> records = TestBackups.records(topic, 0, 0, last, o -> true);
        TestBackups.write(root(), topic + "-backup", 0, 0, records, perObject);
        return records;
    }

    private static void assertRestored(String topic, int partition, List<BackupRecord> expected, boolean renumber, String offsetHeader) {
        PartitionContent content = TestRecords.readToEnd(broker.bootstrapServers(), new TopicPartition(topic, partition),
                Duration.ofSeconds(60));
        List<ConsumerRecord<byte[], byte[]>> got = content.records();
        assertThat(got).as("records in %s-%d", topic, partition).hasSize(expected.size());
        long expectedHighWatermark = renumber ? expected.size() : expected.get(expected.size() - 1).offset() + 1;
        assertThat(content.highWatermark()).as("high watermark of %s-%d", topic, partition).isEqualTo(expectedHighWatermark);
        for (int i = 0; i < expected.size(); i++) {
            BackupRecord e = expected.get(i);
            ConsumerRecord<byte[], byte[]> g = got.get(i);
            assertThat(g.offset()).as("offset").isEqualTo(renumber ? i : e.offset());
            assertThat(g.key()).as("key at %d", e.offset()).isEqualTo(e.key());
            assertThat(g.value()).as("value at %d", e.offset()).isEqualTo(e.value());
            assertThat(g.timestamp()).isEqualTo(e.timestampMs());
            assertThat(g.timestampType()).isEqualTo(org.apache.kafka.common.record.TimestampType.CREATE_TIME);
            List<RecordHeader> headers = new ArrayList<>();
            for (Header h : g.headers()) {
                if (!h.key().equals(offsetHeader)) {
                    headers.add(new RecordHeader(h.key(), h.value()));
                }
            }
            assertThat(headers).as("headers at %d", e.offset()).isEqualTo(e.headers());
            if (offsetHeader != null) {
                assertThat(new String(g.headers().lastHeader(offsetHeader).value(), StandardCharsets.UTF_8))
                        .isEqualTo(Long.toString(e.offset()));
            }
        }
    }
}
