package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.FailureNotes;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.TestConsumers;
import dev.mirrorv3.testsupport.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.awaitility.Awaitility;

/** Shared pieces of the chain source's integration tests: configs, backups written directly, topics, comparisons. */
final class ChainSourceTestSupport {
    static final EnvelopeSettings PARQUET = EnvelopeSettings.parquetBytes();
    static final EnvelopeCodec CODEC = EnvelopeCodecs.forSettings(PARQUET);
    static final long BASE_TS = 1_700_000_000_000L;

    private ChainSourceTestSupport() {
    }

    /** The real blob sink backing up {@code topic} under {@code root/name}. */
    static Map<String, String> sinkConfig(String topic, Path root, String name, String bootstrap) {
        Map<String, String> c = ConnectorConfigs.sink("dev.mirrorv3.connect.blob.BlobSinkConnector", topic, bootstrap);
        c.put("filesystem.root", root.toString());
        c.put("destination.name", name);
        c.put("flush.max.records", "500");
        c.put("flush.max.time.ms", "500");
        c.put("retry.backoff.initial.ms", "100");
        c.put("retry.backoff.max.ms", "1000");
        return c;
    }

    /** The chain source following {@code root/name} (a backup of {@code topic}) into {@code target}. */
    static Map<String, String> sourceConfig(String topic, Path root, String name, String target, String offsets, String bootstrap) {
        Map<String, String> c = ConnectorConfigs.chainSource(topic, target, offsets, bootstrap);
        c.put("tasks.max", "4");
        c.put("filesystem.root", root.toString());
        c.put("destination.name", name);
        c.put("poll.interval.ms", "500");
        c.put("retry.backoff.initial.ms", "200");
        c.put("retry.backoff.max.ms", "2000");
        return c;
    }

    /** The chain source's settings its offline checks read: orders restored from root/orders-backup with the given partitions. */
    static Map<String, String> offlineConfig(Path root, String partitions) {
        Map<String, String> c = new HashMap<>();
        c.put("topics", "orders");
        c.put("filesystem.root", root.toString());
        c.put("destination.name", "orders-backup");
        c.put("target.topic", "orders");
        c.put("offsets", "preserve");
        c.put("partitions", partitions);
        return c;
    }

    static void createTopic(String bootstrap, String topic, int partitions) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(Map.of("retention.ms", "-1"))))
                    .all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("cannot create " + topic, e);
        }
    }

    static long highWatermark(String bootstrap, String topic, int partition) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            TopicPartition tp = new TopicPartition(topic, partition);
            return admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp).get(30, TimeUnit.SECONDS).offset();
        } catch (Exception e) {
            throw new AssertionError("cannot read the high watermark of " + topic + "/" + partition, e);
        }
    }

    static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        return TestRecords.producer(bootstrap, 120_000, 60_000);
    }

    /** Records with keys and null keys, values and tombstones, headers; CreateTime timestamps. Waits for every ack. */
    static void produce(String bootstrap, String topic, int partitions, int perPartition, long seed) {
        Random random = new Random(seed);
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
            TestRecords.sendRounds(producer, partitions, perPartition, (p, i) -> record(topic, p, i, seed, random), Duration.ofSeconds(60));
        }
    }

    /** Record {@code i} of a partition: no key every 5th, no value every 7th, two headers (one null) every 3rd. */
    private static ProducerRecord<byte[], byte[]> record(String topic, int partition, int i, long seed, Random random) {
        byte[] key = i % 5 == 0 ? null : ("k" + seed + "-" + i).getBytes(StandardCharsets.UTF_8);
        byte[] value = i % 7 == 0 ? null : bytes(random, 20 + random.nextInt(100));
        RecordHeaders headers = new RecordHeaders();
        if (i % 3 == 0) {
            headers.add("h", bytes(random, 5));
            headers.add("h", null);
        }
        return new ProducerRecord<>(topic, partition, BASE_TS + i, key, value, headers);
    }

    static byte[] bytes(Random random, int n) {
        return TestRecords.bytes(random, n);
    }

    /** Backup records of {@code topic/partition} at the offsets in [from, to] that {@code present} accepts. */
    static List<BackupRecord> records(String topic, int partition, long from, long to, LongPredicate present) {
        List<BackupRecord> out = new ArrayList<>();
        for (long o = from; o <= to; o++) {
            if (present.test(o)) {
                List<RecordHeader> headers =
                        o % 3 == 0 ? List.of(new RecordHeader("h", ("v" + o).getBytes(StandardCharsets.UTF_8))) : List.of();
                out.add(new BackupRecord(topic, partition, o, BASE_TS + o, TimestampType.CREATE_TIME,
                        ("key-" + o).getBytes(StandardCharsets.UTF_8), ("value-" + o).getBytes(StandardCharsets.UTF_8), headers));
            }
        }
        return out;
    }

    /** Commits one object holding {@code records} named {@code from-to}, as the blob sink does. */
    static void writeObject(Store store, int partition, long from, long to, List<BackupRecord> records) {
        store.create(partition, ObjectName.plain(from, to, PARQUET.format()).fileName(), CODEC.encode(records));
    }

    /** Every record of the topic per partition. */
    static Map<Integer, List<ConsumerRecord<byte[], byte[]>>> consumeAll(String bootstrap, String topic) {
        return TestConsumers.readAll(bootstrap, topic, Map.of());
    }

    /** Each partition of {@code standby} holds the same records as {@code topic}'s, at the same offsets. */
    static void assertStandbyMirrors(String bootstrap, String topic, String standby, int partitions) {
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(bootstrap, topic);
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> actual = consumeAll(bootstrap, standby);
        for (int p = 0; p < partitions; p++) {
            assertSameRecords(expected.get(p), actual.get(p), true);
        }
    }

    /** Same offsets (preserve), keys, values, headers and timestamps, in order. */
    static void assertSameRecords(List<ConsumerRecord<byte[], byte[]>> expected, List<ConsumerRecord<byte[], byte[]>> actual,
            boolean sameOffsets) {
        assertThat(actual).as("records").hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            ConsumerRecord<byte[], byte[]> e = expected.get(i);
            ConsumerRecord<byte[], byte[]> a = actual.get(i);
            if (sameOffsets) {
                assertThat(a.offset()).as("offset of record %d", i).isEqualTo(e.offset());
            } else {
                assertThat(a.offset()).as("offset of record %d", i).isEqualTo(i);
            }
            assertThat(a.key()).as("key at %d", e.offset()).isEqualTo(e.key());
            assertThat(a.value()).as("value at %d", e.offset()).isEqualTo(e.value());
            assertThat(a.timestamp()).as("timestamp at %d", e.offset()).isEqualTo(e.timestamp());
            assertThat(headers(a)).as("headers at %d", e.offset()).isEqualTo(headers(e));
        }
    }

    static List<String> headers(ConsumerRecord<byte[], byte[]> r) {
        List<String> out = new ArrayList<>();
        for (Header h : r.headers()) {
            out.add(h.key() + "=" + (h.value() == null ? "null" : new String(h.value(), StandardCharsets.ISO_8859_1)));
        }
        return out;
    }

    /** The error messages validate() reports per setting. */
    /**
     * Waits until the chain source isolates backup partition {@code topic}-{@code partition}: its partition-failed series
     * is 1 and the failure notes on the target cluster (what mirror-v3 status shows) name target partition
     * {@code target}. Returns the note; fails at once if the task fails instead.
     */
    static String awaitPartitionFailed(ConnectTestCluster cluster, String connector, String topic, int partition, TopicPartition target,
                                       Duration timeout) {
        String[] note = new String[1];
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            FailureNotes notes = new FailureNotes(admin, FailureNotes.groupId(connector), Duration.ofSeconds(10));
            Awaitility.await(connector + " isolates " + topic + "-" + partition).atMost(timeout).pollInterval(Duration.ofMillis(250))
                    .failFast("the task of " + connector + " failed", () -> {
                        String trace = cluster.failureTrace(connector);
                        if (trace != null) {
                            throw new AssertionError("the task of " + connector + " FAILED instead of isolating " + topic + "-"
                                    + partition + ": " + trace.lines().filter(l -> l.startsWith("Caused by: ")).reduce((x, y) -> y)
                                    .orElse(trace));
                        }
                    })
                    .until(() -> {
                        note[0] = notes.read().get(target);
                        return cluster.partitionFailedGauge(connector, topic, partition) == 1 && note[0] != null;
                    });
        }
        return note[0];
    }

    static Map<String, List<String>> errors(org.apache.kafka.connect.runtime.rest.entities.ConfigInfos infos) {
        Map<String, List<String>> out = new TreeMap<>();
        infos.configs().forEach(ci -> {
            if (!ci.configValue().errors().isEmpty()) {
                out.put(ci.configKey() == null ? ci.configValue().name() : ci.configKey().name(), ci.configValue().errors());
            }
        });
        return out;
    }
}
