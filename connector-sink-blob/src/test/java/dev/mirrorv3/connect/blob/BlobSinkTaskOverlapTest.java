package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.MutableClock;
import dev.mirrorv3.testsupport.RebalancingSinkTaskContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task starts a partition's next commit while its first uploads, as soon as a full object waits, and takes a
 * commit abandoned behind a failed one as nothing that happened (docs/blob-sink.md, "Pipelined flush"). A real source
 * broker and a real filesystem store with injected faults.
 */
class BlobSinkTaskOverlapTest {
    private static final String TOPIC = "overlap";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final Map<String, String> P0_TAGS = Map.of("mirror", "overlap-test", "topic", TOPIC, "partition", "0");

    private static KafkaTestBroker broker;

    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock();
    private final Faults faults = new Faults();
    private RebalancingSinkTaskContext context;
    private BlobSinkTask task;

    @BeforeAll
    static void startBroker() {
        broker = KafkaTestBroker.start();
        broker.createTopic(TOPIC, 1, Map.of());
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @AfterEach
    void stopTask() {
        faults.holdNextCreateOf.values().forEach(CountDownLatch::countDown);
        if (task != null) {
            task.stop();
        }
        if (context != null) {
            context.close();
        }
    }

    private void start() {
        Map<String, String> config = BlobSinkTestSupport.sinkConfig(TOPIC, root, broker.bootstrapServers());
        config.put("name", "overlap-test");
        config.put("flush.max.records", "5");
        config.put("flush.threads", "2");
        config.put("retry.backoff.initial.ms", "100");
        config.put("retry.backoff.max.ms", "800");
        config.put("flush.max.time.ms", "600000");
        config.put("chain.check.interval.ms", "600000");
        config.put("heartbeat.interval.ms", "0");
        config.put("source.lag.interval.ms", "0");
        context = new RebalancingSinkTaskContext(config);
        task = new FaultInjectingTask(clock, faults);
        task.initialize(context);
        task.start(config);
        context.assign(task, P0);
        task.put(List.of());
    }

    /** The objects of partition 0's chain, by name. */
    private List<String> chain() throws IOException {
        Path dir;
        try (Stream<Path> found = Files.find(root, 6, (p, a) -> a.isDirectory() && p.getFileName().toString().equals("0"))) {
            dir = found.findFirst().orElse(null);
        }
        if (dir == null) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> ObjectName.parse(n).isPresent()).sorted().toList();
        }
    }

    private static String name(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET).fileName();
    }

    @Test
    void theNextObjectIsStartedWhileTheFirstUploadsAndCreatedWithoutAnotherPut() throws Exception {
        start();
        CountDownLatch release = new CountDownLatch(1);
        faults.holdNextCreateOf.put(0, release);
        try (LogCapture logs = LogCapture.attach()) {
            task.put(records(0, 10)); // 0-4 starts and is held in its create; 5-9 is a full object behind it
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> faults.heldCreates.containsKey(0));
            // the line ./torture's sink-s3 reads to see that a worker it kills holds a second commit waiting behind an upload
            Awaitility.await("5-9 logged as encoded behind 0-4").atMost(Duration.ofSeconds(10)).until(() -> logs.lines().stream()
                    .anyMatch(l -> l.matches("encoded .*/0/" + name(5, 9) + " \\(5 records\\) while " + name(0, 4)
                            + " is written: it is created once that one is durable")));
            assertThat(logs.lines()).as("no flushed batch yet").noneMatch(l -> l.startsWith("flushed batch"));
        }
        assertThat(chain()).as("nothing created behind the held commit").isEmpty();

        release.countDown();
        Awaitility.await("both objects, with no put() after the first's create returned").atMost(Duration.ofSeconds(10))
                .until(() -> chain().size() == 2);
        assertThat(chain()).containsExactly(name(0, 4), name(5, 9));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            task.put(List.of());
            return Long.valueOf(10).equals(context.metric("destination-offset-verified", P0_TAGS));
        });
    }

    @Test
    void aCommitAbandonedBehindAFailedOneIsNothingThatHappened() throws Exception {
        start();
        CountDownLatch release = new CountDownLatch(1);
        faults.holdNextCreateOf.put(0, release);
        faults.failHeldCreateOf.add(0);
        try (LogCapture logs = LogCapture.attach()) {
            task.put(records(0, 10));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> faults.heldCreates.containsKey(0));
            release.countDown();
            Awaitility.await("the premise: 0-4 failed").atMost(Duration.ofSeconds(10))
                    .until(() -> faults.heldCreateOutcomes.getOrDefault(0, "").contains("injected fault"));
            Awaitility.await("the premise: 5-9, started behind it, was abandoned").atMost(Duration.ofSeconds(10))
                    .until(() -> logs.lines().stream().anyMatch(l -> l.startsWith("abandoned the commit of") && l.contains(name(5, 9))));
        }
        Awaitility.await("P0 paused for its retry").atMost(Duration.ofSeconds(10)).until(() -> {
            task.put(List.of());
            return context.consumerPaused().contains(P0);
        });
        task.put(List.of());
        assertThat(context.metric("mirror-restarts-total", Map.of("mirror", "overlap-test"))).as("one failure, retried once")
                .isEqualTo(1L);
        assertThat(chain()).as("nothing of the abandoned 5-9").isEmpty();
        assertThat(faults.createsOf.get(0).get()).as("only the failed create reached the store").isEqualTo(1);

        clock.advance(100); // the retry is due: 0-4 is re-issued, then 5-9 is cut again
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            task.put(List.of());
            return Long.valueOf(10).equals(context.metric("destination-offset-verified", P0_TAGS));
        });
        assertThat(chain()).containsExactly(name(0, 4), name(5, 9));
        assertThat(context.consumerPaused()).as("resumed").isEmpty();
        assertThat(context.metric("mirror-restarts-total", Map.of("mirror", "overlap-test"))).isEqualTo(1L);
    }

    private static List<SinkRecord> records(long from, int n) {
        List<SinkRecord> out = new ArrayList<>();
        for (long o = from; o < from + n; o++) {
            out.add(new SinkRecord(TOPIC, 0, Schema.OPTIONAL_BYTES_SCHEMA, null, Schema.OPTIONAL_BYTES_SCHEMA, new byte[] {(byte) o}, o));
        }
        return out;
    }
}
