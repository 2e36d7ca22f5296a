package dev.mirrorv3.connect.source;

import static dev.mirrorv3.connect.source.ChainSourceTestSupport.assertStandbyMirrors;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.consumeAll;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.createTopic;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.highWatermark;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.produce;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.records;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.sinkConfig;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.sourceConfig;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.writeObject;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Stateless resume: stop and start, a lost worker (2 workers, short rebalance delay), renumber in the middle of an object. */
class ChainSourceRestartIT {
    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(2, Map.of("task.shutdown.graceful.timeout.ms", "1000"));

    @TempDir
    static Path root;

    private static String bootstrap() {
        return cluster.bootstrapServers();
    }

    @Test
    void resumesAtTheHighWatermarkAfterAStopAndALostWorker() throws Exception {
        twoWorkers();
        createTopic(bootstrap(), "events", 1);
        createTopic(bootstrap(), "events-standby", 1);
        cluster.deploy("events-backup", sinkConfig("events", root, "events-backup", bootstrap()));
        produce(bootstrap(), "events", 1, 500, 1);
        Awaitility.await().atMost(WAIT).until(() -> root.resolve("events-backup").resolve("0").toFile().isDirectory());
        Map<String, String> source = sourceConfig("events", root, "events-backup", "events-standby", "preserve", bootstrap());
        source.put("connector.class", BlockingChainSourceConnector.class.getName()); // to lose the worker mid-read below
        cluster.deploy("events-follow", source);
        // Bursts go on until the worker is lost, so that there is always more to follow after each disruption.
        AtomicBoolean keepWriting = new AtomicBoolean(true);
        AtomicInteger bursts = new AtomicInteger(1);
        CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
            while (keepWriting.get()) {
                produce(bootstrap(), "events", 1, 500, bursts.incrementAndGet());
                sleep(400);
            }
        });
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "events-standby", 0) >= 1000);
        cluster.delete("events-follow"); // stop ...
        cluster.connect().assertions().assertConnectorDoesNotExist("events-follow", "the connector was not deleted");
        cluster.deploy("events-follow", source); // ... and start
        cluster.awaitRunning("events-follow", WAIT);
        long before = highWatermark(bootstrap(), "events-standby", 0);
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "events-standby", 0) > before + 500);

        // The worker is lost while its task is stuck reading an object: the task does not stop within the graceful
        // timeout, its replacement starts on the other worker, and the stuck one wakes up only after that.
        BlockingChainSourceConnector.Hang hang = BlockingChainSourceConnector.hangNextRead();
        assertThat(hang.blocked.await(60, TimeUnit.SECONDS)).as("the task hangs reading the next object").isTrue();
        String workerId = cluster.connect().connectorStatus("events-follow").tasks().get(0).workerId();
        WorkerHandle running = cluster.connect().workers().stream()
                .filter(w -> workerId.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
        cluster.connect().removeWorker(running); // the task moves after scheduled.rebalance.max.delay.ms (2 s here)

        Awaitility.await("the task runs on the other worker").atMost(WAIT).until(() -> {
            var tasks = cluster.connect().connectorStatus("events-follow").tasks();
            return !tasks.isEmpty() && "RUNNING".equals(tasks.get(0).state()) && !workerId.equals(tasks.get(0).workerId());
        });
        long moved = highWatermark(bootstrap(), "events-standby", 0);
        Awaitility.await("the moved task follows").atMost(WAIT).until(() -> highWatermark(bootstrap(), "events-standby", 0) > moved);
        hang.release(); // the old task wakes up after its replacement has written
        assertThat(hang.returned.await(60, TimeUnit.SECONDS)).isTrue();
        Awaitility.await("the old task's thread ends").atMost(WAIT).until(hang::threadEnded);
        keepWriting.set(false);
        writing.get();
        produce(bootstrap(), "events", 1, 500, bursts.incrementAndGet()); // followed by the moved task
        long end = highWatermark(bootstrap(), "events", 0);
        assertThat(end).isEqualTo(500L * bursts.get());
        Awaitility.await("the standby holds every record once").atMost(WAIT)
                .until(() -> highWatermark(bootstrap(), "events-standby", 0) >= end);
        assertThat(highWatermark(bootstrap(), "events-standby", 0)).as("no duplicate").isEqualTo(end);
        assertStandbyMirrors(bootstrap(), "events", "events-standby", 1);
        assertThat(cluster.taskState("events-follow")).isEqualTo("RUNNING");
        cluster.delete("events-follow");
        cluster.delete("events-backup");
    }

    @Test
    void renumberResumesInTheMiddleOfAnObject() throws Exception {
        Store store = new FilesystemStore(root, "compacted");
        List<BackupRecord> first = records("c", 0, 0, 99, o -> o % 2 == 1);
        writeObject(store, 0, 0, 99, first);
        writeObject(store, 0, 100, 199, records("c", 0, 100, 199, o -> o % 2 == 1));
        createTopic(bootstrap(), "compacted-restored", 1);
        // The target holds the first 30 records as a renumbering restore wrote them: resume at 30, inside 0-99.
        try (KafkaProducer<byte[], byte[]> p = ChainSourceTestSupport.producer(bootstrap())) {
            for (int i = 0; i < 30; i++) {
                BackupRecord r = first.get(i);
                RecordHeaders headers = new RecordHeaders();
                for (RecordHeader h : r.headers()) {
                    headers.add(h.key(), h.value());
                }
                headers.add("mirror-v3.offset", Long.toString(r.offset()).getBytes(StandardCharsets.UTF_8));
                p.send(new ProducerRecord<>("compacted-restored", 0, r.timestampMs(), r.key(), r.value(), headers)).get();
            }
        }
        Map<String, String> c = sourceConfig("c", root, "compacted", "compacted-restored", "renumber", bootstrap());
        c.put("original.offset.header", "mirror-v3.offset");
        cluster.deploy("compacted-follow", c);
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "compacted-restored", 0) == 100);
        List<ConsumerRecord<byte[], byte[]>> restored = consumeAll(bootstrap(), "compacted-restored").get(0);
        for (int i = 0; i < 100; i++) {
            ConsumerRecord<byte[], byte[]> r = restored.get(i);
            assertThat(r.offset()).isEqualTo(i);
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("key-" + (2 * i + 1));
            assertThat(new String(r.headers().lastHeader("mirror-v3.offset").value(), StandardCharsets.UTF_8))
                    .isEqualTo(Long.toString(2L * i + 1));
        }
        assertThat(cluster.taskState("compacted-follow")).isEqualTo("RUNNING");
        cluster.delete("compacted-follow");
    }

    @Test
    void aWorkerHangingInIoLeavesAZombieThatWritesNothing() throws Exception {
        twoWorkers();
        Store store = new FilesystemStore(root, "zombie");
        writeObject(store, 0, 0, 99, records("z", 0, 0, 99, o -> true));
        createTopic(bootstrap(), "zombie-target", 1);
        Map<String, String> c = sourceConfig("z", root, "zombie", "zombie-target", "preserve", bootstrap());
        c.put("connector.class", BlockingChainSourceConnector.class.getName());
        cluster.deploy("zombie", c);
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "zombie-target", 0) == 100);

        BlockingChainSourceConnector.Hang hang = BlockingChainSourceConnector.hangNextRead();
        writeObject(store, 0, 100, 199, records("z", 0, 100, 199, o -> true));
        assertThat(hang.blocked.await(60, TimeUnit.SECONDS)).as("the task hangs reading 100-199").isTrue();
        String workerId = cluster.connect().connectorStatus("zombie").tasks().get(0).workerId();
        WorkerHandle running = cluster.connect().workers().stream()
                .filter(w -> workerId.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
        cluster.connect().removeWorker(running); // its task does not stop within task.shutdown.graceful.timeout.ms

        Awaitility.await("the new task restores 100-199").atMost(WAIT)
                .until(() -> highWatermark(bootstrap(), "zombie-target", 0) == 200);
        hang.release(); // the zombie reads the object and returns its records to a cancelled task
        assertThat(hang.returned.await(60, TimeUnit.SECONDS)).isTrue();
        Awaitility.await("the zombie's thread ends (whatever it sends is sent by then)").atMost(WAIT).until(hang::threadEnded);
        writeObject(store, 0, 200, 299, records("z", 0, 200, 299, o -> true));
        Awaitility.await().atMost(WAIT).until(() -> highWatermark(bootstrap(), "zombie-target", 0) >= 300);
        assertThat(highWatermark(bootstrap(), "zombie-target", 0)).as("nothing written twice").isEqualTo(300);
        List<ConsumerRecord<byte[], byte[]>> restored = consumeAll(bootstrap(), "zombie-target").get(0);
        for (int i = 0; i < 300; i++) {
            assertThat(new String(restored.get(i).key(), StandardCharsets.UTF_8)).isEqualTo("key-" + i);
        }
        assertThat(cluster.taskState("zombie")).isEqualTo("RUNNING");
        cluster.delete("zombie");
    }

    /** Each worker-loss test removes one. */
    private static void twoWorkers() {
        while (cluster.connect().workers().size() < 2) {
            cluster.connect().addWorker();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
