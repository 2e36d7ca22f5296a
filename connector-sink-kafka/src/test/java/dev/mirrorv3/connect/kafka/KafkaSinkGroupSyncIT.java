package dev.mirrorv3.connect.kafka;

import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.awaitDestination;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.highWatermarks;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.TestConsumers;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * groups.sync: the source's consumer groups reach the destination at the same offsets, double-clamped into the
 * destination's range, never for a group active there, filtered by include/exclude; a reset on the source moves the
 * destination back; a group deleted on the source stays on the destination; the metrics say so.
 */
class KafkaSinkGroupSyncIT extends SourceAndDestinationTestBase {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String TOPIC = "orders";
    private static final String COPY = "orders-copy";
    private static final TopicPartition S0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition S1 = new TopicPartition(TOPIC, 1);
    private static final TopicPartition D0 = new TopicPartition(COPY, 0);
    private static final TopicPartition D1 = new TopicPartition(COPY, 1);

    @Test
    void groupsReachTheDestinationClampedGuardedAndFiltered() throws Exception {
        String name = "group-sync";
        cluster.kafka().createTopic(TOPIC, 2);
        cluster.kafka().createTopic("unmirrored", 1);
        destination.createTopic(COPY, 2);
        produceToSource(TOPIC, 2, 100, 1);
        try (Admin source = cluster.kafka().createAdminClient();
             KafkaConsumer<byte[], byte[]> live = TestConsumers.activeMember(destination.bootstrapServers(), "live", D0, 3, WAIT)) {
            commit(source, "app-a", Map.of(S0, 40L, S1, 60L));
            commit(source, "app-b", Map.of(S0, 100L, S1, 100L));
            commit(source, "ahead", Map.of(S0, 500L));        // beyond what the destination holds: clamped to its end
            commit(source, "old", Map.of(S1, 5L));            // below the destination's log start after its retention
            commit(source, "excluded-x", Map.of(S0, 7L));     // include matches, exclude wins
            commit(source, "live", Map.of(S0, 50L));          // active on the destination: its consumer owns it
            commit(source, "other-topic-only", Map.of(new TopicPartition("unmirrored", 0), 1L));

            Map<String, String> config = config(TOPIC);
            config.put("destination.topic", "${topic}-copy");
            config.put("groups.sync", "true");
            config.put("groups.interval.ms", "300");
            config.put("groups.exclude", "excluded-.*");
            cluster.deploy(name, config);
            awaitDestination(cluster, name, destination.admin(), COPY, highWatermarks(source, TOPIC, 2), WAIT);
            destination.admin().deleteRecords(Map.of(D1, RecordsToDelete.beforeOffset(20))).all().get(30, TimeUnit.SECONDS);

            awaitGroup("app-a", Map.of(D0, 40L, D1, 60L));
            awaitGroup("app-b", Map.of(D0, 100L, D1, 100L));
            awaitGroup("ahead", Map.of(D0, 100L));
            awaitGroup("old", Map.of(D1, 20L));
            assertThat(committed("app-a").get(D0).metadata()).as("the source's metadata is kept").isEqualTo("by app-a");
            assertThat(committed("live")).as("a group active on the destination is never written")
                    .isEqualTo(Map.of(D0, new OffsetAndMetadata(3)));
            assertThat(committed("excluded-x")).as("exclude wins").isEmpty();
            assertThat(committed("connect-" + name)).as("the connector's own group").isEmpty();
            assertThat(committed("other-topic-only")).as("a group without offsets on the mirrored topics").isEmpty();
            cluster.awaitConnectorMetric(name, "groups-skipped", 1, WAIT);
            cluster.awaitConnectorMetric(name, "groups-synced", 4, WAIT);
            assertThat(cluster.connectorMetric(name, "groups-sync-timestamp-seconds")).isGreaterThan(0);
            assertThat(cluster.connectorMetric(name, "groups-sync-interval-ms")).as("groups.interval.ms as configured").isEqualTo(300);
            assertThat(cluster.connectorMetric(name, "group-offsets-clamped")).isEqualTo(2);

            // A reset on the source (kafka-consumer-groups --reset-offsets) moves the destination back too.
            commit(source, "app-a", Map.of(S0, 10L, S1, 60L));
            awaitGroup("app-a", Map.of(D0, 10L, D1, 60L));

            // A group deleted on the source is kept on the destination; the others keep syncing.
            source.deleteConsumerGroups(List.of("app-b")).all().get(30, TimeUnit.SECONDS);
            commit(source, "app-a", Map.of(S0, 12L, S1, 60L));
            awaitGroup("app-a", Map.of(D0, 12L, D1, 60L));
            cluster.awaitConnectorMetric(name, "groups-synced", 3, WAIT); // a later pass, without app-b
            assertThat(offsets("app-b")).as("deleted on the source, kept on the destination").isEqualTo(Map.of(D0, 100L, D1, 100L));

            // Once its consumers leave, a group that was live is synced like the others.
            live.close();
            awaitGroup("live", Map.of(D0, 50L));
        }
        cluster.awaitRunning(name, WAIT);
        cluster.delete(name);
    }

    /**
     * A source topic deleted and created again: its new consumers' small offsets belong to another topic of the same
     * name and must never move the standby's groups back, while a reset of a group on a topic that was not re-created
     * still moves its standby group as designed. The group sync says why it leaves the topic out, naming both ids.
     */
    @Test
    void aRecreatedSourceTopicNeverMovesItsGroupsOnTheDestination() throws Exception {
        String name = "group-sync-recreated";
        String kept = "gs-kept";
        String recreated = "gs-recreated";
        TopicPartition keptSource = new TopicPartition(kept, 0);
        TopicPartition recreatedSource = new TopicPartition(recreated, 0);
        TopicPartition keptCopy = new TopicPartition(kept + "-copy", 0);
        TopicPartition recreatedCopy = new TopicPartition(recreated + "-copy", 0);
        for (String t : List.of(kept, recreated)) {
            createTopics(t, t + "-copy", 1);
            produceToSource(t, 1, 100, 3);
        }
        try (Admin source = cluster.kafka().createAdminClient(); LogCapture logs = LogCapture.attach()) {
            commit(source, "app-r", Map.of(recreatedSource, 80L));
            commit(source, "app-k", Map.of(keptSource, 60L));
            Map<String, String> config = sinkConfig(kept + "," + recreated, cluster.bootstrapServers(), destination.bootstrapServers());
            config.put("destination.topic", "${topic}-copy");
            config.put("groups.sync", "true");
            config.put("groups.interval.ms", "300");
            cluster.deploy(name, config);
            awaitDestination(cluster, name, destination.admin(), recreatedCopy.topic(), Map.of(0, 100L), WAIT);
            awaitGroup("app-r", Map.of(recreatedCopy, 80L));
            commit(source, "app-r", Map.of(recreatedSource, 30L)); // a reset on the same topic moves the standby back
            awaitGroup("app-r", Map.of(recreatedCopy, 30L));
            awaitGroup("app-k", Map.of(keptCopy, 60L));

            String oldId = topicId(source, recreated);
            cluster.kafka().deleteTopic(recreated);
            cluster.kafka().createTopic(recreated, 1);
            produceToSource(recreated, 1, 10, 4);
            String newId = topicId(source, recreated);
            assertThat(newId).as("premise: the topic was created again").isNotEqualTo(oldId);
            commit(source, "app-r", Map.of(recreatedSource, 5L)); // a consumer of the new topic
            commit(source, "app-k", Map.of(keptSource, 70L));
            awaitGroup("app-k", Map.of(keptCopy, 70L)); // premise: a pass read both commits

            assertThat(offsets("app-r")).as("the re-created topic's offsets never reach the standby")
                    .isEqualTo(Map.of(recreatedCopy, 30L));
            assertThat(logs.lines()).as("the group sync says why, naming both ids").anySatisfy(line -> assertThat(line)
                    .contains("source topic " + recreated + " was deleted and created again", "holds a copy of the topic with id "
                            + oldId, recreated + " now has id " + newId, "consumer group offsets"));
        }
        cluster.delete(name);
    }

    private static String topicId(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).topicId().toString();
    }

    private static void commit(Admin admin, String group, Map<TopicPartition, Long> offsets) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
        offsets.forEach((tp, o) -> m.put(tp, new OffsetAndMetadata(o, "by " + group)));
        admin.alterConsumerGroupOffsets(group, m).all().get(30, TimeUnit.SECONDS);
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>(destination.admin().listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS));
        m.values().removeIf(v -> v == null);
        return m;
    }

    private static Map<TopicPartition, Long> offsets(String group) throws Exception {
        Map<TopicPartition, Long> m = new TreeMap<>(java.util.Comparator.comparing(TopicPartition::toString));
        committed(group).forEach((tp, o) -> m.put(tp, o.offset()));
        return m;
    }

    private static void awaitGroup(String group, Map<TopicPartition, Long> expected) {
        Awaitility.await("group " + group + " on the destination at " + expected).atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> offsets(group).equals(expected));
    }
}
