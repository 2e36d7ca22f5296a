package dev.mirrorv3.connect.kafka;

import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.awaitDestination;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.awaitDestinationAtLeast;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.highWatermarks;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.FastRecreation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A source topic deleted and created again under the same name, whose new log has grown past the copy's end: the
 * destination's high watermark lies inside the new log, so only the topic id (kept on the destination, in the
 * connector's identity group) tells the topics apart. Nothing of the new topic may reach the old copy.
 */
class KafkaSinkRecreatedSourceIT extends SourceAndDestinationTestBase {
    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void aSourceRecreatedPastTheCopysEndIsRefusedByItsId() throws Exception {
        String topic = "recreated";
        String trace = copyThenRecreateWhileStopped(topic, () -> { });
        assertThat(trace).contains("new, empty destination topic");
        assertThat(KafkaSinkTestSupport.identityRecords(destination.bootstrapServers())).as("the old topic's id stays recorded")
                .anySatisfy(r -> assertThat(r).contains("source.topic=" + topic + "\n"))
                .noneSatisfy(r -> assertThat(r).contains(currentId(topic)));
        cluster.delete(topic);
    }

    /**
     * The connector stopped longer than the destination's offsets.retention.minutes: the broker expires consumer group
     * offsets then, and deleting the group is what that expiry does. The record of which source topic the copy holds
     * must outlive it, so the re-created topic is still refused by its id.
     */
    @Test
    void aSourceRecreatedWhileTheConnectorWasStoppedPastOffsetRetentionIsRefused() throws Exception {
        String topic = "recreated-expired";
        String group = SourceIdentity.legacyGroupId(topic);
        copyThenRecreateWhileStopped(topic, () -> {
            Admin admin = destination.admin();
            if (admin.listConsumerGroups().all().get(30, TimeUnit.SECONDS).stream().anyMatch(g -> g.groupId().equals(group))) {
                admin.deleteConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS);
            }
            assertThat(admin.listConsumerGroups().all().get(30, TimeUnit.SECONDS)).as("premise: no committed offsets left")
                    .noneMatch(g -> g.groupId().equals(group));
        });
        cluster.delete(topic);
    }

    /** What happens to the destination while the connector is stopped, before the source is created again. */
    private interface WhileStopped {
        void run() throws Exception;
    }

    /**
     * Copies 100 records of {@code topic}, stops the connector, deletes the source and creates it again with 300 records,
     * resumes: the partition must be isolated naming both ids, nothing of the new topic copied. Returns its failure's note.
     */
    private static String copyThenRecreateWhileStopped(String topic, WhileStopped whileStopped) throws Exception {
        createTopics(topic, 1);
        produceToSource(topic, 1, 100, 1);
        cluster.deploy(topic, config(topic));
        awaitDestination(cluster, topic, destination.admin(), topic, Map.of(0, 100L), WAIT);
        String oldId = currentId(topic);
        cluster.stop(topic, WAIT);
        whileStopped.run();
        cluster.kafka().deleteTopic(topic);
        cluster.kafka().createTopic(topic, 1);
        produceToSource(topic, 1, 300, 2);
        cluster.connect().resumeConnector(topic);

        String note = cluster.awaitPartitionFailed(topic, topic, 0, WAIT);
        assertThat(highWatermarks(destination.admin(), topic, 1)).as("nothing of the new topic is copied").isEqualTo(Map.of(0, 100L));
        assertThat(note).contains("source topic " + topic + " was deleted and created again",
                "destination " + topic + "-0 (next offset 100) holds a copy of the topic with id " + oldId,
                "now has id " + currentId(topic), "Nothing of the new topic was written");
        return note;
    }

    /**
     * The source deleted and created again within a second under a running task while records flow, the new topic at
     * once longer than the old one. The task is in a slow put() meanwhile (held before a send by the test), so its
     * consumer fetches nothing between the two topics and keeps its positions (no rebalance: the partition count is
     * unchanged): its next fetches return the new topic's records as the old one's next. Not one of them may reach the
     * copy. The partition watch, which would restart the task on its own timer, looks only every 10 minutes here: the
     * task's own check before a batch is sent is what is tested. The re-created topic is the condition of each of its
     * partitions: both are isolated, the task stays RUNNING.
     */
    @Test
    void aSourceRecreatedWithinASecondUnderARunningTaskNeverReachesTheCopy() throws Exception {
        String topic = "recreated-fast";
        int partitions = 2;
        createTopics(topic, partitions);
        CountDownLatch release = new CountDownLatch(1);
        FaultInjectingKafkaSinkConnector.RELEASE.set(release);
        FaultInjectingKafkaSinkConnector.BLOCKED[0] = new CountDownLatch(1);
        try (Admin source = cluster.kafka().createAdminClient();
             FastRecreation feed = FastRecreation.start(cluster.bootstrapServers(), source, topic, partitions, 200)) {
            Map<String, String> config = sinkConfig(FaultInjectingKafkaSinkConnector.class.getName(), topic, cluster.bootstrapServers(),
                    destination.bootstrapServers());
            config.put("partitions.watch.interval.ms", "600000");
            cluster.deploy(topic, config);
            awaitDestinationAtLeast(cluster, topic, destination.admin(), topic, Map.of(0, 100L, 1, 100L), WAIT);
            long holdAt = highWatermarks(destination.admin(), topic, partitions).values().stream().mapToLong(Long::longValue).max()
                    .orElseThrow() + 100;
            FaultInjectingKafkaSinkConnector.HOLD_AT.set(holdAt);
            assertThat(FaultInjectingKafkaSinkConnector.BLOCKED[0].await(30, TimeUnit.SECONDS)).as("premise: a put() is held")
                    .isTrue();
            FastRecreation.Recreated r = feed.recreate(1000);
            release.countDown();
            FastRecreation.assertFast(r);

            Awaitility.await("the partitions of " + topic + " isolated, the task failed or the copy past the old topic's end")
                    .atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> cluster.failureTrace(topic) != null
                            || cluster.partitionFailedGauge(topic, topic, 0) == 1 && cluster.partitionFailedGauge(topic, topic, 1) == 1
                            || highWatermarks(destination.admin(), topic, partitions).entrySet().stream()
                            .anyMatch(e -> e.getValue() > r.oldEnd().get(e.getKey())));
            Map<Integer, List<ConsumerRecord<byte[], byte[]>>> copy = consumeAll(destination.bootstrapServers(), topic);
            for (int p = 0; p < partitions; p++) {
                assertThat(copy.get(p)).as("premise: partition %d was copied while records flowed", p).isNotEmpty();
                for (ConsumerRecord<byte[], byte[]> c : copy.get(p)) {
                    String at = "copy of " + topic + "-" + p + " offset " + c.offset();
                    assertThat(FastRecreation.incarnation(c.headers())).as(at + ": a record of the old topic").isEqualTo("old");
                    feed.assertOldRecord(at, p, c.offset(), c.key(), c.value());
                }
            }
            FastRecreation.assertPartitionsIsolated(cluster, topic, partitions, r, WAIT);
        } finally {
            release.countDown();
            FaultInjectingKafkaSinkConnector.HOLD_AT.set(-1);
        }
        cluster.delete(topic);
    }

    private static String currentId(String topic) throws Exception {
        try (Admin admin = cluster.kafka().createAdminClient()) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).topicId().toString();
        }
    }
}
