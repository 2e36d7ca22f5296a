package dev.mirrorv3.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A run's steady state is read from its group's commits between 20% and 80% of the topic, not from its deploy or tail. */
class SteadyRateTest {
    // two partitions, 1,000 records from offset 100 and 1,000 from offset 0: 2,000 records
    private static final TopicRange RANGE = new TopicRange(Map.of(0, 1100L, 1, 1000L), Map.of(0, 100L, 1, 0L));

    @Test
    void theRateIsTheRecordsCommittedBetweenTheFirstLooksAt20And80PercentOverTheTimeBetween() {
        SteadyRate steady = new SteadyRate(RANGE);
        steady.observe(0.5, Map.of());                          // deploying: nothing committed
        steady.observe(1.0, Map.of(0, 300L));                   // 200 records: 10%
        steady.observe(1.5, Map.of(0, 400L, 1, 200L));          // 500 records: 25%, the first look past 20%
        steady.observe(2.0, Map.of(0, 800L, 1, 600L));          // 1,300: 65%
        steady.observe(2.5, Map.of(0, 1000L, 1, 800L));         // 1,700: 85%, the first look past 80%
        steady.observe(4.0, Map.of(0, 1100L, 1, 1000L));        // the tail: everything, 1.5 s later

        assertThat(steady.measured()).isTrue();
        assertThat(steady.records()).isEqualTo(1200);
        assertThat(steady.seconds()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void itBeginsAtTheFirstLookPast20PercentAndEndsAtTheFirstPast80() {
        SteadyRate steady = new SteadyRate(RANGE);
        steady.observe(1.0, Map.of(0, 300L));                   // 10%
        assertThat(steady.begun()).isFalse();
        steady.observe(1.5, Map.of(0, 400L, 1, 200L));          // 25%
        assertThat(steady.begun()).isTrue();
        assertThat(steady.ended()).isFalse();
        steady.observe(2.5, Map.of(0, 1000L, 1, 800L));         // 85%
        assertThat(steady.ended()).isTrue();
    }

    @Test
    void aRunThatCommitsEverythingAtOnceHasNoSteadyState() {
        SteadyRate steady = new SteadyRate(RANGE);
        steady.observe(1.0, Map.of());
        steady.observe(2.0, Map.of(0, 1100L, 1, 1000L));

        assertThat(steady.measured()).isFalse();
        assertThat(steady.records()).isZero();
    }

    @Test
    void aCommitBelowTheLogStartOrPastTheHighWatermarkCountsNoRecordsBeyondTheTopic() {
        SteadyRate steady = new SteadyRate(RANGE);
        steady.observe(1.0, Map.of(0, 50L, 1, 500L));           // partition 0 below its log start: 0 records, 500 in all
        steady.observe(2.0, Map.of(0, 5000L, 1, 700L));         // partition 0 past its high watermark: 1,000, 1,700 in all

        assertThat(steady.records()).isEqualTo(1200);
    }
}
