package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.MutableClock;
import dev.mirrorv3.testsupport.sink.SinkTaskHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task with two destinations (a tee of two filesystem stores, faults armed per destination): a destination whose
 * share of buffer.max.bytes is full of commits that finish waits for them, as a single destination does, instead of
 * being held back and re-reading what it missed; one whose commit does not finish within retry.backoff.initial.ms is
 * held back, and the other destination goes on. A real source broker and real filesystem stores.
 */
class BlobSinkTeeTaskTest extends SinkTaskHarness<BlobSinkTask> {
    private static final String TOPIC = "tee-task";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);

    @TempDir
    Path root;

    private final Map<String, Faults> faults = new ConcurrentHashMap<>();

    @BeforeAll
    static void createTopic() {
        broker.createTopic(TOPIC, 1, Map.of());
    }

    /** local and offsite, 1,000 bytes of buffer.max.bytes each, a commit of every 5 records on a pipeline thread. */
    private void start(long backoffInitialMs) {
        start(backoffInitialMs, 2000);
    }

    private void start(long backoffInitialMs, long bufferMaxBytes) {
        Map<String, String> config = BlobSinkTestSupport.handDrivenTaskConfig(TOPIC, root, broker.bootstrapServers());
        config.remove("filesystem.root");
        config.put("name", "tee-task");
        config.put("destinations", "local,offsite");
        config.put("destinations.local.filesystem.root", root.resolve("local").toString());
        config.put("destinations.offsite.filesystem.root", root.resolve("offsite").toString());
        ConnectorConfigs.with(config, "buffer.max.bytes", Long.toString(bufferMaxBytes), "flush.max.records", "5", "flush.threads", "1");
        config.put("retry.backoff.initial.ms", Long.toString(backoffInitialMs));
        config.put("retry.backoff.max.ms", "60000");
        start(new FaultyTask(new MutableClock(), faults), config);
        context.assign(task, P0);
        task.put(List.of());
        context.takeOffsets(); // where it is positioned (the chains' start)
    }

    @Test
    void aDestinationWhoseShareIsFullOfCommitsThatFinishWaitsForThemAndReadsTheSourceOnce() throws Exception {
        start(5_000);
        CountDownLatch release = new CountDownLatch(1);
        offsite().holdNextCreateOf.put(0, release);
        Thread releaser = new Thread(() -> {
            try {
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> offsite().heldCreates.containsKey(0));
                Thread.sleep(300); // a slow commit, well within retry.backoff.initial.ms
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        });
        releaser.start();
        // Records 0-4 start offsite's commit (held 300 ms); 5-9 fill its share beside it; 10 finds no room until it ends.
        task.put(records(P0, 0, 12, 100));
        releaser.join();
        awaitVerified("offsite", 10);
        awaitVerified("local", 10);
        assertThat(context.takeOffsets()).as("partitions sought back to re-read what a destination held back missed").isEmpty();
        assertThat(offsite().createsOf.get(0).get()).as("offsite's commits: 0-4 and 5-9, each once").isEqualTo(2);
    }

    @Test
    void aDestinationWhoseCommitDoesNotFinishWithinTheInitialBackoffIsHeldBackAndTheOtherGoesOn() throws Exception {
        start(200);
        CountDownLatch release = new CountDownLatch(1);
        offsite().holdNextCreateOf.put(0, release);
        long started = System.nanoTime();
        task.put(records(P0, 0, 12, 100));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        Awaitility.await("premise: offsite's commit hangs").atMost(Duration.ofSeconds(10))
                .until(() -> offsite().heldCreates.containsKey(0));
        assertThat(tookMs).as("the put, which waited for offsite at most retry.backoff.initial.ms").isLessThan(5_000);
        awaitVerified("local", 10);

        release.countDown();
        Awaitility.await("offsite catches up by re-reading").atMost(Duration.ofSeconds(10)).until(() -> {
            Long seek = context.takeOffsets().get(P0);
            if (seek != null) {
                task.put(records(P0, seek, 12 - (int) seek.longValue(), 100)); // the consumer re-delivers from the seek
            } else {
                task.put(List.of());
            }
            return Long.valueOf(10).equals(verified("offsite"));
        });
    }

    @Test
    void objectsBothDestinationsCutAlikeAreEncodedOnceAndEachChainHoldsEveryRecordInIdenticalObjects() throws Exception {
        start(5_000, 40_000); // objects of 2.7 KB wait for the other destination in at most a quarter of that
        task.put(records(P0, 0, 20, 100));
        awaitVerified("local", 20);
        awaitVerified("offsite", 20);
        assertThat(task.objectsEncodedOnce()).as("4 objects of 5 records each: one destination took each from the other")
                .isEqualTo(4);
        for (String d : List.of("local", "offsite")) {
            List<BackupRecord> chain = BlobSinkTestSupport.readChain(root.resolve(d), "tee-task", TOPIC, 0,
                    EnvelopeSettings.parquetBytes());
            assertThat(chain).extracting(BackupRecord::offset).as(d).containsExactly(LongStream.range(0, 20).boxed().toArray(Long[]::new));
            assertThat(chain).allSatisfy(r -> assertThat(r.value()).hasSize(100).containsOnly((byte) r.offset()));
        }
        try (Stream<Path> objects = Files.walk(root.resolve("local"))) {
            List<Path> parquet = objects.filter(f -> f.toString().endsWith(".parquet")).toList();
            assertThat(parquet).hasSize(4);
            for (Path f : parquet) {
                assertThat(root.resolve("offsite").resolve(root.resolve("local").relativize(f))).hasSameBinaryContentAs(f);
            }
        }
    }

    private Faults offsite() {
        return faults.computeIfAbsent("offsite", n -> new Faults());
    }

    private void awaitVerified(String destination, long next) {
        Awaitility.await(destination + " durable to " + next).atMost(Duration.ofSeconds(10)).until(() -> {
            task.put(List.of());
            return Long.valueOf(next).equals(verified(destination));
        });
    }

    private Object verified(String destination) {
        return context.metric("destination-offset-verified",
                Map.of("mirror", "tee-task", "topic", TOPIC, "partition", "0", "destination", destination));
    }

    /** The blob sink with each destination's store faulted by that destination's {@link Faults}. */
    private static final class FaultyTask extends BlobSinkTask {
        private final Map<String, Faults> faults;

        FaultyTask(Clock clock, Map<String, Faults> faults) {
            super(clock);
            this.faults = faults;
        }

        @Override
        protected Store createStore(BlobSinkConfig config, String destinationName) {
            // the destination by its root's name (destinationName is its chains' name, the same in both)
            String destination = Path.of(config.originalsStrings().get("filesystem.root")).getFileName().toString();
            Faults armed = faults.computeIfAbsent(destination, n -> new Faults());
            return new FaultInjectingStore(super.createStore(config, destinationName), armed);
        }
    }
}
