package dev.mirrorv3.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** What is paused for a retry, what a positioning resumes, and what a close forgets. */
class RetryPausesTest {
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    private final List<TopicPartition> paused = new ArrayList<>();
    private final List<TopicPartition> resumed = new ArrayList<>();
    private final RetryPauses pauses = new RetryPauses(tps -> paused.addAll(List.of(tps)), tps -> resumed.addAll(List.of(tps)));

    @Test
    void pausedPartitionsAreCountedUntilPositioned() {
        pauses.pause(List.of(P0, P1));
        assertThat(paused).containsExactly(P0, P1);
        assertThat(pauses.count()).isEqualTo(2);

        assertThat(pauses.resume(List.of(P0))).containsExactly(P0);
        assertThat(resumed).containsExactly(P0);
        assertThat(pauses.partitions()).containsExactly(P1);
    }

    @Test
    void aPositionedPartitionIsResumedEvenIfThisTaskDidNotPauseItSinceItsClose() {
        pauses.pause(List.of(P0));
        pauses.closed(List.of(P0));
        assertThat(pauses.count()).as("a closed partition is not retried").isZero();

        // Connect pauses it again when it comes back: resuming it is what the positioning must do.
        assertThat(pauses.resume(List.of(P0))).as("not retried by this task: no log line").isEmpty();
        assertThat(resumed).containsExactly(P0);
    }

    @Test
    void nothingToDoCallsNothing() {
        pauses.pause(List.of());
        assertThat(pauses.resume(List.of())).isEmpty();
        assertThat(paused).isEmpty();
        assertThat(resumed).isEmpty();
    }
}
