package dev.mirrorv3.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.quickstart.CacheExpectation.Batch;
import dev.mirrorv3.quickstart.CacheExpectation.Change;
import dev.mirrorv3.quickstart.CacheExpectation.Entry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The sidecar scenario's expectation must be able to fail: a missed change, a change covered only in another partition. */
class CacheExpectationTest {
    private static byte[] b(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static Entry e(int p, long o, String key, String value) {
        return new Entry(p, o, b(key), b(value));
    }

    /** Partition 0: a set, an identical rewrite, a change, a null key, a tombstone, a tombstone of an unknown key. */
    private static CacheExpectation expectation() {
        return new CacheExpectation(Map.of(
                0, List.of(e(0, 0, "a", "1"), e(0, 1, "a", "1"), e(0, 2, "a", "2"), e(0, 3, null, "x"), e(0, 5, "b", "1"),
                        e(0, 6, "b", null), e(0, 7, "c", null)),
                1, List.of(e(1, 0, "d", "1"))));
    }

    @Test
    void latestValuesAndChanges_followTheSidecarsRules() {
        CacheExpectation x = expectation();
        assertThat(x.latest()).containsOnlyKeys("a", "d");
        assertThat(x.latest().get("a")).isEqualTo(b("2"));
        assertThat(x.everSeen()).containsExactlyInAnyOrder("a", "b", "c", "d");
        assertThat(x.changes()).containsExactly(new Change("a", 0, 0), new Change("a", 0, 2), new Change("b", 0, 5),
                new Change("b", 0, 6), new Change("d", 1, 0));
        assertThat(x.lastOffsets()).containsEntry(0, 7L).containsEntry(1, 0L);
    }

    @Test
    void aChangeIsNotifiedByABatchNamingItsKeyAtOrAfterItsOffset() {
        CacheExpectation x = expectation();
        List<Batch> batches = List.of(new Batch(Set.of("a", "b"), Map.of(0, 6L)), new Batch(Set.of("d"), Map.of(1, 0L)));
        assertThat(x.unnotified(batches)).isEmpty();
    }

    @Test
    void aChangeAfterTheLastBatchOfItsKeyIsMissing() {
        CacheExpectation x = expectation();
        // a's second change (offset 2) came after the only batch naming a (offsets up to 1).
        List<Batch> batches = List.of(new Batch(Set.of("a"), Map.of(0, 1L)), new Batch(Set.of("b"), Map.of(0, 6L)),
                new Batch(Set.of("d"), Map.of(1, 0L)));
        assertThat(x.unnotified(batches)).containsExactly(new Change("a", 0, 2));
    }

    @Test
    void anOffsetOfAnotherPartitionDoesNotCoverAChange() {
        CacheExpectation x = expectation();
        List<Batch> batches = List.of(new Batch(Set.of("a", "b"), Map.of(0, 6L)), new Batch(Set.of("d"), Map.of(0, 7L)));
        assertThat(x.unnotified(batches)).containsExactly(new Change("d", 1, 0));
    }

    @Test
    void aKeyNeverNotifiedMissesEveryChange() {
        CacheExpectation x = expectation();
        assertThat(x.unnotified(List.of(new Batch(Set.of("d"), Map.of(1, 0L))))).hasSize(4);
    }
}
