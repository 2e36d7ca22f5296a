package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.producer;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.snapshot.CheckedSnapshot;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * compaction=log end to end: a compacted topic with updates and tombstones over 100k keys is backed up as snapshots,
 * through a restart and a worker that dies in the middle of a snapshot's commit; each newest snapshot equals the topic
 * compacted by hand. The task's buffer cap is far below a snapshot's size (the spill path), and its buffered-bytes gauge
 * stays under it.
 */
class BlobSinkSnapshotIT {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final long CAP = 256 * 1024;
    private static final int KEYS = 100_000;
    private static final String NAME = "snap";

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(2, Map.of("task.shutdown.graceful.timeout.ms", "1000"));

    @TempDir
    static Path root;

    @TempDir
    static Path spill;

    @Test
    void theNewestSnapshotEqualsTheTopicCompactedByHandAcrossARestartAndAKilledWorker() throws Exception {
        String topic = "states";
        cluster.kafka().createTopic(topic, 1, 1, Map.of("cleanup.policy", "compact"));
        Faults faults = Faults.forDestination(NAME);
        Map<String, String> config = sinkConfig(FaultInjectingBlobSinkConnector.class.getName(), topic, root, cluster.bootstrapServers());
        config.put("compaction", "log");
        config.put("compaction.spill.dir", spill.toString());
        config.remove("flush.max.records"); // the snapshot mode's default: no record limit
        config.put("flush.max.time.ms", "2000");
        config.put("buffer.max.bytes", Long.toString(CAP));
        config.put("chain.check.interval.ms", "1000");
        ConnectorConfigs.evictingStuckTasks(config, 1000);
        Random random = new Random(11);
        produce(topic, random, 0, KEYS, 0); // every key once
        produce(topic, random, 20_000, KEYS, 3_000); // updates and tombstones
        cluster.deploy(NAME, config);
        GaugeSampler gauge = GaugeSampler.start();
        ObjectName first = awaitNewestSnapshotAtEnd(topic);
        gauge.stop();
        assertSnapshotIsTheTopicCompacted(topic, first);
        assertThat(gauge.samples.get()).as("gauge samples while the snapshot was gathered").isGreaterThan(10);
        assertThat(gauge.max.get()).as("largest buffered-bytes seen").isGreaterThan(0).isLessThanOrEqualTo(CAP);
        assertThat(Files.size(root.resolve(NAME).resolve("0").resolve(first.fileName())))
                .as("the snapshot is far bigger than the buffer cap (the spill path)").isGreaterThan(3 * CAP);

        // A restart: the task reads the newest snapshot back and continues at its end.
        cluster.delete(NAME);
        produce(topic, random, 5_000, KEYS, 1_000);
        cluster.deploy(NAME, config);
        ObjectName second = awaitNewestSnapshotAtEnd(topic);
        assertThat(second.from()).as("the next snapshot starts after the previous one").isEqualTo(first.to() + 1);
        assertSnapshotIsTheTopicCompacted(topic, second);

        // A worker dies while it commits a snapshot: its task lives on as a zombie, the other worker's task continues
        // from the previous snapshot, and the zombie's late commit is refused.
        CountDownLatch release = new CountDownLatch(1);
        faults.blockNextCreate.set(release);
        produce(topic, random, 5_000, KEYS, 1_000);
        assertThat(faults.blocked.await(60, TimeUnit.SECONDS)).as("the task reached its snapshot commit and blocked").isTrue();
        String workerId = cluster.connect().connectorStatus(NAME).tasks().get(0).workerId();
        WorkerHandle running = cluster.connect().workers().stream()
                .filter(w -> workerId.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
        cluster.connect().removeWorker(running);
        ObjectName third = awaitNewestSnapshotAtEnd(topic);
        release.countDown();
        assertThat(faults.blockedCreateDone.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(faults.blockedCreateOutcome.get()).as("the zombie's late commit").contains("another writer created");
        assertThat(third.from()).isEqualTo(second.to() + 1);
        assertSnapshotIsTheTopicCompacted(topic, third);
        assertWholeSnapshotsOnly(first, second, third);
        assertThat(cluster.taskState(NAME)).isEqualTo("RUNNING");
        cluster.delete(NAME);
    }

    /**
     * Every object in the partition's directory is a snapshot (no partial or temporary object, and not the zombie's late
     * one), each starting where the one before it ended, and the newest of each phase among them. A slow machine may
     * add a snapshot inside a phase: flush.max.time.ms (2 s) can pass before the task has read the phase's records.
     */
    private static void assertWholeSnapshotsOnly(ObjectName... newestOfEachPhase) throws Exception {
        List<ObjectName> snapshots;
        try (var files = Files.list(root.resolve(NAME).resolve("0"))) {
            snapshots = files.map(p -> p.getFileName().toString())
                    .map(n -> ObjectName.parse(n).orElseThrow(() -> new AssertionError("not a snapshot object: " + n)))
                    .sorted().toList();
        }
        assertThat(snapshots).as("whole snapshots only, no partial object").contains(newestOfEachPhase)
                .last().isEqualTo(newestOfEachPhase[newestOfEachPhase.length - 1]);
        for (int i = 1; i < snapshots.size(); i++) {
            assertThat(snapshots.get(i).from()).as("%s starts where %s ended", snapshots.get(i), snapshots.get(i - 1))
                    .isEqualTo(snapshots.get(i - 1).to() + 1);
        }
    }

    /** {@code count} records over {@code keys} keys, {@code tombstones} of them deletes; with no count, every key once. */
    private static void produce(String topic, Random random, int count, int keys, int tombstones) {
        try (KafkaProducer<byte[], byte[]> producer = producer(cluster.bootstrapServers())) {
            int n = count == 0 ? keys : count;
            for (int i = 0; i < n; i++) {
                int k = count == 0 ? i : random.nextInt(keys);
                byte[] value = i < tombstones ? null : ("v" + random.nextInt()).getBytes(StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(topic, 0, ("key-" + k).getBytes(StandardCharsets.UTF_8), value));
            }
        }
    }

    private static SnapshotReader reader() {
        return new SnapshotReader(new FilesystemStore(root, NAME), EnvelopeSettings.parquetBytes(), KeyRing.empty());
    }

    /** Waits until the newest snapshot ends at the topic's last record. */
    private static ObjectName awaitNewestSnapshotAtEnd(String topic) {
        List<ConsumerRecord<byte[], byte[]>> records = consumeAll(cluster.bootstrapServers(), topic).get(0);
        long last = records.get(records.size() - 1).offset();
        AtomicReference<ObjectName> newest = new AtomicReference<>();
        Awaitility.await("a snapshot up to offset " + last).atMost(WAIT).pollInterval(Duration.ofMillis(250))
                .failFast("connector failed", () -> {
                    String trace = cluster.failureTrace(NAME);
                    if (trace != null) {
                        throw new AssertionError("connector failed: " + trace);
                    }
                })
                .ignoreExceptions()
                .until(() -> {
                    newest.set(reader().list(0).newest().orElseThrow());
                    return newest.get().to() == last;
                });
        return newest.get();
    }

    private static void assertSnapshotIsTheTopicCompacted(String topic, ObjectName snapshot) {
        Map<String, ConsumerRecord<byte[], byte[]>> byHand = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : consumeAll(cluster.bootstrapServers(), topic).get(0)) {
            String key = new String(r.key(), StandardCharsets.UTF_8);
            if (r.value() == null) {
                byHand.remove(key);
            } else {
                byHand.put(key, r);
            }
        }
        Map<String, BackupRecord> backedUp = new TreeMap<>();
        try (CheckedSnapshot s = reader().open(0, snapshot, topic, spill.resolve("read"))) {
            for (BackupRecord r = s.next(); r != null; r = s.next()) {
                backedUp.put(new String(r.key(), StandardCharsets.UTF_8), r);
            }
        }
        assertThat(backedUp.keySet()).as("live keys of " + snapshot).isEqualTo(byHand.keySet());
        byHand.forEach((k, r) -> {
            BackupRecord b = backedUp.get(k);
            assertThat(b.offset()).as("offset of " + k).isEqualTo(r.offset());
            assertThat(b.value()).as("value of " + k).isEqualTo(r.value());
            assertThat(b.timestampMs()).isEqualTo(r.timestamp());
        });
        assertThat(byHand.size()).as("tombstones removed keys").isLessThan(KEYS);
    }

    /** Samples the task's buffered-bytes gauge through JMX on a thread of its own. */
    private static final class GaugeSampler {
        final AtomicLong max = new AtomicLong();
        final AtomicLong samples = new AtomicLong();
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread;

        static GaugeSampler start() throws Exception {
            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            javax.management.ObjectName pattern = new javax.management.ObjectName(
                    "kafka.connect:type=plugins,connector=" + NAME + ",task=0,mirror=" + NAME);
            Awaitility.await("the buffered-bytes gauge").atMost(WAIT).until(() -> !jmx.queryNames(pattern, null).isEmpty());
            javax.management.ObjectName name = jmx.queryNames(pattern, null).iterator().next();
            GaugeSampler g = new GaugeSampler();
            g.thread = new Thread(() -> {
                while (g.running.get()) {
                    try {
                        long v = ((Number) jmx.getAttribute(name, BlobSinkMetrics.BUFFERED_BYTES)).longValue();
                        g.max.accumulateAndGet(v, Math::max);
                        g.samples.incrementAndGet();
                        Thread.sleep(1);
                    } catch (Exception e) {
                        g.failure.set(e);
                        return;
                    }
                }
            });
            g.thread.start();
            return g;
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join();
            assertThat(failure.get()).as("the gauge sampler failed").isNull();
        }
    }
}
