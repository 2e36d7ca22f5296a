package dev.mirrorv3.kafka.groups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.CoordinatorLoadInProgressException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;

/** The batching and filtering of the reader; the admin calls themselves are exercised against brokers by the connectors' ITs. */
class CommittedOffsetsTest {
    private static final TopicPartition EVENTS_0 = new TopicPartition("events", 0);
    private static final TopicPartition OTHER_0 = new TopicPartition("other", 0);

    private final List<Integer> callSizes = new ArrayList<>();

    private CommittedOffsets reader(Map<String, Map<TopicPartition, OffsetAndMetadata>> cluster, Map<String, RuntimeException> failures) {
        return new CommittedOffsets(null, request -> {
            callSizes.add(request.size());
            Map<String, KafkaFuture<Map<TopicPartition, OffsetAndMetadata>>> futures = new HashMap<>();
            for (Map.Entry<String, ListConsumerGroupOffsetsSpec> e : request.entrySet()) {
                KafkaFutureImpl<Map<TopicPartition, OffsetAndMetadata>> f = new KafkaFutureImpl<>();
                if (failures.containsKey(e.getKey())) {
                    f.completeExceptionally(failures.get(e.getKey()));
                } else {
                    f.complete(cluster.getOrDefault(e.getKey(), Map.of()));
                }
                futures.put(e.getKey(), f);
            }
            return futures;
        }, topics -> {
            throw new AssertionError("no topic ids read");
        }, Duration.ofSeconds(5));
    }

    @Test
    void twoThousandGroupsTakeFourCalls() throws Exception {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> cluster = new HashMap<>();
        List<String> groups = IntStream.range(0, 2000).mapToObj(i -> "g" + i).toList();
        groups.forEach(g -> cluster.put(g, Map.of(EVENTS_0, new OffsetAndMetadata(g.length()))));
        CommittedOffsets reader = reader(cluster, Map.of());

        Map<String, Map<TopicPartition, OffsetAndMetadata>> read = reader.read(groups, tp -> true);

        assertThat(read).hasSize(2000);
        assertThat(callSizes).containsExactly(500, 500, 500, 500);
        assertThat(reader.calls()).isEqualTo(4);
    }

    @Test
    void keepsOnlyWantedPartitionsWithAnOffset() throws Exception {
        Map<TopicPartition, OffsetAndMetadata> mixed = new HashMap<>();
        mixed.put(EVENTS_0, new OffsetAndMetadata(7, "m"));
        mixed.put(new TopicPartition("events", 1), null);
        mixed.put(OTHER_0, new OffsetAndMetadata(9));
        CommittedOffsets reader = reader(Map.of("a", mixed, "b", Map.of(OTHER_0, new OffsetAndMetadata(1))), Map.of());

        Map<String, Map<TopicPartition, OffsetAndMetadata>> read = reader.read(List.of("a", "b"), tp -> tp.topic().equals("events"));

        assertThat(read).containsOnlyKeys("a");
        assertThat(read.get("a")).containsExactly(Map.entry(EVENTS_0, new OffsetAndMetadata(7, "m")));
    }

    @Test
    void aDeletedGroupIsAbsentAndATransientFailureThrows() throws Exception {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> cluster = Map.of("a", Map.of(EVENTS_0, new OffsetAndMetadata(1)));
        assertThat(reader(cluster, Map.of("gone", new GroupIdNotFoundException("gone"))).read(List.of("a", "gone"), tp -> true))
                .containsOnlyKeys("a");
        assertThatThrownBy(() -> reader(cluster, Map.of("a", new CoordinatorLoadInProgressException("loading")))
                .read(List.of("a"), tp -> true))
                .isInstanceOf(CoordinatorLoadInProgressException.class);
    }

    /** Reads the topic ids from {@code looks}, one map per read, in order (before the offsets, then after them). */
    private CommittedOffsets readerWithIds(Map<String, Map<TopicPartition, OffsetAndMetadata>> cluster, List<Map<String, String>> looks) {
        java.util.Iterator<Map<String, String>> next = looks.iterator();
        return new CommittedOffsets(null, request -> {
            Map<String, KafkaFuture<Map<TopicPartition, OffsetAndMetadata>>> futures = new HashMap<>();
            request.keySet().forEach(g -> futures.put(g, KafkaFuture.completedFuture(cluster.getOrDefault(g, Map.of()))));
            return futures;
        }, topics -> next.next(), Duration.ofSeconds(5));
    }

    @Test
    void offsetsAreAttributedToTheTopicIdTheyWereReadForAndATopicThatChangedMeanwhileIsLeftOutWithWhy() throws Exception {
        TopicPartition events1 = new TopicPartition("events", 1);
        Map<String, Map<TopicPartition, OffsetAndMetadata>> cluster = Map.of(
                "a", Map.of(EVENTS_0, new OffsetAndMetadata(7, "m"), events1, new OffsetAndMetadata(3), OTHER_0, new OffsetAndMetadata(9)),
                "b", Map.of(OTHER_0, new OffsetAndMetadata(1), new TopicPartition("unrelated", 0), new OffsetAndMetadata(5)));

        CommittedOffsets.ByTopic stable = readerWithIds(cluster, List.of(Map.of("events", "id-e", "other", "id-o"),
                Map.of("events", "id-e", "other", "id-o")))
                .readByTopic(List.of("a", "b"), List.of("events", "other"), tp -> !tp.equals(events1));

        assertThat(stable.unattributed()).isEmpty();
        assertThat(stable.offsets()).containsOnlyKeys("events", "other");
        assertThat(stable.offsets().get("events")).isEqualTo(new CommittedOffsets.TopicOffsets("id-e",
                Map.of("a", Map.of(EVENTS_0, new OffsetAndMetadata(7, "m")))));
        assertThat(stable.offsets().get("other")).isEqualTo(new CommittedOffsets.TopicOffsets("id-o",
                Map.of("a", Map.of(OTHER_0, new OffsetAndMetadata(9)), "b", Map.of(OTHER_0, new OffsetAndMetadata(1)))));

        // events deleted and created again between the two looks; other deleted (gone in the second look)
        CommittedOffsets.ByTopic changed = readerWithIds(cluster, List.of(Map.of("events", "id-e", "other", "id-o"),
                Map.of("events", "id-e2"))).readByTopic(List.of("a", "b"), List.of("events", "other"), tp -> true);

        assertThat(changed.offsets()).isEmpty();
        assertThat(changed.unattributed()).containsOnlyKeys("events", "other");
        assertThat(changed.unattributed().get("events")).contains("topic events was deleted and created again while its offsets were read",
                "id-e,", "id-e2");
        assertThat(changed.unattributed().get("other")).isEqualTo("topic other does not exist (it was deleted)");

        // created meanwhile: not there before the offsets were read
        assertThat(readerWithIds(cluster, List.of(Map.of(), Map.of("events", "id-e")))
                .readByTopic(List.of("a"), List.of("events"), tp -> true).unattributed()).containsOnlyKeys("events");
    }
}
