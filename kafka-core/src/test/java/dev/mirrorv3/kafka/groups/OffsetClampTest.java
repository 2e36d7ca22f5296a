package dev.mirrorv3.kafka.groups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.kafka.groups.OffsetClamp.Bound;
import org.junit.jupiter.api.Test;

class OffsetClampTest {
    @Test
    void insideTheRangeIsKept() {
        assertThat(OffsetClamp.of(50, 10, 100)).isEqualTo(new OffsetClamp(50, 50, Bound.NONE));
        assertThat(OffsetClamp.of(10, 10, 100).clamped()).isFalse();
        assertThat(OffsetClamp.of(100, 10, 100).clamped()).isFalse(); // at the end: caught up, nothing to skip
    }

    @Test
    void aheadOfTheDestinationIsClampedToItsEnd() {
        assertThat(OffsetClamp.of(150, 10, 100)).isEqualTo(new OffsetClamp(150, 100, Bound.LOG_END));
    }

    @Test
    void behindTheLogStartIsClampedToIt() {
        assertThat(OffsetClamp.of(3, 10, 100)).isEqualTo(new OffsetClamp(3, 10, Bound.LOG_START));
    }

    @Test
    void logStartWinsOverAnEndReadBeforeIt() {
        assertThat(OffsetClamp.of(150, 10, 5).applied()).isEqualTo(10);
    }
}
