package dev.mirrorv3.connect.kafka;

import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.awaitDestination;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.highWatermarks;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.kafka.KafkaSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.RestartableKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A source topic deleted and created again under the same name, whose new log has grown past the copy's end: the
 * destination's high watermark lies inside the new log, so only the topic id (kept on the destination, in the
 * connector's identity group) tells the topics apart. Nothing of the new topic may reach the old copy.
 */
class KafkaSinkRecreatedSourceIT {
    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);

    @RegisterExtension
    static final RestartableKafka destination = RestartableKafka.perClass();

    @Test
    void aSourceRecreatedPastTheCopysEndIsRefusedByItsId() throws Exception {
        String topic = "recreated";
        cluster.kafka().createTopic(topic, 1);
        destination.createTopic(topic, 1);
        produceVaried(cluster.bootstrapServers(), topic, 1, 100, 1);
        cluster.deploy(topic, sinkConfig(topic, cluster.bootstrapServers(), destination.bootstrapServers()));
        awaitDestination(cluster, topic, destination.admin(), topic, Map.of(0, 100L), WAIT);
        cluster.stop(topic, WAIT);
        cluster.kafka().deleteTopic(topic);
        cluster.kafka().createTopic(topic, 1);
        produceVaried(cluster.bootstrapServers(), topic, 1, 300, 2);
        cluster.connect().resumeConnector(topic);

        String note = cluster.awaitPartitionFailed(topic, topic, 0, WAIT);
        assertThat(highWatermarks(destination.admin(), topic, 1)).as("nothing of the new topic is copied").isEqualTo(Map.of(0, 100L));
        assertThat(note).contains("source topic " + topic + " was deleted and created again",
                "destination " + topic + "-0 (next offset 100) holds a copy of the topic with id", "new, empty destination topic",
                "Nothing of the new topic was written");
        assertThat(destination.admin().listConsumerGroupOffsets(SourceIdentity.groupId(topic)).partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS).values()).as("the old topic's id stays recorded").hasSize(1)
                .allSatisfy(o -> assertThat(o.metadata()).doesNotContain(currentId(topic)));
        cluster.delete(topic);
    }

    private static String currentId(String topic) throws Exception {
        try (Admin admin = cluster.kafka().createAdminClient()) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).topicId().toString();
        }
    }
}
