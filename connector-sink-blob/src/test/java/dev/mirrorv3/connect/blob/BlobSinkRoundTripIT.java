package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertChainEquals;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertContiguous;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.chain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.nextAfterLast;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.producer;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.readChain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.envelope.Compression;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ValueType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Backups hold exactly the source's records, byte for byte, at their offsets. */
class BlobSinkRoundTripIT extends BlobSinkWorkerBase {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final EnvelopeSettings NDJSON =
            new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.ZSTD, ValueType.BYTES, ValueType.BYTES);

    /** The root of the filesystem destination, for scenarios of the record envelope that do not depend on the store. */
    private static Path root() {
        return destinations.filesystem().root();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void roundTripsEveryRecordInBothFormats(TestDestination d) throws Exception {
        String topic = "roundtrip-" + d;
        cluster.kafka().createTopic(topic, 3);
        BlobSinkTestSupport.produceVaried(cluster.bootstrapServers(), topic, 3, 10_000, 42);

        // Two connectors on one topic: dual-writing is two deployments with their own destinations.
        String parquetName = "rt-parquet-" + d;
        String ndjsonName = "rt-ndjson-" + d;
        cluster.deploy(parquetName, d.config(topic, cluster.bootstrapServers()));
        Map<String, String> ndjson = d.config(topic, cluster.bootstrapServers());
        ndjson.put("format", "ndjson");
        cluster.deploy(ndjsonName, ndjson);

        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(cluster.bootstrapServers(), topic);
        awaitChainNext(cluster, d.stores(), parquetName, PARQUET, nextAfterLast(expected), WAIT);
        awaitChainNext(cluster, d.stores(), ndjsonName, NDJSON, nextAfterLast(expected), WAIT);
        for (int p = 0; p < 3; p++) {
            // At least what was produced: a send that timed out on a loaded broker may have been stored before
            // produceVaried sent it again. The chain must equal whatever the topic holds.
            assertThat(expected.get(p)).hasSizeGreaterThanOrEqualTo(10_000);
            assertChainEquals(expected.get(p), readChain(d.stores(), parquetName, topic, p, PARQUET));
            assertChainEquals(expected.get(p), readChain(d.stores(), ndjsonName, topic, p, NDJSON));
            assertContiguous(chain(d.stores(), parquetName, p, PARQUET), 0);
        }
        if (d instanceof TestDestination.Filesystem fs) { // DuckDB reads local files; the objects' bytes are the same on S3
            assertDuckDbReads(fs.dir(parquetName, 0), expected.get(0));
        }
        cluster.delete(parquetName);
        cluster.delete(ndjsonName);
    }

    @Test
    void keepsLogAppendTimeStamps() {
        String topic = "logappend";
        cluster.kafka().createTopic(topic, 1, 1, Map.of("message.timestamp.type", "LogAppendTime"));
        BlobSinkTestSupport.produceVaried(cluster.bootstrapServers(), topic, 1, 500, 7);
        cluster.deploy("rt-logappend", sinkConfig(topic, root(), cluster.bootstrapServers()));
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(cluster.bootstrapServers(), topic);
        awaitChainNext(cluster, root(), "rt-logappend", PARQUET, nextAfterLast(expected), WAIT);
        assertThat(expected.get(0).get(0).timestampType().name).isEqualTo("LogAppendTime");
        assertChainEquals(expected.get(0), readChain(root(), "rt-logappend", topic, 0, PARQUET));
        cluster.delete("rt-logappend");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void transactionsLeaveHolesAndOnlyCommittedRecordsAreBackedUp(TestDestination d) {
        String topic = produceTransactions("tx-" + d);
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(cluster.bootstrapServers(), topic);
        assertThat(expected.get(0)).hasSize(35).allMatch(r -> new String(r.value()).startsWith("committed-"));

        String name = "rt-tx-" + d;
        Map<String, String> config = d.config(topic, cluster.bootstrapServers());
        config.put("flush.max.records", "7"); // objects end inside transactions and at markers
        cluster.deploy(name, config);
        awaitChainNext(cluster, d.stores(), name, PARQUET, nextAfterLast(expected), WAIT);
        assertChainEquals(expected.get(0), readChain(d.stores(), name, topic, 0, PARQUET));
        assertContiguous(chain(d.stores(), name, 0, PARQUET), 0);
        cluster.delete(name);
    }

    /**
     * Ten transactions of five records into a new topic, every third one aborted; returns the topic. A loaded broker may
     * answer a retried EndTxn of a completed commit with INVALID_TXN_STATE ("state is COMPLETE_COMMIT, but received
     * transaction marker result to send: COMMIT"), which kills the producer: the transactions are then written again
     * into a fresh topic under a fresh transactional id, so the test still starts from exactly this history.
     */
    private static String produceTransactions(String name) {
        for (int attempt = 1; ; attempt++) {
            String topic = attempt == 1 ? name : name + "-" + attempt;
            cluster.kafka().createTopic(topic, 1);
            Map<String, Object> p = new HashMap<>();
            p.put("bootstrap.servers", cluster.bootstrapServers());
            p.put("key.serializer", ByteArraySerializer.class);
            p.put("value.serializer", ByteArraySerializer.class);
            p.put("transactional.id", "tx-it-" + topic);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
                producer.initTransactions();
                for (int t = 0; t < 10; t++) {
                    producer.beginTransaction();
                    for (int i = 0; i < 5; i++) {
                        producer.send(new ProducerRecord<>(topic, 0, utf8("k" + t),
                                utf8((t % 3 == 1 ? "aborted-" : "committed-") + t + "-" + i)));
                    }
                    if (t % 3 == 1) {
                        producer.abortTransaction();
                    } else {
                        producer.commitTransaction();
                    }
                }
                return topic;
            } catch (InvalidTxnStateException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    @Test
    void compactedTopicBacksUpExactlyTheRetainedRecords() throws Exception {
        String topic = "compacted";
        Map<String, String> topicConfig = new LinkedHashMap<>();
        topicConfig.put("cleanup.policy", "compact");
        topicConfig.put("segment.ms", "100");
        topicConfig.put("min.cleanable.dirty.ratio", "0.01");
        topicConfig.put("delete.retention.ms", "100");
        cluster.kafka().createTopic(topic, 1, 1, topicConfig);
        try (KafkaProducer<byte[], byte[]> producer = producer(cluster.bootstrapServers())) {
            for (int round = 0; round < 5; round++) {
                for (int k = 0; k < 20; k++) {
                    producer.send(new ProducerRecord<>(topic, 0, utf8("key-" + k), utf8("v" + round)));
                }
                producer.flush();
                Thread.sleep(250); // lets segments roll, so the cleaner can compact them
            }
        }
        Awaitility.await("the log cleaner compacts " + topic).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> consumeAll(cluster.bootstrapServers(), topic).get(0).size() < 100);
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(cluster.bootstrapServers(), topic);

        cluster.deploy("rt-compacted", sinkConfig(topic, root(), cluster.bootstrapServers()));
        awaitChainNext(cluster, root(), "rt-compacted", PARQUET, nextAfterLast(expected), WAIT);
        Chain chain = chain(root(), "rt-compacted", 0, PARQUET);
        assertContiguous(chain, 0);
        assertChainEquals(expected.get(0), readChain(root(), "rt-compacted", topic, 0, PARQUET));
        cluster.delete("rt-compacted");
    }

    /** DuckDB, a reader that shares no code with ours, sees mirror-v3's columns and the source's records. */
    private static void assertDuckDbReads(Path dir, List<ConsumerRecord<byte[], byte[]>> expected) throws Exception {
        Path first;
        try (Stream<Path> files = Files.list(dir)) {
            first = files.filter(f -> f.toString().endsWith(".parquet")).sorted().findFirst().orElseThrow();
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             Statement s = c.createStatement()) {
            Map<String, String> types = new LinkedHashMap<>();
            try (ResultSet rs = s.executeQuery("DESCRIBE SELECT * FROM read_parquet('" + first + "')")) {
                while (rs.next()) {
                    types.put(rs.getString(1), rs.getString(2));
                }
            }
            assertThat(types).containsExactly(
                    Map.entry("topic", "VARCHAR"), Map.entry("partition", "INTEGER"), Map.entry("offset", "UBIGINT"),
                    Map.entry("timestamp_ms", "BIGINT"), Map.entry("timestamp_type", "VARCHAR"), Map.entry("key", "BLOB"),
                    Map.entry("value", "BLOB"), Map.entry("headers", "STRUCT(\"key\" VARCHAR, \"value\" BLOB)[]"));
            try (ResultSet rs = s.executeQuery("SELECT \"offset\", key, value, timestamp_ms, len(headers) FROM read_parquet('"
                    + first + "') ORDER BY \"offset\" LIMIT 50")) {
                int i = 0;
                while (rs.next()) {
                    ConsumerRecord<byte[], byte[]> e = expected.get(i++);
                    assertThat(rs.getLong(1)).isEqualTo(e.offset());
                    assertThat(rs.getBytes(2)).isEqualTo(e.key());
                    assertThat(rs.getBytes(3)).isEqualTo(e.value());
                    assertThat(rs.getLong(4)).isEqualTo(e.timestamp());
                    assertThat(rs.getInt(5)).isEqualTo(e.headers().toArray().length);
                }
                assertThat(i).isEqualTo(50);
            }
        }
    }
}
