package dev.mirrorv3.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsResult;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The running check of the source topic's identity: a look begun after records were fetched covers them (one request
 * for every partition and topic it covers), a new id fails naming both ids as the condition of the whole topic (every
 * partition of it, the others' topics not), a topic that is gone passes.
 */
class SourceTopicCheckTest {
    private static final Node NODE = new Node(0, "localhost", 9092);
    private static final TopicPartition A0 = new TopicPartition("a", 0);
    private static final TopicPartition A1 = new TopicPartition("a", 1);
    private static final TopicPartition B0 = new TopicPartition("b", 0);

    private final AtomicInteger describes = new AtomicInteger();
    private final MockAdminClient admin = new MockAdminClient(List.of(NODE), NODE) {
        @Override
        public synchronized DescribeTopicsResult describeTopics(TopicCollection topics, DescribeTopicsOptions options) {
            describes.incrementAndGet();
            return super.describeTopics(topics, options);
        }
    };
    private final SourceTopicCheck check = new SourceTopicCheck(admin, Duration.ofSeconds(5));

    private void create(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    }

    private String id(String topic) {
        return TopicIds.read(admin, List.of(topic), Duration.ofSeconds(5)).get(topic);
    }

    private void expect(TopicPartition tp) {
        check.expect(tp, id(tp.topic()), new PositionRule.KafkaTopic(new TopicPartition(tp.topic() + "-copy", tp.partition())));
    }

    @Test
    void oneLookBegunAfterTheRecordsArrivedCoversEveryPartitionAndTopicOfThem() throws Exception {
        create("a", 2);
        create("b", 1);
        expect(A0);
        expect(A1);
        expect(B0);
        describes.set(0);

        long fetched = check.stamp();
        check.check(Map.of(A0, 10L, A1, 20L, B0, 5L), fetched);
        assertThat(describes).as("one request for both topics").hasValue(1);
        check.check(Map.of(A1, 20L), fetched);
        check.check(Map.of(B0, 5L), fetched);
        assertThat(describes).as("records fetched before the look are covered by it").hasValue(1);

        check.check(Map.of(A0, 11L), check.stamp());
        assertThat(describes).as("records fetched after the look need a new one").hasValue(2);
    }

    @Test
    void aTopicCreatedAgainFailsNamingBothIdsAndTheDestination() throws Exception {
        create("a", 1);
        String old = id("a");
        expect(A0);
        check.check(Map.of(A0, 10L), check.stamp());

        admin.deleteTopics(List.of("a")).all().get();
        create("a", 1);
        String now = id("a");
        assertThat(now).as("premise: a new id").isNotEqualTo(old);
        long fetched = check.stamp();
        assertThatThrownBy(() -> check.check(Map.of(A0, 12L), fetched)).isInstanceOf(PositionException.class)
                .hasMessageStartingWith("source topic a was deleted and created again: destination a-copy-0 (next offset 12) holds a copy"
                        + " of the topic with id " + old + ", and a now has id " + now)
                .hasMessageContaining("Nothing of the new topic was written for a-0")
                .satisfies(e -> assertThat(((PositionException) e).topic()).as("the condition of every partition of a").contains("a"));
    }

    @Test
    void theMismatchesAreEachPartitionOfTheTopicCreatedAgainAndNoneOfAnother() throws Exception {
        create("a", 2);
        create("b", 1);
        expect(A0);
        expect(A1);
        expect(B0);

        admin.deleteTopics(List.of("a")).all().get();
        create("a", 2);
        Map<TopicPartition, PositionException> failed = check.mismatches(Map.of(A0, 10L, A1, 20L, B0, 5L), check.stamp());

        assertThat(failed).as("a's partitions, not b's").containsOnlyKeys(A0, A1);
        assertThat(failed.get(A1)).hasMessageContaining("destination a-copy-1 (next offset 20)");
        assertThat(failed.values()).allSatisfy(e -> assertThat(e.topic()).contains("a"));
    }

    @Test
    void aTopicGoneOrNeverPositionedPasses() throws Exception {
        create("a", 1);
        expect(A0);
        admin.deleteTopics(List.of("a")).all().get();
        check.check(Map.of(A0, 10L), check.stamp()); // records fetched before the deletion are the old topic's

        describes.set(0);
        check.check(Map.of(B0, 3L), check.stamp());
        assertThat(describes).as("a partition never positioned is not looked at").hasValue(0);

        create("a", 1);
        check.forget(A0);
        check.check(Map.of(A0, 10L), check.stamp());
        assertThat(describes).as("nor one closed").hasValue(0);
    }
}
