package dev.mirrorv3.chain.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ReadAheadTest {
    private static final List<Integer> ITEMS = List.of(1, 2, 3, 4, 5, 6, 7);

    @Test
    void handsOutEveryObjectInItsOrderAtAnyDepth() {
        for (int depth : new int[] {0, 1, 3, 10}) {
            try (ReadAhead<Integer, String> reads = new ReadAhead<>(ITEMS, i -> "object " + i, depth, "test")) {
                List<String> taken = new ArrayList<>();
                while (reads.hasNext()) {
                    taken.add(reads.next());
                }
                assertThat(taken).as("depth " + depth).containsExactly("object 1", "object 2", "object 3", "object 4", "object 5",
                        "object 6", "object 7");
            }
        }
    }

    @Test
    void readsUpToItsDepthAtOnceAndNeverMoreAheadOfTheTaker() throws Exception {
        AtomicInteger started = new AtomicInteger();
        CountDownLatch twoRunning = new CountDownLatch(2);
        Function<Integer, Integer> read = i -> {
            started.incrementAndGet();
            twoRunning.countDown();
            await(twoRunning); // the first two reads finish only when both run at once
            return i;
        };
        try (ReadAhead<Integer, Integer> reads = new ReadAhead<>(ITEMS, read, 2, "test")) {
            int taken = 0;
            while (reads.hasNext()) {
                assertThat(reads.next()).isEqualTo(++taken);
                Thread.sleep(20); // a slow taker: the reads must still not run further ahead
                assertThat(started.get() - taken).as("reads started and not taken after taking " + taken).isLessThanOrEqualTo(2);
            }
            assertThat(taken).isEqualTo(ITEMS.size());
        }
    }

    @Test
    void aFailedReadIsThrownInItsTurnAndOneAfterWhereTheTakerStopsFailsNothing() {
        Function<Integer, Integer> read = i -> {
            if (i == 3 || i == 5) {
                throw new IllegalStateException("object " + i + " cannot be read");
            }
            return i;
        };
        try (ReadAhead<Integer, Integer> reads = new ReadAhead<>(ITEMS, read, 4, "test")) {
            assertThat(reads.next()).isEqualTo(1);
            assertThat(reads.next()).as("objects 3 and 5 were read ahead and failed: not this one's problem").isEqualTo(2);
            assertThatThrownBy(reads::next).hasMessage("object 3 cannot be read");
        }
        try (ReadAhead<Integer, Integer> reads = new ReadAhead<>(ITEMS, read, 4, "test")) {
            assertThat(reads.next()).isEqualTo(1);
            assertThat(reads.next()).isEqualTo(2); // the taker stops here (a cut): objects 3 and 5 never fail anything
        }
    }

    @Test
    void closingCancelsTheReadsNotTaken() throws Exception {
        CountDownLatch secondStarted = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Function<Integer, Integer> read = i -> {
            if (i == 1) {
                return i;
            }
            secondStarted.countDown();
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return i;
        };
        try (ReadAhead<Integer, Integer> reads = new ReadAhead<>(ITEMS, read, 1, "test")) {
            assertThat(reads.next()).isEqualTo(1);
            // a read still queued when closed never starts; the premise is one that runs
            assertThat(secondStarted.await(10, TimeUnit.SECONDS)).as("premise: the read of object 2 runs").isTrue();
        }
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("the read of object 2 was interrupted").isTrue();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the reads did not run at once");
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
