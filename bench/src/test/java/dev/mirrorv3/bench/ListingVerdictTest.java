package dev.mirrorv3.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The blob sink bench's clock stops on the store's listing; the product's metric is held against it. */
class ListingVerdictTest {
    private static final Map<Integer, Long> HW = Map.of(0, 1000L, 1, 500L);

    @Test
    void aMetricThatClaimsMoreThanTheListingShowsFailsTheRun() {
        // the metric says every record of partition 0 is durable; the listing, taken after it, ends at 800
        ListingVerdict v = ListingVerdict.judge(Map.of(0, 1000L, 1, 500L), Map.of(0, 800L, 1, 500L), HW);

        assertThat(v.done()).isFalse();
        assertThat(v.metricAhead()).hasValue("partition 0: destination-offset-verified 1000, the listing's chain ends before offset 800");
    }

    @Test
    void theRunIsDoneWhenTheListingReachesEveryHighWatermarkAndNoMetricIsAhead() {
        assertThat(ListingVerdict.judge(Map.of(0, 900L, 1, 500L), Map.of(0, 1000L, 1, 500L), HW).done()).isTrue();
    }

    @Test
    void aPartitionWithoutAMetricIsNotDoneSoThatNeverAheadCannotHoldVacuously() {
        // the listing shows every record, but partition 1 has no metric: nothing was held against the listing there
        ListingVerdict v = ListingVerdict.judge(Map.of(0, 1000L), Map.of(0, 1000L, 1, 500L), HW);

        assertThat(v.done()).isFalse();
        assertThat(v.metricAhead()).isEmpty();
        assertThat(v.unchecked()).containsExactly(1);
        assertThat(ListingVerdict.judge(Map.of(), Map.of(0, 1000L, 1, 500L), HW).done()).isFalse();
    }

    @Test
    void aMetricThatSaysDoneIsNotDoneUntilTheListingShowsIt() {
        ListingVerdict v = ListingVerdict.judge(Map.of(0, 700L, 1, 400L), Map.of(0, 700L, 1, 400L), HW);

        assertThat(v.done()).isFalse();
        assertThat(v.metricAhead()).isEmpty();
    }

    @Test
    void aPartitionMissingFromTheListingIsNotDoneAndAnyClaimOnItIsAhead() {
        ListingVerdict v = ListingVerdict.judge(Map.of(1, 10L), Map.of(0, 1000L), HW);

        assertThat(v.done()).isFalse();
        assertThat(v.metricAhead()).hasValue("partition 1: destination-offset-verified 10, the listing has no chain for it");
    }
}
