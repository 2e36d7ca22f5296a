package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.TestConsumers;
import dev.mirrorv3.testsupport.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/** Shared pieces of the blob sink's integration tests: configs, data, reading chains back, comparing. */
final class BlobSinkTestSupport {

    private BlobSinkTestSupport() {
    }

    /** A valid config for the real connector class. */
    static Map<String, String> sinkConfig(String topic, Path root, String bootstrap) {
        return sinkConfig(BlobSinkConnector.class.getName(), topic, root, bootstrap);
    }

    static Map<String, String> sinkConfig(String connectorClass, String topic, Path root, String bootstrap) {
        Map<String, String> c = ConnectorConfigs.sink(connectorClass, topic, bootstrap);
        c.put("filesystem.root", root.toString());
        ConnectorConfigs.with(c, "flush.max.records", "1000", "flush.max.time.ms", "1000", "retry.backoff.initial.ms", "100",
                "retry.backoff.max.ms", "1000", "chain.check.interval.ms", "2000", "heartbeat.interval.ms", "5000");
        return c;
    }

    /** Cuts an object after {@code maxRecords} records or {@code maxTimeMs} milliseconds, whichever comes first. */
    static void flushAt(Map<String, String> config, int maxRecords, long maxTimeMs) {
        config.put("flush.max.records", Integer.toString(maxRecords));
        config.put("flush.max.time.ms", Long.toString(maxTimeMs));
    }

    /**
     * The config of a task a unit test drives by hand ({@link BlobSinkTaskPauseTest}, {@link BlobSinkTeeTaskTest}): no
     * time trigger, no periodic chain check, no heartbeat line and no lag refresh, so that only the test moves it.
     */
    static Map<String, String> handDrivenTaskConfig(String topic, Path root, String bootstrap) {
        Map<String, String> c = sinkConfig(topic, root, bootstrap);
        c.put("flush.max.time.ms", "600000");
        c.put("chain.check.interval.ms", "600000");
        c.put("heartbeat.interval.ms", "0");
        c.put("source.lag.interval.ms", "0");
        return c;
    }

    static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        // A minute is enough for a busy CI machine and bounds a stuck batch (10 minutes made a test take 10).
        return TestRecords.producer(bootstrap, 60_000, 30_000);
    }

    /**
     * Produces records with everything a record can carry: keys and null keys, values, tombstones and empty
     * values, headers (duplicate keys, null values). Deterministic per seed.
     */
    static void produceVaried(String bootstrap, String topic, int partitions, int perPartition, long seed) {
        Random random = new Random(seed);
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
            TestRecords.sendRounds(producer, partitions, perPartition, (p, i) -> variedRecord(topic, p, i, random), Duration.ofSeconds(60));
        }
    }

    /** Creates the topic and fills each of its partitions with {@code perPartition} records of {@link #produceVaried}. */
    static void createTopicWithRecords(ConnectTestCluster cluster, String topic, int partitions, int perPartition, long seed) {
        cluster.kafka().createTopic(topic, partitions);
        produceVaried(cluster.bootstrapServers(), topic, partitions, perPartition, seed);
    }

    static ProducerRecord<byte[], byte[]> variedRecord(String topic, int partition, int i, Random random) {
        return TestRecords.varied(topic, partition, i, random, null);
    }

    static byte[] bytes(Random random, int n) {
        return TestRecords.bytes(random, n);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Every committed record of the topic, per partition, read with a read_committed consumer. */
    static Map<Integer, List<ConsumerRecord<byte[], byte[]>>> consumeAll(String bootstrap, String topic) {
        return TestConsumers.readAll(bootstrap, topic, Map.of("isolation.level", "read_committed"));
    }

    static ChainReader reader(Path root, String name, EnvelopeSettings settings) {
        return new ChainReader(new FilesystemStore(root, name), settings);
    }

    /** The filesystem destination under {@code root}, as a function of the destination name. */
    static Function<String, Store> filesystem(Path root) {
        return name -> new FilesystemStore(root, name);
    }

    static Chain chain(Path root, String name, int partition, EnvelopeSettings settings) {
        return chain(filesystem(root), name, partition, settings);
    }

    static Chain chain(Function<String, Store> stores, String name, int partition, EnvelopeSettings settings) {
        try (Store store = stores.apply(name)) {
            return new ChainReader(store, settings).listChain(partition, OptionalLong.empty());
        }
    }

    /** Every record of a partition's chain, each object read and checked against its name. */
    static List<BackupRecord> readChain(Path root, String name, String topic, int partition, EnvelopeSettings settings) {
        return readChain(filesystem(root), name, topic, partition, settings);
    }

    static List<BackupRecord> readChain(Function<String, Store> stores, String name, String topic, int partition,
                                        EnvelopeSettings settings) {
        try (Store store = stores.apply(name)) {
            ChainReader reader = new ChainReader(store, settings);
            List<BackupRecord> records = new ArrayList<>();
            Chain chain = reader.listChain(partition, OptionalLong.empty());
            for (ObjectName o : chain.objects()) {
                records.addAll(reader.read(partition, o, topic).records());
            }
            return records;
        }
    }

    /** Waits until each partition's chain reaches the given next offset. */
    static void awaitChainNext(ConnectTestCluster cluster, Path root, String name, EnvelopeSettings settings,
                               Map<Integer, Long> nextOffsets, Duration timeout) {
        awaitChainNext(cluster, filesystem(root), name, settings, nextOffsets, timeout);
    }

    static void awaitChainNext(ConnectTestCluster cluster, Function<String, Store> stores, String name, EnvelopeSettings settings,
                               Map<Integer, Long> nextOffsets, Duration timeout) {
        awaitChainsNext(cluster, name, p -> chain(stores, name, p, settings), nextOffsets, timeout);
    }

    /**
     * Waits until each partition's chain, as {@code chainOf} lists it (with the envelope settings or key ring it needs),
     * reaches the given next offset; fails at once when the connector {@code name} fails.
     */
    static void awaitChainsNext(ConnectTestCluster cluster, String name, IntFunction<Chain> chainOf, Map<Integer, Long> nextOffsets,
                                Duration timeout) {
        cluster.awaitUnlessFailed(name, "chain " + name + " reaches " + nextOffsets, timeout)
                .until(() -> nextOffsets.entrySet().stream().allMatch(e ->
                        chainOf.apply(e.getKey()).nextOffset().orElse(-1) >= e.getValue()));
    }

    /**
     * Waits until the backup holds every committed record of the topic, then checks it record by record and that each
     * chain is contiguous from offset 0.
     */
    static void assertBackupComplete(ConnectTestCluster cluster, Function<String, Store> stores, String name, String topic,
                                     int partitions, Duration timeout) {
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(cluster.bootstrapServers(), topic);
        awaitChainNext(cluster, stores, name, EnvelopeSettings.parquetBytes(), nextAfterLast(expected), timeout);
        for (int p = 0; p < partitions; p++) {
            assertChainEquals(expected.get(p), readChain(stores, name, topic, p, EnvelopeSettings.parquetBytes()));
            assertContiguous(chain(stores, name, p, EnvelopeSettings.parquetBytes()), 0);
        }
    }

    /** The offset after each partition's last committed record. */
    static Map<Integer, Long> nextAfterLast(Map<Integer, List<ConsumerRecord<byte[], byte[]>>> records) {
        Map<Integer, Long> next = new TreeMap<>();
        records.forEach((p, rs) -> {
            if (!rs.isEmpty()) {
                next.put(p, rs.get(rs.size() - 1).offset() + 1);
            }
        });
        return next;
    }

    /** The chain holds exactly these records: same offsets, byte-identical keys, values, headers, timestamps. */
    static void assertChainEquals(List<ConsumerRecord<byte[], byte[]>> expected, List<BackupRecord> actual) {
        assertThat(actual.stream().map(BackupRecord::offset).toList())
                .as("offsets in the chain").containsExactlyElementsOf(expected.stream().map(ConsumerRecord::offset).toList());
        for (int i = 0; i < expected.size(); i++) {
            ConsumerRecord<byte[], byte[]> e = expected.get(i);
            BackupRecord a = actual.get(i);
            String at = "record at offset " + e.offset();
            assertThat(a.topic()).as(at).isEqualTo(e.topic());
            assertThat(a.partition()).as(at).isEqualTo(e.partition());
            assertThat(a.key()).as(at + " key").isEqualTo(e.key());
            assertThat(a.value()).as(at + " value").isEqualTo(e.value());
            assertThat(a.timestampMs()).as(at + " timestamp").isEqualTo(e.timestamp());
            assertThat(a.timestampType().stored()).as(at + " timestamp type")
                    .isEqualTo(e.timestampType().name.replace("CreateTime", "create_time").replace("LogAppendTime", "log_append_time"));
            List<RecordHeader> headers = new ArrayList<>();
            for (Header h : e.headers()) {
                headers.add(new RecordHeader(h.key(), h.value()));
            }
            assertThat(a.headers()).as(at + " headers").isEqualTo(headers);
        }
    }

    /** The chain's names are contiguous and each object's range holds its records (checked by the reader). */
    static void assertContiguous(Chain chain, long start) {
        long next = start;
        for (ObjectName o : chain.objects()) {
            assertThat(o.from()).as("object " + o + " continues the chain").isEqualTo(next);
            next = o.to() + 1;
        }
    }
}
