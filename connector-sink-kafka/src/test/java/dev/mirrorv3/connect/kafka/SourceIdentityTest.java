package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.connect.kafka.MirrorPositions.Pair;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.PositionException;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Where the Kafka sink finds which source topic a destination topic copies: its identity topic's record, or, for a copy
 * made before that topic, the connector's former consumer group (moved to the topic at the first positioning); and an
 * identity topic whose records could expire is refused. A real broker holds both sides.
 */
class SourceIdentityTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final KafkaTestBroker broker = KafkaTestBroker.perClass();

    private static SourceIdentity identity(String identityTopic, String connector) {
        Admin admin = broker.admin();
        Map<String, Object> clients = Map.of("bootstrap.servers", broker.bootstrapServers());
        IdentityTopic records = new IdentityTopic(identityTopic, admin,
                () -> new KafkaConsumer<>(clients, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                () -> new KafkaProducer<>(clients, new ByteArraySerializer(), new ByteArraySerializer()), "the test broker", TIMEOUT);
        return new SourceIdentity(admin, admin, records, SourceIdentity.legacyGroupId(connector), "the test broker", TIMEOUT);
    }

    /** A source topic and a destination topic holding {@code copied} records of it. */
    private static Pair copy(String name, int copied) {
        broker.createTopic(name, 1, Map.of());
        broker.createTopic(name + "-copy", 1, Map.of());
        KafkaSinkTestSupport.produceVaried(broker.bootstrapServers(), name + "-copy", 1, copied, 1);
        return new Pair(new TopicPartition(name, 0), new TopicPartition(name + "-copy", 0));
    }

    /** The source topic's id verify returns; the pair's failure, if verify gave it one, thrown. */
    private static String verify(SourceIdentity identity, Pair pair) throws Exception {
        String copy = pair.destination().topic();
        TopicDescription d = broker.admin().describeTopics(List.of(copy)).allTopicNames().get(30, TimeUnit.SECONDS).get(copy);
        Map<TopicPartition, Long> next = KafkaSinkTestSupport.highWatermarks(broker.admin(), copy, 1).entrySet().stream()
                .collect(java.util.stream.Collectors.toMap(e -> new TopicPartition(copy, e.getKey()), Map.Entry::getValue));
        PerPartition<Object> checked = new PerPartition<>();
        String id = identity.verify(List.of(pair), Map.of(copy, d), next, checked).get(pair.source().topic());
        if (checked.failed(pair.source())) {
            throw checked.failures().get(pair.source());
        }
        return id;
    }

    private static void recordInLegacyGroup(String connector, TopicPartition destination, String id) throws Exception {
        broker.admin().alterConsumerGroupOffsets(SourceIdentity.legacyGroupId(connector), Map.of(destination,
                new OffsetAndMetadata(10, SourceIdentity.LEGACY_METADATA_PREFIX + id))).all().get(30, TimeUnit.SECONDS);
    }

    @Test
    void aCopyMadeBeforeTheIdentityTopicIsCheckedByItsFormerGroupAndMovedToTheTopic() throws Exception {
        Pair pair = copy("legacy", 10);
        String id = KafkaSinkTestSupport.topicId(broker.admin(), "legacy");
        recordInLegacyGroup("legacy-connector", pair.destination(), id);
        SourceIdentity identity = identity("ids-legacy", "legacy-connector");

        assertThat(verify(identity, pair)).isEqualTo(id);
        broker.admin().deleteConsumerGroups(List.of(SourceIdentity.legacyGroupId("legacy-connector"))).all().get(30, TimeUnit.SECONDS);
        assertThat(identity.recorded(Map.of("legacy-copy", broker.admin().describeTopics(List.of("legacy-copy")).allTopicNames()
                .get(30, TimeUnit.SECONDS).get("legacy-copy"))).ids()).as("moved to the identity topic: the group may expire now")
                .isEqualTo(Map.of(pair.destination(), id));
    }

    @Test
    void aCopyWhoseFormerGroupRecordsAnotherTopicIsRefused() throws Exception {
        Pair pair = copy("legacy-other", 10);
        recordInLegacyGroup("other-connector", pair.destination(), "AAAAAAAAAAAAAAAAAAAAAA");
        SourceIdentity identity = identity("ids-other", "other-connector");

        assertThatThrownBy(() -> verify(identity, pair)).isInstanceOf(PositionException.class)
                .hasMessageContaining("source topic legacy-other was deleted and created again: destination legacy-other-copy-0 (next"
                        + " offset 10) holds a copy of the topic with id AAAAAAAAAAAAAAAAAAAAAA")
                .satisfies(e -> assertThat(((PositionException) e).topic()).as("the condition of the whole topic")
                        .contains("legacy-other"));
    }

    @Test
    void anIdentityTopicWhoseRecordsCouldExpireIsRefused() {
        Pair pair = copy("expiring", 1);
        broker.createTopic("ids-expiring", 1, Map.of("cleanup.policy", "delete", "retention.ms", "604800000"));

        assertThatThrownBy(() -> verify(identity("ids-expiring", "expiring-connector"), pair)).isInstanceOf(PositionException.class)
                .hasMessageStartingWith("topic ids-expiring on the test broker has cleanup.policy=delete (retention.ms=604800000): its"
                        + " records would expire")
                .hasMessageContaining("--add-config cleanup.policy=compact");
    }
}
