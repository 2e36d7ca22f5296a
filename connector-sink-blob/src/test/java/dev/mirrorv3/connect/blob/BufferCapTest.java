package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The task-wide buffer cap's decisions, on their own: what frees room for a record before it is appended. */
class BufferCapTest {
    private final BufferCap cap = new BufferCap(1_000);

    @Test
    void aRecordThatFitsUnderTheCapIsAppendedWithoutLookingAtTheBuffers() {
        BufferCap.Room<String> room = cap.room(600, 400, 0, () -> {
            throw new AssertionError("the buffers are not asked for when the record fits");
        });
        assertThat(room.fits()).isTrue();
        assertThat(room.await()).isFalse();
    }

    @Test
    void anEmptyTaskBufferTakesARecordLargerThanTheCap() {
        assertThat(cap.room(0, 5_000, 0, Map::<String, Long>of).fits()).as("written on its own, never waiting forever").isTrue();
    }

    @Test
    void theLargestIdleBufferIsWrittenWhenTheRunningCommitsDoNotFreeEnough() {
        Map<String, Long> idle = new LinkedHashMap<>();
        idle.put("p0", 300L);
        idle.put("p1", 500L);
        idle.put("p2", 500L);
        BufferCap.Room<String> room = cap.room(900, 200, 50, () -> idle);
        assertThat(room.fits()).isFalse();
        assertThat(room.toFree()).as("the largest; the first of equals").contains("p1");
        assertThat(room.await()).isFalse();
    }

    @Test
    void theTaskWaitsWhenTheRunningCommitsFreeEnough() {
        BufferCap.Room<String> room = cap.room(900, 200, 100, () -> {
            throw new AssertionError("no buffer is started while the running commits free enough");
        });
        assertThat(room.await()).as("900 + 200 - 1000 = 100 bytes needed, 100 being committed").isTrue();
    }

    @Test
    void theTaskWaitsWhenNoBufferIsIdle() {
        BufferCap.Room<String> room = cap.room(900, 200, 0, Map::of);
        assertThat(room.toFree()).isEqualTo(Optional.empty());
        assertThat(room.await()).as("every buffer is being written or waits for its retry").isTrue();
    }
}
