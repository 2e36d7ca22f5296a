package dev.mirrorv3.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** When the watch restarts the tasks, and what the task configs carry. */
class PartitionWatchTest {
    @Test
    void aTopicWithMorePartitionsOrNewlyKnownIsGrowth() {
        assertThat(PartitionWatch.grew(Map.of("a", 3), Map.of("a", 4))).isTrue();
        assertThat(PartitionWatch.grew(Map.of("a", 3), Map.of("a", 3, "b", 1))).as("b created after the start").isTrue();
        assertThat(PartitionWatch.grew(Map.of(), Map.of("a", 3))).as("counts unknown at start").isTrue();
    }

    @Test
    void sameFewerOrMissingCountsAreNotGrowth() {
        assertThat(PartitionWatch.grew(Map.of("a", 3, "b", 2), Map.of("a", 3, "b", 2))).isFalse();
        assertThat(PartitionWatch.grew(Map.of("a", 3), Map.of("a", 1))).as("re-created smaller").isFalse();
        assertThat(PartitionWatch.grew(Map.of("a", 3, "b", 2), Map.of("a", 3))).as("b deleted").isFalse();
    }

    @Test
    void taskConfigValueIsSortedAndChangesWithTheCounts() {
        assertThat(PartitionWatch.format(Map.of("b", 2, "a", 3))).isEqualTo("a:3,b:2");
        assertThat(PartitionWatch.format(Map.of("a", 4, "b", 2))).isNotEqualTo(PartitionWatch.format(Map.of("a", 3, "b", 2)));
        assertThat(PartitionWatch.format(Map.of())).isEmpty();
    }

    @Test
    void aTopicWhoseIdChangedWasRecreatedWhateverItsCount() {
        assertThat(PartitionWatch.recreated(Map.of("a", "id1", "b", "id2"), Map.of("a", "id3", "b", "id2"))).containsExactly("a");
        assertThat(PartitionWatch.recreated(Map.of(), Map.of("a", "id1"))).as("unknown before: not a re-creation").isEmpty();
        assertThat(PartitionWatch.recreated(Map.of("a", "id1"), Map.of())).as("deleted, not yet created again").isEmpty();
    }
}
