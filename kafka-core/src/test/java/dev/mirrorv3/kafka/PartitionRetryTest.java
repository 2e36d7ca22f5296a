package dev.mirrorv3.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** A transient failure backs off, counts and pauses; a fatal one is left to the caller; a success starts over. */
class PartitionRetryTest {
    private final AtomicInteger counted = new AtomicInteger();
    private final List<String> pauses = new ArrayList<>();
    private final PartitionRetry retry = new PartitionRetry(100, 300, counted::incrementAndGet);

    private boolean fail(RuntimeException e) {
        return retry.retry(e, (delay, attempt, cause) -> pauses.add(delay + "ms #" + attempt + " " + cause));
    }

    @Test
    void transientFailuresBackOffCountAndPause() {
        assertThat(fail(new TimeoutException("no answer"))).isTrue();
        assertThat(fail(new TimeoutException("no answer"))).isTrue();
        assertThat(fail(new TimeoutException("no answer"))).isTrue();
        assertThat(counted).hasValue(3);
        assertThat(pauses).hasSize(3);
        assertThat(pauses.get(0)).startsWith("100ms #1 ").contains("no answer");
        assertThat(pauses.get(1)).startsWith("200ms #2 ");
        assertThat(pauses.get(2)).as("capped at the maximum").startsWith("300ms #3 ");

        retry.succeeded();
        fail(new TimeoutException("again"));
        assertThat(pauses.get(3)).as("a success resets the backoff").startsWith("100ms #1 ");
    }

    @Test
    void aFatalFailureIsNeitherCountedNorPaused() {
        assertThat(fail(new IllegalStateException("corrupt"))).isFalse();
        assertThat(counted).hasValue(0);
        assertThat(pauses).isEmpty();
    }
}
