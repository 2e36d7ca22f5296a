package dev.mirrorv3.chain.meta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.meta.GroupSnapshot.CommittedOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A group snapshot never drops a partition an earlier one had. */
class GroupSnapshotTest {

    @Test
    void aPartitionTheWriterNoLongerHasOpenIsCarriedForwardWithEveryGroupsOffsetOnIt() {
        GroupSnapshot older = new GroupSnapshot(1_000, "orders", Map.of(0, 100L, 1, 50L, 2, 70L), Map.of(
                "billing", Map.of(0, new CommittedOffset(90, "m"), 2, new CommittedOffset(60, "")),
                "audit", Map.of(2, new CommittedOffset(65, "a"))));
        // partition 2 was closed (a task stopping): only 0 and 1 are open; billing moved on 0 and committed nothing on 1
        GroupSnapshot now = new GroupSnapshot(2_000, "orders", Map.of(0, 120L, 1, 55L), Map.of(
                "billing", Map.of(0, new CommittedOffset(110, "m"))));

        GroupSnapshot merged = now.carryingForward(older);

        assertThat(merged.timeMs()).isEqualTo(2_000);
        assertThat(merged.chainNextOffsets()).isEqualTo(Map.of(0, 120L, 1, 55L, 2, 70L));
        assertThat(merged.groups()).isEqualTo(Map.of(
                "billing", Map.of(0, new CommittedOffset(110, "m"), 2, new CommittedOffset(60, "")),
                "audit", Map.of(2, new CommittedOffset(65, "a"))));
        assertThat(merged.sameOffsetsAs(older)).as("billing moved on 0").isFalse();
    }

    @Test
    void anOpenPartitionTakesTheNewOffsetsOnlyAndADeletedGroupIsNotRevivedThere() {
        GroupSnapshot older = new GroupSnapshot(1_000, "orders", Map.of(0, 100L), Map.of(
                "gone", Map.of(0, new CommittedOffset(10, ""))));
        GroupSnapshot now = new GroupSnapshot(2_000, "orders", Map.of(0, 120L), Map.of());

        assertThat(now.carryingForward(older)).isEqualTo(now);
        assertThat(now.carryingForward(null)).isEqualTo(now);
        assertThat(now.carryingForward(new GroupSnapshot(1, "other", Map.of(5, 1L), Map.of()))).as("another topic's").isEqualTo(now);
    }

    /** A snapshot never mixes two topics of the same name (a topic deleted and created again has another id). */
    @Test
    void nothingIsCarriedFromASnapshotOfAnotherTopicIdOrOfNone() {
        GroupSnapshot older = new GroupSnapshot(1_000, "orders", "old-id", Map.of(0, 100L, 2, 70L), Map.of(
                "billing", Map.of(2, new CommittedOffset(60, ""))));
        GroupSnapshot now = new GroupSnapshot(2_000, "orders", "new-id", Map.of(0, 5L),
                Map.of("billing", Map.of(0, new CommittedOffset(3, ""))));

        assertThat(now.carryingForward(older)).isEqualTo(now);
        assertThat(now.carryingForward(new GroupSnapshot(1_000, "orders", older.chainNextOffsets(), older.groups())))
                .as("written before ids were recorded: its offsets cannot be told to be this topic's").isEqualTo(now);
        GroupSnapshot sameTopic = new GroupSnapshot(2_000, "orders", "old-id", Map.of(0, 120L), Map.of());
        assertThat(sameTopic.carryingForward(older).groups()).isEqualTo(Map.of("billing", Map.of(2, new CommittedOffset(60, ""))));
        assertThat(sameTopic.carryingForward(older).topicId()).isEqualTo("old-id");
    }

    @Test
    void theSameOffsetsOfAnotherTopicIdAreNotTheSame() {
        Map<String, Map<Integer, CommittedOffset>> offsets = Map.of("billing", Map.of(0, new CommittedOffset(3, "")));
        GroupSnapshot a = new GroupSnapshot(1_000, "orders", "id-a", Map.of(0, 5L), offsets);

        assertThat(a.sameOffsetsAs(new GroupSnapshot(9_000, "orders", "id-a", Map.of(0, 50L), offsets))).isTrue();
        assertThat(a.sameOffsetsAs(new GroupSnapshot(9_000, "orders", "id-b", Map.of(0, 5L), offsets))).isFalse();
        assertThat(a.sameOffsetsAs(new GroupSnapshot(9_000, "orders", Map.of(0, 5L), offsets))).as("no id recorded").isFalse();
        assertThat(a.at(5_000)).isEqualTo(new GroupSnapshot(5_000, "orders", "id-a", Map.of(0, 5L), offsets));
    }
}
