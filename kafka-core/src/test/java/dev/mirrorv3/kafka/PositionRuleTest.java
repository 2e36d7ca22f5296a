package dev.mirrorv3.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.kafka.PositionRule.BlobChain;
import dev.mirrorv3.kafka.PositionRule.KafkaTopic;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Where a copy continues, for both kinds of destination, and every position the rule refuses (one case each). */
class PositionRuleTest {
    private static final TopicPartition SOURCE = new TopicPartition("orders", 3);
    private static final KafkaTopic TOPIC = new KafkaTopic(new TopicPartition("orders-copy", 3));
    private static final BlobChain CHAIN = new BlobChain("/backups/orders/3");

    private static long check(PositionRule.Destination d, long destinationNext, long logStart, long hwm) {
        return PositionRule.check(SOURCE, d, OptionalLong.of(destinationNext), logStart, hwm);
    }

    @Test
    void continuesAtTheDestinationsNextOffsetInsideTheSourcesLog() {
        for (PositionRule.Destination d : new PositionRule.Destination[] {TOPIC, CHAIN}) {
            assertThat(check(d, 0, 0, 0)).isZero();
            assertThat(check(d, 500, 100, 900)).isEqualTo(500);
            assertThat(check(d, 100, 100, 900)).as("at the log start").isEqualTo(100);
            assertThat(check(d, 900, 100, 900)).as("at the high watermark").isEqualTo(900);
        }
    }

    @Test
    void anEmptyChainStartsAtTheSourcesLogStart() {
        assertThat(PositionRule.check(SOURCE, CHAIN, OptionalLong.empty(), 40, 90)).isEqualTo(40);
    }

    @Test
    void anEmptyKafkaDestinationOfASourceStartingAboveZeroCannotStart() {
        assertThatThrownBy(() -> PositionRule.check(SOURCE, TOPIC, OptionalLong.empty(), 40, 90)).isInstanceOf(PositionException.class)
                .hasMessageContaining("destination orders-copy-3 is empty").hasMessageContaining("starts at offset 40")
                .hasMessageContaining("--offsets renumber").hasMessageContaining("preserve restore");
        assertThatThrownBy(() -> check(TOPIC, 0, 40, 90)).as("a high watermark of 0 is an empty topic")
                .hasMessageContaining("destination orders-copy-3 is empty");
        assertThat(PositionRule.check(SOURCE, TOPIC, OptionalLong.empty(), 0, 90)).isZero();
    }

    @Test
    void aKafkaDestinationBehindTheSourcesLogStartIsALostPosition() {
        assertThatThrownBy(() -> check(TOPIC, 10, 40, 90)).isInstanceOf(PositionException.class)
                .hasMessageContaining("lost position for orders-3: destination orders-copy-3 ends at next offset 10")
                .hasMessageContaining("now starts at 40").hasMessageContaining("offsets 10-39")
                .hasMessageContaining("--offsets renumber");
    }

    @Test
    void aChainBehindTheSourcesLogStartIsALostPosition() {
        assertThatThrownBy(() -> check(CHAIN, 100, 150, 200)).isInstanceOf(PositionException.class)
                .hasMessageContaining("lost position for orders-3: the backup at /backups/orders/3 ends at next offset 100")
                .hasMessageContaining("now starts at 150").hasMessageContaining("removed offsets 100-149")
                .hasMessageContaining("set destination.name to a new name").hasMessageContaining("restorable up to offset 99");
    }

    @Test
    void aDestinationPastTheSourcesHighWatermarkIsAhead() {
        assertThatThrownBy(() -> check(TOPIC, 91, 0, 90)).isInstanceOf(PositionException.class)
                .hasMessageContaining("the destination is ahead of the source for orders-3: destination orders-copy-3 ends at next"
                        + " offset 91").hasMessageContaining("high watermark is 90")
                .hasMessageContaining("new, empty destination topic");
        assertThatThrownBy(() -> check(CHAIN, 100, 0, 10)).isInstanceOf(PositionException.class)
                .hasMessageContaining("the destination is ahead of the source for orders-3: the backup at /backups/orders/3 ends at"
                        + " next offset 100").hasMessageContaining("high watermark is 10")
                .hasMessageContaining("new destination.name");
    }

    @Test
    void positionErrorsAreNeverTransient() {
        assertThat(Failures.isTransient(new PositionException("x"))).isFalse();
    }

    @Test
    void aDestinationHoldingACopyOfAnotherTopicIdIsRefusedNamingTheTopicAndWhatToDo() {
        assertThatThrownBy(() -> PositionRule.checkIdentity(SOURCE, CHAIN, OptionalLong.of(1000), "old-id", "new-id"))
                .isInstanceOf(PositionException.class)
                .hasMessageContaining("source topic orders was deleted and created again")
                .hasMessageContaining("the backup at /backups/orders/3 (next offset 1000) holds a copy of the topic with id old-id")
                .hasMessageContaining("now has id new-id").hasMessageContaining("new destination.name");
        assertThatThrownBy(() -> PositionRule.checkIdentity(SOURCE, TOPIC, OptionalLong.of(1000), "old-id", "new-id"))
                .isInstanceOf(PositionException.class).hasMessageContaining("new, empty destination topic");
    }

    @Test
    void anEmptyDestinationOrOneWithoutARecordedIdTakesTheCurrentTopic() {
        PositionRule.checkIdentity(SOURCE, CHAIN, OptionalLong.empty(), "old-id", "new-id");
        PositionRule.checkIdentity(SOURCE, TOPIC, OptionalLong.of(1000), "", "new-id");
        PositionRule.checkIdentity(SOURCE, TOPIC, OptionalLong.of(1000), "same-id", "same-id");
    }
}
