package dev.mirrorv3.cache.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryBudgetTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void parallelCollector_70PercentOfItsOldGeneration() {
        MemoryBudget b = MemoryBudget.fromHeap(123 * MIB, 82 * MIB);
        assertThat(b.maxBytes()).isEqualTo((long) (82 * MIB * 0.7));
        assertThat(b.origin()).isEqualTo("the default memory.max-bytes, 70 % of the old generation's 82.0 MiB "
                + "(heap 123.0 MiB)");
    }

    /** G1 reports an old generation as large as the heap: the stores still leave a third of it to the rest. */
    @Test
    void g1_oldGenerationAsLargeAsTheHeap_70PercentOfTwoThirdsOfTheHeap() {
        MemoryBudget b = MemoryBudget.fromHeap(128 * MIB, 128 * MIB);
        assertThat(b.maxBytes()).isEqualTo((long) (128 * MIB / 3 * 2 * 0.7));
        assertThat(b.maxBytes()).isLessThan(128 * MIB / 2);
        assertThat(b.origin()).isEqualTo("the default memory.max-bytes, 70 % of 2/3 of the 128.0 MiB heap, its "
                + "collector not bounding the old generation");
    }

    @Test
    void noOldGenerationPool_70PercentOfTwoThirdsOfTheHeap() {
        assertThat(MemoryBudget.fromHeap(300 * MIB, -1).maxBytes()).isEqualTo((long) (300 * MIB / 3 * 2 * 0.7));
    }
}
