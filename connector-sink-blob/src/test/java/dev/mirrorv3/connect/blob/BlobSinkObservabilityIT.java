package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.producer;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.ExactScrape;
import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.ObservabilityFiles;
import dev.mirrorv3.testsupport.ScrapedWorkerTestBase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator sees: the worker's plugin MBeans scraped through jmx_exporter's collector loaded with
 * the shipped {@code config/jmx-exporter.yaml} (the same code as the 1.0.1 agent, in-process because the embedded
 * worker runs in this JVM) give exactly mirror-v3's series, labels and values after a known number of records and
 * flushes; partition series go when the partitions are closed; and the logs hold the start, heartbeat and flush
 * lines but never a configured secret. One cluster for the class.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BlobSinkObservabilityIT extends ScrapedWorkerTestBase {
    private static final String NAME = "obs-sink";
    private static final String TOPIC = "obs";
    private static final String SECRET = "s3cr3t-never-logged-7f9a";
    private static final int VALUE_BYTES = 50;

    static LogCapture logs;
    static long startedSeconds;

    @TempDir
    static Path root;

    @BeforeAll
    static void deploy() throws Exception {
        logs = LogCapture.attach();
        Configurator.setRootLevel(Level.INFO); // look for the secret in every INFO line of the worker too
        startScrapedWorker();
        cluster.kafka().createTopic(TOPIC, 2);
        startedSeconds = System.currentTimeMillis() / 1000;
        // 25 records in partition 0 and 10 in partition 1; flush.max.records=10 and no time trigger, so
        // partition 0 writes 2 objects and keeps 5 records buffered, partition 1 writes 1 object.
        produce(0, 25);
        produce(1, 10);
        Map<String, String> config = sinkConfig(TOPIC, root, cluster.bootstrapServers());
        config.put("flush.max.records", "10");
        config.put("flush.max.time.ms", "600000");
        config.put("heartbeat.interval.ms", "1000");
        config.put("source.lag.interval.ms", "300");
        config.put("source.admin.ssl.key.password", SECRET);
        cluster.deploy(NAME, config);
        cluster.awaitRunning(NAME, WAIT);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
        Configurator.setRootLevel(Level.WARN);
        logs.close();
    }

    @Test
    @Order(1)
    void theScrapeHoldsExactlyMirrorV3sSeriesLabelsAndValues() throws Exception {
        ExactScrape expected = new ExactScrape(NAME, TOPIC, 2)
                .perPartition("mirror_v3_destination_offset_verified", 20.0, 10.0)
                .perPartition("mirror_v3_destination_records_total", 20.0, 10.0)
                .perPartition("mirror_v3_destination_flushes_total", 2.0, 1.0)
                .perPartition("mirror_v3_source_lag_offsets", 5.0, 0.0)
                .perTask("mirror_v3_mirror_restarts_total", 0.0)
                .perTask("mirror_v3_buffered_bytes", 5.0 * VALUE_BYTES)
                .perTask("mirror_v3_partitions_paused_for_retry", 0.0)
                // The cadence the alerts compare against, as configured (milliseconds in the MBean, seconds in Prometheus):
                // flush.max.time.ms and chain.check.interval.ms set, metadata.interval.ms and groups.interval.ms by default.
                .perPartition("mirror_v3_destination_flush_max_time_seconds", 600.0, 600.0)
                .perTask("mirror_v3_chain_check_interval_seconds", 2.0)
                .perTask("mirror_v3_metadata_interval_seconds", 60.0)
                .perTask("mirror_v3_metadata_groups_interval_seconds", 60.0);

        Map<String, Double> last = expected.await(cluster, "the scrape shows 2 + 1 flushes and the lag", WAIT, () -> mirrorSeries(scrape()),
                "mirror_v3_destination_last_flush_timestamp_seconds", startedSeconds, requests -> {
                    assertThat(requests.get("PUT ok")).as("the 3 objects at least").isGreaterThanOrEqualTo(3);
                    assertThat(requests.get("LIST ok")).as("the opening and the tail checks").isGreaterThanOrEqualTo(4);
                    expected.perPartition("mirror_v3_destination_bytes_total", objectBytes(0), objectBytes(1));
                });
        assertThat(last).hasSize(expected.expected().size() + 2 + 15);

        String text = scrape();
        assertThat(text).contains("# TYPE mirror_v3_store_requests_total counter",
                "# TYPE mirror_v3_destination_records_total counter", "# TYPE mirror_v3_mirror_restarts_total counter",
                "# TYPE mirror_v3_destination_flush_max_time_seconds gauge",
                "# TYPE mirror_v3_destination_offset_verified gauge", "# TYPE mirror_v3_source_lag_offsets gauge");
        assertThat(text).contains("kafka_connect_connector_task_status{connector=\"obs-sink\",status=\"running\",task=\"0\"} 1.0");
        // The chain source's series are checked against a scrape of a worker running it (ChainSourceObservabilityIT).
        // A failed partition's series: BlobSinkIsolationIT scrapes a worker that holds one.
        assertThat(ObservabilityFiles.assertScrapeServesTheQueries(text, name -> !ObservabilityFiles.chainSourceSeries(name)
                && !ObservabilityFiles.notFromAWorker(name) && !ObservabilityFiles.groupSyncSeries(name)
                && !ObservabilityFiles.failureSeries(name) && !ObservabilityFiles.teeSeries(name)))
                .contains("mirror_v3_source_lag_offsets", "mirror_v3_mirror_restarts_total", "kafka_connect_connector_task_status",
                        "mirror_v3_destination_flush_max_time_seconds");
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "observability-scrape.txt"), text, StandardCharsets.UTF_8);
    }

    @Test
    @Order(2)
    void logsHoldStartHeartbeatAndFlushLinesButNoSecret() {
        // The commits run off the task thread (flush.threads), so the first heartbeats may precede them: wait for one after.
        Awaitility.await("a heartbeat per partition, one after partition 0's commits").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> logs.lines().stream().filter(l -> l.startsWith("heartbeat obs-")).map(l -> l.substring(0, 15))
                        .distinct().count() == 2
                        && logs.lines().stream().anyMatch(l -> l.startsWith("heartbeat obs-0: next offset 20, ")));
        List<String> lines = logs.lines();
        for (int p = 0; p < 2; p++) {
            String tp = TOPIC + "-" + p;
            assertThat(lines).as("start line of " + tp).anyMatch(l -> l.startsWith("starting mirror " + tp + ": destination ")
                    && l.contains("resolved next offset 0 (source log start 0, high watermark"));
        }
        assertThat(lines).anyMatch(l -> l.startsWith("heartbeat obs-0: next offset 20, "));
        assertThat(lines.stream().filter(l -> l.startsWith("flushed batch path=")).toList()).hasSize(3)
                .anyMatch(l -> l.contains("from=0 to=9 records=10 ") && l.contains(" trigger=records"))
                .allMatch(l -> l.matches("flushed batch path=\\S+ from=\\d+ to=\\d+ records=10 bytes=\\d+ elapsed_ms=\\d+"
                        + " interval_ms=\\d+ trigger=records"));
        assertThat(lines).as("every log line of the worker and the task").hasSizeGreaterThan(100)
                .noneMatch(l -> l.contains(SECRET));
    }

    @Test
    @Order(3)
    void closedPartitionsLeaveTheScrape() {
        cluster.delete(NAME);
        Awaitility.await("no mirror_v3 series once the task is gone").atMost(WAIT).pollInterval(Duration.ofMillis(300))
                .until(() -> mirrorSeries(scrape()).isEmpty());
    }

    private static long objectBytes(int partition) throws IOException {
        Path dir = root.resolve(NAME).resolve(Integer.toString(partition));
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(dir)) {
            long sum = 0;
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".parquet")).toList()) {
                sum += Files.size(f);
            }
            return sum;
        }
    }

    private static void produce(int partition, int n) {
        try (KafkaProducer<byte[], byte[]> producer = producer(cluster.bootstrapServers())) {
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(TOPIC, partition, null, new byte[VALUE_BYTES]));
            }
            producer.flush();
        }
    }

    static Map<String, Double> mirrorSeries(String text) {
        return ObservabilityFiles.mirrorSeries(text);
    }
}
