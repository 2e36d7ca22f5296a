package dev.mirrorv3.kafka.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one sending thread's order: an object of each partition in turn, each partition's objects in their order. */
class SendTurnsTest {

    @Test
    void anObjectOfEachPartitionInTurnUntilEveryObjectIsTaken() {
        List<SendTurns.Turn<String>> turns = SendTurns.of(
                List.of(List.of("a0", "a1", "a2"), List.of("b0"), List.of(), List.of("d0", "d1")));
        assertThat(turns).extracting(t -> t.partition() + ":" + t.object())
                .containsExactly("0:a0", "1:b0", "3:d0", "0:a1", "3:d1", "0:a2");
    }

    @Test
    void onePartitionIsItsObjectsInOrderAndNoneIsNothing() {
        assertThat(SendTurns.of(List.of(List.of("x", "y", "z")))).extracting(SendTurns.Turn::object).containsExactly("x", "y", "z");
        assertThat(SendTurns.of(List.<List<String>>of())).isEmpty();
        assertThat(SendTurns.of(List.of(List.<String>of(), List.<String>of()))).isEmpty();
    }
}
