package dev.mirrorv3.cache.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class KeyValueStoreTest {

    @Test
    void changesAndAccounting() {
        KeyValueStore s = new KeyValueStore();
        assertThat(s.apply("k", new byte[] {1, 2})).isEqualTo(KeyValueStore.Change.ADDED);
        assertThat(s.bytes()).isEqualTo(3);
        assertThat(s.apply("k", new byte[] {1, 2})).isEqualTo(KeyValueStore.Change.UNCHANGED);
        assertThat(s.apply("k", new byte[] {1, 2, 3, 4})).isEqualTo(KeyValueStore.Change.CHANGED);
        assertThat(s.bytes()).isEqualTo(5);
        assertThat(s.apply("blå", new byte[0])).isEqualTo(KeyValueStore.Change.ADDED);
        assertThat(s.bytes()).isEqualTo(9);
        assertThat(s.apply("k", null)).isEqualTo(KeyValueStore.Change.DELETED);
        assertThat(s.apply("k", null)).isEqualTo(KeyValueStore.Change.ABSENT);
        assertThat(s.bytes()).isEqualTo(4);
        assertThat(s.size()).isEqualTo(1);
        assertThat(s.get("k")).isNull();
        assertThat(s.get("blå")).isEmpty();
    }

    @Test
    void aValueIsTheRemainingBytesOfItsBufferWhichIsLeftAsItWas() {
        // The consumer hands over slices of its fetch buffer (ByteBufferDeserializer): position and limit mark the
        // value inside a larger array.
        byte[] fetch = {9, 9, 1, 2, 3, 9};
        ByteBuffer slice = ByteBuffer.wrap(fetch, 2, 3);
        KeyValueStore s = new KeyValueStore();
        assertThat(s.apply("k".getBytes(StandardCharsets.UTF_8), slice)).isEqualTo(KeyValueStore.Change.ADDED);
        assertThat(slice.position()).isEqualTo(2);
        assertThat(slice.remaining()).isEqualTo(3);
        assertThat(s.get("k")).containsExactly(1, 2, 3);
        assertThat(s.bytes()).isEqualTo(4);
        assertThat(s.apply("k".getBytes(StandardCharsets.UTF_8), ByteBuffer.wrap(fetch, 1, 4).slice().position(1)))
                .as("the same bytes at another place of another buffer").isEqualTo(KeyValueStore.Change.UNCHANGED);
        assertThat(s.apply("k".getBytes(StandardCharsets.UTF_8), ByteBuffer.wrap(fetch, 2, 4)))
                .isEqualTo(KeyValueStore.Change.CHANGED);
        assertThat(s.get("k")).containsExactly(1, 2, 3, 9);
        fetch[2] = 0; // the store copied the value: a reused fetch buffer does not change it
        assertThat(s.get("k")).containsExactly(1, 2, 3, 9);
    }

    @Test
    void keysThatAreNotUtf8AreStoredAsTheirDecodedString() {
        byte[] bad = {'a', (byte) 0xFF, 'b'};
        byte[] normalized = Utf8Keys.normalize(bad);
        assertThat(new String(normalized, StandardCharsets.UTF_8)).isEqualTo("a\uFFFDb");
        byte[] ascii = "plain".getBytes(StandardCharsets.UTF_8);
        assertThat(Utf8Keys.normalize(ascii)).isSameAs(ascii);
        KeyValueStore s = new KeyValueStore();
        s.apply(normalized, new byte[] {7});
        assertThat(s.get("a\uFFFDb")).containsExactly(7);
        // an unpaired surrogate in a looked-up key matches nothing (getBytes would make it '?')
        s.apply("x?y", new byte[] {1});
        assertThat(s.get("x\uD800y")).isNull();
    }

    /** A topic with many updates does not grow without bound: compaction reclaims what overwrites leave behind. */
    @Test
    void overwritesDoNotGrowTheFootprint() {
        KeyValueStore s = new KeyValueStore();
        java.util.Random random = new java.util.Random(42);
        byte[] v = new byte[4000]; // about 260 records in a 1 MiB page
        for (int k = 0; k < 1000; k++) {
            s.apply("key-" + k, v);
        }
        // overwrites in random order leave every page partly live: only compaction gets the space back
        int[] last = new int[1000];
        for (int i = 1; i <= 100_000; i++) {
            int k = random.nextInt(1000);
            Arrays.fill(v, (byte) i);
            last[k] = i;
            s.apply("key-" + k, v);
        }
        // 400 MB written; about 4 MB live
        assertThat(s.bytes()).isEqualTo(1000L * 4000 + 6890);
        assertThat(s.footprint()).isLessThan(3L * 4 * 1024 * 1024);
        assertThat(s.compactedPages()).isGreaterThan(100);
        for (int k = 0; k < 1000; k++) {
            assertThat(s.get("key-" + k)).containsOnly((byte) last[k]);
        }
    }

    @Test
    void anAllocationOverTheBudgetFailsAndLeavesTheStoreUnchanged() {
        MemoryBudget budget = MemoryBudget.of(3L * (PageTable.PAGE_SIZE + PageTable.PAGE_OVERHEAD));
        KeyValueStore s = new KeyValueStore(budget);
        byte[] v = new byte[40_000]; // about 26 records in a 1 MiB page
        int added = 0;
        try {
            while (true) {
                s.apply("k" + added, v);
                added++;
            }
        } catch (MemoryBudgetExceededException e) {
            assertThat(e.requested()).isEqualTo(PageTable.PAGE_SIZE + PageTable.PAGE_OVERHEAD);
        }
        assertThat(added).isBetween(50, 80);
        assertThat(s.size()).isEqualTo(added);
        assertThat(s.get("k" + added)).isNull();
        assertThat(s.get("k0")).hasSize(40_000);
        assertThat(budget.usedBytes()).isEqualTo(s.footprint()).isLessThanOrEqualTo(budget.maxBytes());
        // a record of its own page that does not fit either
        assertThatThrownBy(() -> s.apply("big", new byte[PageTable.PAGE_SIZE]))
                .isInstanceOf(MemoryBudgetExceededException.class);
        assertThat(s.get("big")).isNull();
        // overwriting frees room again
        assertThat(s.apply("k0", null)).isEqualTo(KeyValueStore.Change.DELETED);
    }
}
