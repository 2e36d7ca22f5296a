package dev.mirrorv3.connect.source;

import static dev.mirrorv3.connect.source.ChainSourceTestSupport.PARQUET;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.consumeAll;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.createTopic;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.sourceConfig;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.writeObject;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.testsupport.Closeables;
import dev.mirrorv3.testsupport.ExactScrape;
import dev.mirrorv3.testsupport.ObservabilityFiles;
import dev.mirrorv3.testsupport.ScrapedWorkerTestBase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator sees of a standby: the worker's plugin MBeans scraped through jmx_exporter's collector loaded with
 * the shipped {@code config/jmx-exporter.yaml} give exactly the chain source's series, labels and values while it
 * follows a backup written here object by object: the records, bytes and objects counted, the lag back at 0 once
 * caught up, and, while the task hangs in an object's read, the lag in offsets and in record seconds the backup holds
 * beyond what the target acknowledged. The series the alert rules and the dashboard use with the chain source are all
 * in the scrape; they leave it with the connector. One cluster for the class.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChainSourceObservabilityIT extends ScrapedWorkerTestBase {
    private static final String NAME = "obs-standby";
    private static final String TOPIC = "obs";
    private static final String BACKUP = "obs-backup";
    private static final String TARGET = "obs-target";
    private static final long BASE_TS = 1_700_000_000_000L;
    private static final long TS_STEP_MS = 60_000; // one minute of record time per offset
    private static final String P0 = "{mirror=\"" + NAME + "\",partition=\"0\",topic=\"" + TOPIC + "\"}";
    private static final String P1 = "{mirror=\"" + NAME + "\",partition=\"1\",topic=\"" + TOPIC + "\"}";

    static Store store;
    static long startedSeconds;

    @TempDir
    static Path root;

    @BeforeAll
    static void deploy() {
        startScrapedWorker();
        createTopic(cluster.bootstrapServers(), TARGET, 2);
        store = new FilesystemStore(root, BACKUP);
        // Partition 0: three objects of 10 records; partition 1: one.
        for (long from = 0; from < 30; from += 10) {
            write(0, from, from + 9);
        }
        write(1, 0, 9);
        startedSeconds = System.currentTimeMillis() / 1000;
        Map<String, String> config = sourceConfig(TOPIC, root, BACKUP, TARGET, "preserve", cluster.bootstrapServers());
        config.put("connector.class", BlockingChainSourceConnector.class.getName());
        config.put("tasks.max", "1");
        config.put("poll.interval.ms", "300");
        cluster.deploy(NAME, config);
        cluster.awaitRunning(NAME, WAIT);
    }

    @AfterAll
    static void stop() {
        Closeables.closeAll("the observability test's store and worker", store, cluster);
    }

    @Test
    @Order(1)
    void theScrapeHoldsExactlyTheChainSourcesSeriesOnceCaughtUp() {
        ExactScrape expected = new ExactScrape(NAME, TOPIC, 2)
                .perPartition("mirror_v3_follow_records_total", 30.0, 10.0)
                // Partition 0 is behind by more than the object it reads first: its newest object (20-29) is read ahead once
                // for the lag in seconds, then in its turn. Partition 1's one object is the one it reads first.
                .perPartition("mirror_v3_follow_objects_total", 4.0, 1.0)
                .perPartition("mirror_v3_follow_lag_offsets", 0.0, 0.0)
                .perPartition("mirror_v3_follow_lag_seconds", 0.0, 0.0)
                .perPartition("mirror_v3_follow_cut_reached", 0.0, 0.0) // no until.*: never
                .perPartition("mirror_v3_follow_poll_interval_seconds", 0.3, 0.3) // poll.interval.ms as configured, in seconds
                .perTask("mirror_v3_mirror_restarts_total", 0.0);

        Map<String, Double> last = expected.await(cluster, "the scrape shows the whole backup restored", WAIT,
                ChainSourceObservabilityIT::series, "mirror_v3_follow_last_poll_timestamp_seconds", startedSeconds, requests -> {
                    assertThat(requests.get("GET ok")).as("the 5 objects read (one of them twice)").isGreaterThanOrEqualTo(5);
                    assertThat(requests.get("PUT ok")).as("the chain source only reads").isZero();
                    expected.perPartition("mirror_v3_follow_bytes_total", targetBytes(0), targetBytes(1));
                });
        assertThat(expected.expected().get("mirror_v3_follow_bytes_total" + P0)).as("the 30 records' bytes").isGreaterThan(30 * 10);
        assertThat(last).hasSize(expected.expected().size() + 2 + 15);

        String text = scrape();
        assertThat(text).contains("# TYPE mirror_v3_follow_records_total counter", "# TYPE mirror_v3_follow_bytes_total counter",
                "# TYPE mirror_v3_follow_objects_total counter", "# TYPE mirror_v3_follow_lag_offsets gauge",
                "# TYPE mirror_v3_follow_lag_seconds gauge", "# TYPE mirror_v3_follow_last_poll_timestamp_seconds gauge");
        assertThat(text).contains("kafka_connect_connector_task_status{connector=\"" + NAME + "\",status=\"running\",task=\"0\"} 1.0");
        // The chain source's own series, and the ones it shares with the sinks, as the alerts and the dashboard use them.
        assertThat(ObservabilityFiles.assertScrapeServesTheQueries(text, name -> ObservabilityFiles.chainSourceSeries(name)
                || name.equals("mirror_v3_mirror_restarts_total") || name.equals("kafka_connect_connector_task_status")))
                .contains("mirror_v3_follow_lag_offsets", "mirror_v3_follow_lag_seconds", "mirror_v3_follow_records_total",
                        "mirror_v3_follow_last_poll_timestamp_seconds", "mirror_v3_mirror_restarts_total");
    }

    @Test
    @Order(2)
    void aTaskHeldInAReadShowsTheLagInOffsetsAndRecordSecondsThenCatchesUp() throws Exception {
        // Paused, the task is not polled: it lists the three new objects at once when resumed.
        cluster.connect().pauseConnector(NAME);
        cluster.connect().assertions().assertConnectorAndExactlyNumTasksArePaused(NAME, 1, "the connector and its task did not pause");
        BlockingChainSourceConnector.Hang hang =
                BlockingChainSourceConnector.hangReadOf(ObjectName.plain(40, 49, PARQUET.format()).fileName());
        for (long from = 30; from < 60; from += 10) {
            write(0, from, from + 9);
        }
        cluster.connect().resumeConnector(NAME);
        try {
            assertThat(hang.blocked.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the task reads 40-49").isTrue();
            // 30-39 restored; the backup ends at 60 and its newest record (59) is 20 minutes of record time after 39's.
            Awaitility.await("the lag while the task hangs").atMost(WAIT).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                    assertThat(series()).containsEntry("mirror_v3_follow_lag_offsets" + P0, 20.0)
                            .containsEntry("mirror_v3_follow_lag_seconds" + P0, 20.0 * TS_STEP_MS / 1000)
                            .containsEntry("mirror_v3_follow_records_total" + P0, 40.0)
                            .as("30-39, and 50-59 read ahead for its newest record")
                            .containsEntry("mirror_v3_follow_objects_total" + P0, 4.0 + 2)
                            .containsEntry("mirror_v3_follow_lag_offsets" + P1, 0.0));
        } finally {
            hang.release();
        }
        Awaitility.await("caught up again").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .failFast("connector failed", () -> cluster.failureTrace(NAME) != null)
                .untilAsserted(() -> assertThat(series()).containsEntry("mirror_v3_follow_lag_offsets" + P0, 0.0)
                        .containsEntry("mirror_v3_follow_lag_seconds" + P0, 0.0)
                        .containsEntry("mirror_v3_follow_records_total" + P0, 60.0)
                        .as("40-49 and 50-59 in their turn").containsEntry("mirror_v3_follow_objects_total" + P0, 4.0 + 4)
                        .containsEntry("mirror_v3_follow_bytes_total" + P0, (double) targetBytes(0)));
    }

    @Test
    @Order(3)
    void theSeriesLeaveWithTheConnector() {
        cluster.delete(NAME);
        Awaitility.await("no mirror_v3 series once the task is gone").atMost(WAIT).pollInterval(Duration.ofMillis(300))
                .until(() -> series().isEmpty());
    }

    /** Records [from, to] of the backed-up topic's partition, one minute of record time apart, as one object. */
    private static void write(int partition, long from, long to) {
        List<BackupRecord> records = new ArrayList<>();
        for (long o = from; o <= to; o++) {
            List<RecordHeader> headers =
                    o % 3 == 0 ? List.of(new RecordHeader("h", ("v" + o).getBytes(StandardCharsets.UTF_8))) : List.of();
            records.add(new BackupRecord(TOPIC, partition, o, BASE_TS + o * TS_STEP_MS, TimestampType.CREATE_TIME,
                    ("key-" + o).getBytes(StandardCharsets.UTF_8), ("value-" + o).getBytes(StandardCharsets.UTF_8), headers));
        }
        writeObject(store, partition, from, to, records);
    }

    /** Key, value and header bytes of the target partition's records, as a consumer reads them. */
    private static long targetBytes(int partition) {
        long sum = 0;
        for (ConsumerRecord<byte[], byte[]> r : consumeAll(cluster.bootstrapServers(), TARGET).get(partition)) {
            sum += (r.key() == null ? 0 : r.key().length) + (r.value() == null ? 0 : r.value().length);
            for (Header h : r.headers()) {
                sum += h.key().length() + (h.value() == null ? 0 : h.value().length);
            }
        }
        return sum;
    }

    /** The scrape's mirror_v3_* samples of this test's connector. */
    private static Map<String, Double> series() {
        Map<String, Double> mine = new TreeMap<>(ObservabilityFiles.mirrorSeries(scrape()));
        mine.keySet().removeIf(k -> !k.contains("mirror=\"" + NAME + "\""));
        return mine;
    }
}
