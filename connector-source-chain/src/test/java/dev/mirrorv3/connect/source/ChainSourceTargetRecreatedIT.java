package dev.mirrorv3.connect.source;

import static dev.mirrorv3.connect.source.ChainSourceTestSupport.highWatermark;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.records;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.sourceConfig;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.writeObject;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.testsupport.OneWorkerTestBase;
import dev.mirrorv3.testsupport.TestRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The target topic deleted and created again under a running chain source (docs/chain-source.md: the target's identity):
 * within a second, while the task produces the backup's records into it, and the new topic soon larger than the old
 * one (another producer fills it). The task must stop naming the target topic and both topic ids, and never go on
 * writing the backup into the new topic as if it were the old one.
 */
class ChainSourceTargetRecreatedIT extends OneWorkerTestBase {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int PER_OBJECT = 100;

    @Test
    void aTargetDeletedAndCreatedAgainWhileTheTaskProducesStopsTheTaskNamingBothIds() throws Exception {
        String bootstrap = cluster.bootstrapServers();
        String target = "recreated-standby";
        Store store = new FilesystemStore(root, "recreated");
        ChainSourceTestSupport.createTopic(bootstrap, target, 1);
        // the backup grows by an object every 50 ms for as long as the test runs: the follower always has records to send
        AtomicBoolean writing = new AtomicBoolean(true);
        CompletableFuture<Void> backup = CompletableFuture.runAsync(() -> {
            for (long from = 0; writing.get(); from += PER_OBJECT) {
                writeObject(store, 0, from, from + PER_OBJECT - 1, records("t", 0, from, from + PER_OBJECT - 1, o -> true));
                sleep(50);
            }
        });
        Awaitility.await("the backup's first object").atMost(WAIT).until(() -> root.resolve("recreated/0").toFile().isDirectory());
        Map<String, String> config = sourceConfig("t", root, "recreated", target, "preserve", bootstrap);
        config.put("poll.interval.ms", "100");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            cluster.deploy("recreated", config);
            Awaitility.await("the follower is producing").atMost(WAIT).until(() -> highWatermark(bootstrap, target, 0) >= 2000);
            String oldId = admin.describeTopics(List.of(target)).allTopicNames().get().get(target).topicId().toString();

            long deleted = System.nanoTime();
            long oldEnd = highWatermark(bootstrap, target, 0);
            admin.deleteTopics(List.of(target)).all().get(30, TimeUnit.SECONDS);
            createAgain(admin, target);
            long recreatedMs = (System.nanoTime() - deleted) / 1_000_000;
            String newId = newId(admin, target, oldId);
            // another producer makes the new topic larger than the old one was
            produceForeign(bootstrap, target, (int) oldEnd + 3 * PER_OBJECT);
            // the premise: deleted and created again within a second, a new topic id, and larger than the old one
            assertThat(recreatedMs).as("deleted and created again within a second").isLessThan(1000);
            assertThat(newId).isNotEqualTo(oldId);
            assertThat(highWatermark(bootstrap, target, 0)).isGreaterThan(oldEnd);

            String failure = cluster.awaitTaskFailure("recreated", WAIT);
            assertThat(failure).contains("target topic " + target + " was deleted and created again", oldId, newId);
            writing.set(false);
            backup.get(30, TimeUnit.SECONDS);
            // What the new topic holds of the backup: only records that were in flight when the old topic was deleted (the
            // producer retries them into the new one), the old topic's tail in order; nothing handed out after that.
            List<Long> backupOffsets = backupOffsetsIn(bootstrap, target);
            System.out.println("the new topic holds the backup's records " + backupOffsets);
            assertThat(backupOffsets).as("the backup's records in the new topic").hasSizeLessThanOrEqualTo(10 * PER_OBJECT);
            for (int i = 1; i < backupOffsets.size(); i++) {
                assertThat(backupOffsets.get(i)).as("the old topic's tail in order").isEqualTo(backupOffsets.get(0) + i);
            }
            if (!backupOffsets.isEmpty()) {
                assertThat(backupOffsets.get(0)).as("records the old topic did not hold yet").isGreaterThanOrEqualTo(oldEnd);
            }
            Thread.sleep(2000); // a stopped task writes nothing more
            assertThat(backupOffsetsIn(bootstrap, target)).isEqualTo(backupOffsets);
        } finally {
            writing.set(false);
        }
        cluster.delete("recreated");
    }

    /**
     * The silent case: a standby that has caught up (nothing in flight) whose target is deleted and created again, and
     * another producer writes as many records into the new topic as the old one held. Its high watermark is then the
     * follower's next offset, so the backup's next records would land exactly where they were produced for.
     */
    @Test
    void aCaughtUpStandbyDoesNotContinueIntoANewTargetThatHoldsAsManyRecords() throws Exception {
        String bootstrap = cluster.bootstrapServers();
        String target = "idle-standby";
        Store store = new FilesystemStore(root, "idle");
        writeObject(store, 0, 0, PER_OBJECT - 1, records("t", 0, 0, PER_OBJECT - 1, o -> true));
        ChainSourceTestSupport.createTopic(bootstrap, target, 1);
        Map<String, String> config = sourceConfig("t", root, "idle", target, "preserve", bootstrap);
        config.put("poll.interval.ms", "100");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            cluster.deploy("idle", config);
            Awaitility.await("the standby caught up").atMost(WAIT).until(() -> highWatermark(bootstrap, target, 0) == PER_OBJECT);
            String oldId = admin.describeTopics(List.of(target)).allTopicNames().get().get(target).topicId().toString();

            admin.deleteTopics(List.of(target)).all().get(30, TimeUnit.SECONDS);
            createAgain(admin, target);
            String newId = newId(admin, target, oldId);
            produceForeign(bootstrap, target, PER_OBJECT);
            assertThat(highWatermark(bootstrap, target, 0)).as("the new topic ends where the old one did").isEqualTo(PER_OBJECT);
            writeObject(store, 0, PER_OBJECT, 2 * PER_OBJECT - 1, records("t", 0, PER_OBJECT, 2 * PER_OBJECT - 1, o -> true));

            String failure = cluster.awaitTaskFailure("idle", WAIT);
            assertThat(failure).contains("target topic " + target + " was deleted and created again", oldId, newId);
            assertThat(backupOffsetsIn(bootstrap, target)).as("the backup's records in the new topic").isEmpty();
        }
        cluster.delete("idle");
    }

    /** The id of the topic created again, once its metadata is served (the old one until then). */
    private static String newId(Admin admin, String topic, String oldId) {
        return Awaitility.await("the new topic's metadata").atMost(WAIT).ignoreExceptions().until(
                () -> admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).topicId().toString(), id -> !id.equals(oldId));
    }

    /** Another producer's records ("foreign-<n>") into partition 0 of the topic, every one acknowledged. */
    private static void produceForeign(String bootstrap, String topic, int count) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(new ProducerRecord<>(topic, 0, null, ("foreign-" + i).getBytes(StandardCharsets.UTF_8)));
        }
        try (KafkaProducer<byte[], byte[]> p = ChainSourceTestSupport.producer(bootstrap)) {
            TestRecords.sendAll(p, records, Duration.ofSeconds(60));
        }
    }

    /** The backup offsets of the backup's records (values "value-<offset>") in the topic, in the topic's order. */
    private static List<Long> backupOffsetsIn(String bootstrap, String topic) {
        return TestRecords.readToEnd(bootstrap, new TopicPartition(topic, 0), WAIT).records().stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8)).filter(v -> v.startsWith("value-"))
                .map(v -> Long.parseLong(v.substring("value-".length()))).toList();
    }

    /** Creates the topic again as soon as the broker has finished deleting it (TopicExistsException until then). */
    private static void createAgain(Admin admin, String topic) throws Exception {
        while (true) {
            try {
                admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("retention.ms", "-1")))).all()
                        .get(30, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
                Thread.sleep(10); // the deletion is still in progress
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
