package dev.mirrorv3.kafka.mirror;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.mirror.MirrorPositions.Pair;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Where a preserved-offset copy continues, and every position it refuses (one case each). */
class MirrorPositionsTest {
    private static final Pair PAIR = new Pair(new TopicPartition("orders", 3), new TopicPartition("orders-copy", 3));

    @Test
    void continuesAtTheDestinationsHighWatermarkInsideTheSourcesLog() {
        assertThat(MirrorPositions.check(PAIR, 0, 0, 0)).isZero();
        assertThat(MirrorPositions.check(PAIR, 500, 100, 900)).isEqualTo(500);
        assertThat(MirrorPositions.check(PAIR, 100, 100, 900)).isEqualTo(100);
        assertThat(MirrorPositions.check(PAIR, 900, 100, 900)).isEqualTo(900);
    }

    @Test
    void anEmptyDestinationOfASourceStartingAboveZeroHasItsOwnMessage() {
        assertThatThrownBy(() -> MirrorPositions.check(PAIR, 0, 40, 90)).isInstanceOf(MirrorPositionException.class)
                .hasMessageContaining("destination orders-copy/3 is empty").hasMessageContaining("starts at offset 40")
                .hasMessageContaining("--offsets renumber").hasMessageContaining("preserve restore");
    }

    @Test
    void aDestinationBehindTheSourcesLogStartIsALostPosition() {
        assertThatThrownBy(() -> MirrorPositions.check(PAIR, 10, 40, 90)).isInstanceOf(MirrorPositionException.class)
                .hasMessageContaining("lost position for orders/3").hasMessageContaining("offsets 10-39");
    }

    @Test
    void aDestinationPastTheSourcesHighWatermarkIsAhead() {
        assertThatThrownBy(() -> MirrorPositions.check(PAIR, 91, 0, 90)).isInstanceOf(MirrorPositionException.class)
                .hasMessageContaining("the destination is ahead of the source").hasMessageContaining("next offset 91")
                .hasMessageContaining("is 90");
    }

    @Test
    void positionErrorsAreNeverTransient() {
        assertThat(Failures.isTransient(new MirrorPositionException("x"))).isFalse();
    }
}
