package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertBackupComplete;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertChainEquals;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertContiguous;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.chain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.readChain;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.kafka.config.DestinationSettings;
import dev.mirrorv3.testsupport.FreezableProxy;
import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.ObservabilityFiles;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import javax.management.MBeanServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * One connector, two destinations, the source read once (docs/blob-sink.md, "Several destinations"): a filesystem and
 * an in-process S3 server; both chains equal to the topic record by record, the task's consumer fetching the topic's
 * bytes once; S3 frozen while records flow, the filesystem chain advancing meanwhile and S3 catching up after; another
 * writer in one destination's chain failing that destination's partition only.
 */
class BlobSinkTeeIT extends BlobSinkWorkerBase {
    private static final Duration WAIT = Duration.ofSeconds(120);

    /** A tee of {@code local} (the filesystem) and {@code offsite} (S3, at {@code s3Endpoint}), each with its store's keys. */
    private static Map<String, String> tee(String topic, String s3Endpoint) {
        Map<String, String> c = BlobSinkTestSupport.sinkConfig(topic, Path.of("/unused"), cluster.bootstrapServers());
        c.remove("filesystem.root");
        c.put("destinations", "local,offsite");
        Map<String, Map<String, String>> stores = new LinkedHashMap<>();
        stores.put("local", destinations.filesystem().config(topic, cluster.bootstrapServers()));
        stores.put("offsite", destinations.s3().config(topic, cluster.bootstrapServers()));
        stores.get("offsite").put("s3.endpoint", s3Endpoint);
        stores.forEach((name, settings) -> settings.forEach((k, v) -> {
            if (DestinationSettings.STORE_KEYS.contains(k)) {
                c.put(DestinationSettings.PREFIX + name + "." + k, v);
            }
        }));
        return c;
    }

    private static String s3Endpoint() {
        return destinations.s3().config("x", cluster.bootstrapServers()).get("s3.endpoint");
    }

    private static void assertBothComplete(String name, String topic, int partitions) {
        assertBackupComplete(cluster, destinations.filesystem().stores(), name, topic, partitions, WAIT);
        assertBackupComplete(cluster, destinations.s3().stores(), name, topic, partitions, WAIT);
    }

    /** The bytes the task's consumer fetched (kafka.consumer fetch-manager metrics, bytes-consumed-total). */
    private static double fetchedBytes(String connector) throws Exception {
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName fetch = new javax.management.ObjectName(
                "kafka.consumer:type=consumer-fetch-manager-metrics,client-id=connector-consumer-" + connector + "-0");
        return ((Number) jmx.getAttribute(fetch, "bytes-consumed-total")).doubleValue();
    }

    /** The size of the topic's log on the broker. */
    private static long logBytes(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            long bytes = 0;
            List<Integer> brokers = admin.describeCluster().nodes().get().stream().map(n -> n.id()).toList();
            for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers).allDescriptions().get().values()) {
                bytes += dirs.values().stream().flatMap(d -> d.replicaInfos().entrySet().stream())
                        .filter(e -> e.getKey().topic().equals(topic)).mapToLong(e -> e.getValue().size()).sum();
            }
            return bytes;
        }
    }

    @Test
    void bothChainsEqualTheTopicAndTheSourceIsReadOnce() throws Exception {
        String topic = "tee-once";
        cluster.kafka().createTopic(topic, 8);
        produceVaried(cluster.bootstrapServers(), topic, 8, 1500, 45);
        cluster.deploy(topic, tee(topic, s3Endpoint()));
        assertBothComplete(topic, topic, 8);
        double fetched = fetchedBytes(topic);
        long log = logBytes(topic);
        System.out.printf("tee of 2 destinations: consumer fetched %.0f bytes, the topic's log is %d bytes (%.2fx)%n", fetched, log,
                fetched / log);
        assertThat(log).as("the topic's log").isGreaterThan(500_000);
        assertThat(fetched).as("the source read once: fetched bytes ~ the topic's bytes, not twice").isBetween(0.8 * log, 1.3 * log);
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        // What Prometheus gets through the shipped config/jmx-exporter.yaml: each destination's series, with its label.
        String scrape = ObservabilityFiles.scrape(ObservabilityFiles.exporter());
        assertThat(ObservabilityFiles.assertScrapeServesTheQueries(scrape, ObservabilityFiles::teeSeries))
                .containsExactly("mirror_v3_destination_lag_offsets");
        Map<String, Double> series = ObservabilityFiles.mirrorSeries(scrape);
        for (String d : List.of("local", "offsite")) {
            assertThat(series).containsKey("mirror_v3_destination_offset_verified{destination=\"" + d + "\",mirror=\"" + topic
                    + "\",partition=\"7\",topic=\"" + topic + "\"}");
            assertThat(series.get("mirror_v3_destination_lag_offsets{destination=\"" + d + "\",mirror=\"" + topic
                    + "\",partition=\"7\",topic=\"" + topic + "\"}")).as("caught up: no destination trails").isZero();
            assertThat(series.get("mirror_v3_store_requests_total{destination=\"" + d + "\",mirror=\"" + topic
                    + "\",operation=\"PUT\",outcome=\"ok\",topic=\"" + topic + "\"}"))
                    .as("the objects and manifests " + d + "'s store took, counted under its name").isPositive();
        }
        cluster.delete(topic);
    }

    /**
     * S3 frozen as by SIGSTOP (the task reaches it through a {@link FreezableProxy}) for 6 s, past retry.backoff.max.ms,
     * while records flow: premise, requests were held and the S3 destination was held back; then the filesystem chain
     * advanced during the freeze (its objects' times), S3 caught up after the thaw, both exact, the task RUNNING throughout.
     */
    @Test
    void aFrozenS3HoldsBackNoOtherDestinationAndCatchesUpAfter() throws Exception {
        String topic = "tee-frozen";
        int partitions = 8;
        cluster.kafka().createTopic(topic, partitions);
        AtomicBoolean producing = new AtomicBoolean(true);
        AtomicReference<Throwable> producerFailure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                for (long seed = 100; producing.get(); seed++) {
                    produceVaried(cluster.bootstrapServers(), topic, partitions, 20, seed);
                    Thread.sleep(50);
                }
            } catch (Throwable t) {
                producerFailure.set(t);
            }
        }, "tee-producer");
        List<String> states = new ArrayList<>();
        try (FreezableProxy proxy = FreezableProxy.start(() -> new InetSocketAddress("127.0.0.1", destinations.s3().port()));
             LogCapture logs = LogCapture.attach()) {
            Map<String, String> config = tee(topic, "http://127.0.0.1:" + proxy.port());
            config.put("flush.max.records", "100");
            config.put("flush.max.time.ms", "300");
            config.put("retry.backoff.max.ms", "1000");
            config.put("buffer.max.bytes", "65536");
            config.put("chain.check.interval.ms", "600000"); // a listing on the task thread would wait for the thaw
            producer.start();
            cluster.deploy(topic, config);
            Map<Integer, Long> first = new LinkedHashMap<>();
            IntStream.range(0, partitions).forEach(p -> first.put(p, 1L));
            awaitChainNext(cluster, destinations.filesystem().stores(), topic, PARQUET, first, WAIT);
            awaitChainNext(cluster, destinations.s3().stores(), topic, PARQUET, first, WAIT);

            long localBefore = nexts(destinations.filesystem().stores(), topic, partitions);
            long frozenAt = System.currentTimeMillis();
            int heldBefore = proxy.heldRequests() + proxy.heldReplies();
            long holdsBefore = offsiteHolds(logs);
            proxy.freeze();
            long until = System.currentTimeMillis() + 6_000;
            Thread.sleep(200); // a request already past the proxy may still be served
            int putsAtFreeze = destinations.s3().calls("putBlob");
            while (System.currentTimeMillis() < until) {
                states.add(cluster.taskState(topic));
                Thread.sleep(100);
            }
            long localDuring = nexts(destinations.filesystem().stores(), topic, partitions);
            int putsAtThaw = destinations.s3().calls("putBlob");
            long holdsDuring = offsiteHolds(logs) - holdsBefore;
            int held = proxy.heldRequests() + proxy.heldReplies() - heldBefore;
            long thawedAt = System.currentTimeMillis();
            proxy.thaw();
            System.out.printf("S3 frozen for 6 s: %d request(s) or reply(ies) held, %d object(s) stored while frozen;"
                    + " filesystem chains %d -> %d%n",
                    held, putsAtThaw - putsAtFreeze, localBefore, localDuring);
            producing.set(false);
            producer.join(60_000);
            assertThat(producerFailure.get()).isNull();

            assertThat(putsAtThaw).as("premise: S3 stored nothing while frozen").isEqualTo(putsAtFreeze);
            assertThat(holdsDuring).as("premise: the S3 destination was held back during the freeze").isPositive();
            assertThat(localDuring).as("the filesystem chain advanced during the freeze").isGreaterThan(localBefore);
            assertThat(objectsWrittenBetween(destinations.filesystem().root().resolve(topic), frozenAt + 1_000, thawedAt))
                    .as("filesystem objects written during the freeze, by their times").isPositive();
            assertBothComplete(topic, topic, partitions);
            states.add(cluster.taskState(topic));
            assertThat(states).as("the task's state, sampled every 100 ms").containsOnly("RUNNING");
        } finally {
            producing.set(false);
        }
        cluster.delete(topic);
    }

    private static long offsiteHolds(LogCapture logs) {
        return logs.lines().stream().filter(l -> l.contains("destination offsite") && l.contains("held back")).count();
    }

    private static long nexts(java.util.function.Function<String, dev.mirrorv3.chain.store.Store> stores, String name, int partitions) {
        return IntStream.range(0, partitions).mapToLong(p -> chain(stores, name, p, PARQUET).nextOffset().orElse(0)).sum();
    }

    private static long objectsWrittenBetween(Path dir, long fromMs, long toMs) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).filter(f -> f.getFileName().toString().endsWith(".parquet")).filter(f -> {
                try {
                    long t = Files.getLastModifiedTime(f).toMillis();
                    return t >= fromMs && t <= toMs;
                } catch (java.io.IOException e) {
                    return false;
                }
            }).count();
        }
    }

    /** Another writer's object in one destination's chain: that (partition, destination) fails, the rest go on. */
    @Test
    void anotherWriterInOneDestinationFailsThatDestinationsPartitionOnly() throws Exception {
        String topic = "tee-foreign";
        cluster.kafka().createTopic(topic, 3);
        produceVaried(cluster.bootstrapServers(), topic, 3, 20, 1);
        Map<String, String> config = tee(topic, s3Endpoint());
        config.put("flush.max.records", "10");
        config.put("partition.retry.max.ms", "600000");
        TestDestination.Filesystem local = destinations.filesystem();
        try (LogCapture logs = LogCapture.attach()) {
            cluster.deploy(topic, config);
            Map<Integer, Long> twenty = Map.of(0, 20L, 1, 20L, 2, 20L);
            awaitChainNext(cluster, local.stores(), topic, PARQUET, twenty, WAIT);
            awaitChainNext(cluster, destinations.s3().stores(), topic, PARQUET, twenty, WAIT);
            String foreign = name(20, 29);
            local.put(topic, 1, foreign, local.read(topic, 1, name(0, 9))); // another writer where local's partition 1 continues
            produceVaried(cluster.bootstrapServers(), topic, 3, 20, 2);

            Awaitility.await("local's partition 1 failed").atMost(WAIT).pollInterval(Duration.ofMillis(250))
                    .until(() -> logs.lines().stream()
                            .anyMatch(l -> l.contains("destination local (filesystem) failed for " + topic + "-1")));
            assertBackupComplete(cluster, destinations.s3().stores(), topic, topic, 3, WAIT);
            awaitChainNext(cluster, local.stores(), topic, PARQUET, Map.of(0, 40L, 2, 40L), WAIT);
            Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(cluster.bootstrapServers(), topic);
            for (int p : List.of(0, 2)) {
                assertChainEquals(expected.get(p), readChain(local.stores(), topic, topic, p, PARQUET));
                assertContiguous(chain(local.stores(), topic, p, PARQUET), 0);
            }
            assertThat(local.list(topic, 1)).as("nothing written past the foreign object")
                    .containsExactlyInAnyOrder(name(0, 9), name(10, 19), foreign);
            assertThat(destinationGauge(topic, topic, 1, "local", "partition-failed")).isEqualTo(1);
            assertThat(destinationGauge(topic, topic, 1, "offsite", "partition-failed")).isZero();
            assertThat(destinationGauge(topic, topic, 0, "local", "destination-lag-offsets")).isZero();
            assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
            assertThat(destinationGauge(topic, topic, 1, null, "partition-failed")).as("the partition itself is not failed").isZero();
        }
        cluster.delete(topic);
    }

    private static String name(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET).fileName();
    }

    /** A destination's series of one partition (destination null: the task's own); 0 when it is not exported. */
    private static long destinationGauge(String connector, String topic, int partition, String destination, String series)
            throws Exception {
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName all = new javax.management.ObjectName("kafka.connect:type=plugins,connector=" + connector + ",*");
        for (javax.management.ObjectName n : jmx.queryNames(all, null)) {
            if (topic.equals(n.getKeyProperty("topic")) && Integer.toString(partition).equals(n.getKeyProperty("partition"))
                    && java.util.Objects.equals(destination, n.getKeyProperty("destination"))) {
                try {
                    return ((Number) jmx.getAttribute(n, series)).longValue();
                } catch (javax.management.AttributeNotFoundException e) {
                    continue;
                }
            }
        }
        return 0;
    }
}
