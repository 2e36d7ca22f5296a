package dev.mirrorv3.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The heap after GC, from the collector's figures: only the heap pools count, the peak is kept, collections are counted. */
class HeapAfterGcTest {

    @Test
    void theHeapAfterACollectionIsTheSumOfTheHeapPoolsAndThePeakIsKept() {
        HeapAfterGc heap = new HeapAfterGc(Set.of("G1 Eden Space", "G1 Survivor Space", "G1 Old Gen"));

        heap.record(Map.of("G1 Eden Space", usage(0), "G1 Survivor Space", usage(8 << 20), "G1 Old Gen", usage(100 << 20),
                "Metaspace", usage(500 << 20), "CodeHeap 'non-nmethods'", usage(300 << 20)), false);
        heap.record(Map.of("G1 Eden Space", usage(0), "G1 Survivor Space", usage(4 << 20), "G1 Old Gen", usage(60 << 20)), false);

        assertThat(heap.peakMiB()).isEqualTo(108);
        assertThat(heap.livePeakMiB()).isEqualTo(-1);
        assertThat(heap.seen()).isEqualTo(2);
    }

    @Test
    void theHeapAfterAForcedFullCollectionIsTheLiveHeapKeptApartFromTheYoungCollections() {
        HeapAfterGc heap = new HeapAfterGc(Set.of("G1 Eden Space", "G1 Survivor Space", "G1 Old Gen"));

        // a young collection leaves the old generation's dead objects counted; a full one does not
        heap.record(Map.of("G1 Eden Space", usage(0), "G1 Survivor Space", usage(8 << 20), "G1 Old Gen", usage(300 << 20)), false);
        heap.record(Map.of("G1 Eden Space", usage(0), "G1 Survivor Space", usage(0), "G1 Old Gen", usage(90 << 20)), true);
        heap.record(Map.of("G1 Eden Space", usage(0), "G1 Survivor Space", usage(0), "G1 Old Gen", usage(70 << 20)), true);

        assertThat(heap.peakMiB()).isEqualTo(308);
        assertThat(heap.livePeakMiB()).isEqualTo(90);
    }

    @Test
    void withoutACollectionThereIsNoFigure() {
        assertThat(new HeapAfterGc(Set.of("G1 Old Gen")).peakMiB()).isEqualTo(-1);
    }

    @Test
    void theCollectionsOfAJvmAreSeenThroughItsMBeansAndCounted() throws Exception {
        HeapAfterGc heap = HeapAfterGc.listen(ManagementFactory.getPlatformMBeanServer());
        List<byte[]> kept = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            kept.add(new byte[1 << 20]);
        }
        System.gc();
        heap.close();
        double live = heap.livePeakMiB();

        // 64 MiB were alive at the collection: the heap after it holds them, and less than the whole heap
        assertThat(kept).hasSize(64);
        assertThat(heap.counted()).isPositive();
        assertThat(heap.seen()).isGreaterThanOrEqualTo(heap.counted());
        assertThat(heap.peakMiB()).isGreaterThanOrEqualTo(64).isLessThan(Runtime.getRuntime().maxMemory() / 1048576.0);
        assertThat(live).as("System.gc() is a forced full collection: its figure is the live heap").isGreaterThanOrEqualTo(64);
    }

    private static MemoryUsage usage(long used) {
        return new MemoryUsage(0, used, Math.max(used, 1), -1);
    }
}
