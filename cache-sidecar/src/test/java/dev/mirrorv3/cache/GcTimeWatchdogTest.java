package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The GC-time watchdog on a hand-moved clock and GC-time counter. */
class GcTimeWatchdogTest {

    private long now = 1_000_000;
    private long gc = 5_000;
    private final GcTimeWatchdog watchdog = new GcTimeWatchdog(() -> gc, () -> now, 0.5, Duration.ofSeconds(30));

    /** One second of wall time of which {@code gcMs} in collections, then a sample. */
    private String second(long gcMs) {
        now += 1000;
        gc += gcMs;
        return watchdog.sample();
    }

    @Test
    void moreThanHalfOfAFullWindowInGc_tripsOnceWithTheFigures() {
        assertThat(watchdog.sample()).isNull();
        for (int i = 1; i < 30; i++) {
            assertThat(second(900)).as("second %d: the window is not full yet", i).isNull();
        }
        String message = second(900);
        assertThat(message).startsWith("the JVM spent 27000 ms of the last 30000 ms in garbage collection (90 %")
                .contains("limit of 50 % over 30 s", "-Xmx", "memory.max-bytes");
        assertThat(second(900)).as("once").isNull();
    }

    @Test
    void halfOrLessStaysQuiet_alsoWithShortBurstsAboveIt() {
        watchdog.sample();
        for (int i = 0; i < 120; i++) {
            // 10 s in collections (a long full collection, say), then 20 s at 20 %: 14 s of every 30 s window
            assertThat(second(i % 30 < 10 ? 1000 : 200)).as("second %d", i).isNull();
        }
        for (int i = 0; i < 60; i++) {
            assertThat(second(500)).as("exactly half is not more than half").isNull();
        }
    }

    @Test
    void theWindowSlides_anEarlyQuietPeriodDoesNotHideALaterLoop() {
        watchdog.sample();
        for (int i = 0; i < 300; i++) {
            assertThat(second(0)).isNull();
        }
        String message = null;
        int seconds = 0;
        while (message == null && seconds < 60) {
            message = second(1000);
            seconds++;
        }
        // Over 50 % of the last 30 s once 16 of them are spent in collections.
        assertThat(seconds).isEqualTo(16);
        assertThat(message).contains("16000 ms of the last 30000 ms");
    }

    @Test
    void aLateSample_spanLongerThanTheWindow_countsTheWholeSpan() {
        watchdog.sample();
        now += 40_000; // the watchdog's thread itself stalled behind a 35 s collection
        gc += 35_000;
        assertThat(watchdog.sample()).contains("35000 ms of the last 40000 ms");
    }
}
