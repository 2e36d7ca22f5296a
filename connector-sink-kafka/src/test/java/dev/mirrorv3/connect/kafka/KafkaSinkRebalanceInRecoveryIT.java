package dev.mirrorv3.connect.kafka;

import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.awaitDestinationAtLeast;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.awaitExactCopyOfSteadySource;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.highWatermarks;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.outageConfig;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.total;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.SteadySource;
import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.TestConsumers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.TopicPartition;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A rebalance in the middle of a recovery (docs/kafka-sink.md, "Transient failures"): the destination broker hangs
 * longer than delivery.timeout.ms with records in flight, so the producer is aborted and the recovery starts; a second
 * member joins the sink's consumer group, so Connect closes the task's partitions while the recovery is still waiting
 * for the destination, and opens some of them again. The broker wakes up while the task is waiting on it (in close()
 * with the settle step, in the next open()'s positioning without it), and appends what the aborted producer had sent
 * half a second later (the proxy delivers what came through closed connections last). Closing must wait for that late
 * append, or the next owner positions below it and its first delivery lands at the wrong offset (the task fails).
 * The copy must be exact record by record at the same offsets, and the task RUNNING throughout.
 */
class KafkaSinkRebalanceInRecoveryIT extends SourceAndDestinationTestBase {
    private static final String TOPIC = "rebalance-in-recovery";
    private static final int PARTITIONS = 3;
    /** Longer than the wait between the revocation and the thaw, so the read started in close() or open() spans it. */
    private static final long ADMIN_TIMEOUT_MS = 6000;
    /** How long after the revocation the broker wakes up: the task is then waiting for it, in close() or in open(). */
    private static final long THAW_AFTER_REVOKE_MS = 2000;
    /** When the late append has landed (delivered SETTLE_MS / 2 after the thaw), before a close that waits for it ends. */
    private static final long LATE_APPEND_SEEN_MS = 900;
    private static final String RECOVERY_STARTED = "the producer is aborted";
    private static final String RECOVERY_ENDED = "reachable again: continuing";
    private static final String REVOKED = "Partitions revoked";
    /** Logs the revocation, at DEBUG (not public: named). */
    private static final String WORKER_SINK_TASK = "org.apache.kafka.connect.runtime.WorkerSinkTask";

    @Test
    void aRebalanceDuringARecoveryFromAFrozenDestinationWaitsForTheLateAppendAndLeavesAnExactCopy() throws Exception {
        createTopics(TOPIC, PARTITIONS);
        Map<String, String> config = outageConfig(TOPIC, cluster.bootstrapServers(), destination.proxiedBootstrapServers(),
                ADMIN_TIMEOUT_MS);
        // Eager: the intruder's join revokes every partition of the task (close() of all of them), then assigns two back.
        config.put("consumer.override.partition.assignment.strategy", RangeAssignor.class.getName());

        List<Sample> samples = new CopyOnWriteArrayList<>();
        long frozenAt;
        long thawedAt;
        long copiedAt;
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        try (LogCapture log = LogCapture.attach();
             Admin source = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
             SteadySource feed = new SteadySource(cluster.bootstrapServers(), TOPIC, PARTITIONS, 100, 21)) {
            cluster.deploy(TOPIC, config);
            cluster.awaitRunning(TOPIC, Duration.ofSeconds(60));
            sampler.scheduleAtFixedRate(() -> sample(samples), 0, 100, TimeUnit.MILLISECONDS);
            awaitDestinationAtLeast(cluster, TOPIC, destination.admin(), TOPIC, Map.of(0, 200L, 1, 200L, 2, 200L), Duration.ofSeconds(60));

            destination.proxy().freeze();
            frozenAt = System.currentTimeMillis();
            Awaitility.await("a delivery times out and the recovery starts").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100)).until(() -> contains(log.lines(), RECOVERY_STARTED));

            Configurator.setLevel(WORKER_SINK_TASK, Level.DEBUG); // its "Partitions revoked" line
            try (KafkaConsumer<byte[], byte[]> intruder = TestConsumers.intruder(cluster.bootstrapServers(), TOPIC, "connect-" + TOPIC,
                    RangeAssignor.class)) {
                thawedAt = joinAndThawWhileTheTaskWaits(intruder, log);
                // The task copies the partitions it got back while the intruder keeps the others: its first deliveries
                // after the late append must land at their source offsets.
                Map<Integer, Long> expected = new TreeMap<>();
                highWatermarks(source, TOPIC, PARTITIONS).forEach((p, h) ->
                        expected.put(p, intruder.assignment().contains(new TopicPartition(TOPIC, p)) ? 0L : h));
                assertThat(expected.values()).as("the task got partitions back: %s", expected).anyMatch(h -> h > 0);
                awaitDestinationAtLeast(cluster, TOPIC, destination.admin(), TOPIC, expected, Duration.ofSeconds(60));
            } finally {
                Configurator.setLevel(WORKER_SINK_TASK, Level.INFO);
            }
            assertCloseRanDuringTheRecovery(log.lines());

            // The intruder has left: the task owns every partition again and catches up with the steady source.
            awaitExactCopyOfSteadySource(cluster, TOPIC, source, feed, destination, TOPIC, PARTITIONS);
            copiedAt = System.currentTimeMillis();
        } finally {
            destination.proxy().thaw(); // when the test failed before it did
            sampler.shutdownNow();
        }
        assertThat(cluster.taskState(TOPIC)).isEqualTo("RUNNING");
        assertStatusSampledThroughout(samples, frozenAt, thawedAt, copiedAt);
        cluster.delete(TOPIC);
    }

    /**
     * Keeps the intruder polling until the rebalance it started has completed; thaws the destination
     * {@link #THAW_AFTER_REVOKE_MS} after the worker revoked the task's partitions, while the task waits on the
     * destination, and checks the premise: records lost in flight were appended after the thaw. Returns when it thawed.
     */
    private static long joinAndThawWhileTheTaskWaits(KafkaConsumer<byte[], byte[]> intruder, LogCapture log) {
        long deadline = System.currentTimeMillis() + 60_000;
        long revokedAt = 0;
        long thawedAt = 0;
        Map<Integer, Long> atThaw = null;
        Map<Integer, Long> lateAppendSeen = null;
        while (lateAppendSeen == null || intruder.assignment().isEmpty()) {
            assertThat(System.currentTimeMillis()).as("the rebalance completes within a minute").isLessThan(deadline);
            intruder.poll(Duration.ofMillis(100)); // joins, and stays in the group until the rebalance completes
            long now = System.currentTimeMillis();
            if (revokedAt == 0 && contains(log.lines(), REVOKED)) {
                revokedAt = now;
            }
            if (thawedAt == 0 && revokedAt > 0 && now - revokedAt >= THAW_AFTER_REVOKE_MS) {
                atThaw = highWatermarks(destination.admin(), TOPIC, PARTITIONS); // direct, not through the proxy
                // What the aborted producer sent lands half a second after the rest: after a read made at once.
                destination.proxy().thaw(Duration.ofMillis(DestinationRecovery.SETTLE_MS / 2));
                thawedAt = now;
            }
            if (thawedAt > 0 && lateAppendSeen == null && now - thawedAt >= LATE_APPEND_SEEN_MS) {
                lateAppendSeen = highWatermarks(destination.admin(), TOPIC, PARTITIONS);
            }
        }
        System.out.printf("destination high watermarks at the thaw %s, %d ms later %s%n", atThaw, LATE_APPEND_SEEN_MS, lateAppendSeen);
        assertThat(total(lateAppendSeen)).as("records lost in flight appended after the thaw: %s, at the thaw %s", lateAppendSeen,
                atThaw).isGreaterThan(total(atThaw));
        return thawedAt;
    }

    /**
     * "No FAILED" means something only when the task's status was read while it could have failed: in the recovery (from
     * the freeze to the thaw, the revocation inside it) and after it until the copy was exact. A sampler whose every
     * read failed (the REST API busy) or that never ran leaves no sample, and an empty set contains no FAILED either.
     */
    private static void assertStatusSampledThroughout(List<Sample> samples, long frozenAt, long thawedAt, long copiedAt) {
        List<Sample> inRecovery = samples.stream().filter(s -> s.atMs() >= frozenAt && s.atMs() <= thawedAt).toList();
        List<Sample> afterIt = samples.stream().filter(s -> s.atMs() > thawedAt && s.atMs() <= copiedAt).toList();
        System.out.printf("task status samples: %d in the recovery (%d ms), %d after it until the copy was exact (%d ms)%n",
                inRecovery.size(), thawedAt - frozenAt, afterIt.size(), copiedAt - thawedAt);
        assertThat(inRecovery).as("task status samples from the freeze to the thaw (%d ms)", thawedAt - frozenAt).isNotEmpty();
        assertThat(afterIt).as("task status samples from the thaw until the copy was exact (%d ms)", copiedAt - thawedAt)
                .isNotEmpty();
        assertThat(samples).as("task states sampled every 100 ms").extracting(Sample::state).doesNotContain("FAILED");
    }

    /** The worker revoked the task's partitions after the recovery started and before it ended. */
    private static void assertCloseRanDuringTheRecovery(List<String> lines) {
        int started = indexOf(lines, RECOVERY_STARTED);
        int revoked = indexOf(lines, REVOKED);
        assertThat(revoked).as("the worker revoked the partitions after the recovery started").isGreaterThan(started);
        List<String> between = lines.subList(started, revoked);
        assertThat(between).as("log between the recovery's start and the revocation").noneMatch(l -> l.contains(RECOVERY_ENDED));
    }

    /** One read of the task's status, and when it was taken. */
    private record Sample(long atMs, String state) {
    }

    private static void sample(List<Sample> samples) {
        try {
            String state = cluster.taskState(TOPIC);
            boolean firstFailure = "FAILED".equals(state) && samples.stream().noneMatch(s -> "FAILED".equals(s.state()));
            samples.add(new Sample(System.currentTimeMillis(), state));
            if (firstFailure) {
                System.out.println("task FAILED: " + cluster.failureTrace(TOPIC));
            }
        } catch (RuntimeException e) {
            // the REST API busy with the rebalance: the next sample
        }
    }

    private static boolean contains(List<String> lines, String text) {
        return indexOf(lines, text) >= 0;
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }
}
