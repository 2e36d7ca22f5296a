package dev.mirrorv3.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A heartbeat is due one interval after the start, then one interval after each; 0 turns it off. */
class HeartbeatScheduleTest {
    @Test
    void dueOneIntervalAfterTheStartThenAfterEach() {
        HeartbeatSchedule s = new HeartbeatSchedule(1000, 5000);
        assertThat(s.due(5999)).isFalse();
        assertThat(s.msUntil(5999)).isEqualTo(1);
        assertThat(s.due(6200)).isTrue();
        assertThat(s.due(6300)).as("once per interval").isFalse();
        assertThat(s.msUntil(6300)).isEqualTo(900);
        assertThat(s.due(7200)).isTrue();
    }

    @Test
    void zeroTurnsItOff() {
        HeartbeatSchedule s = new HeartbeatSchedule(0, 0);
        assertThat(s.due(Long.MAX_VALUE / 2)).isFalse();
        assertThat(s.msUntil(0)).isEqualTo(Long.MAX_VALUE);
    }
}
