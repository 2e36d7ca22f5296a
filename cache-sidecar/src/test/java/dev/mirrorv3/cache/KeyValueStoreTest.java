package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeyValueStoreTest {

    @Test
    void changesAndAccounting() {
        KeyValueStore s = new KeyValueStore();
        assertThat(s.apply("k", 1, new byte[] {1, 2})).isEqualTo(KeyValueStore.Change.ADDED);
        assertThat(s.bytes()).isEqualTo(3);
        assertThat(s.apply("k", 1, new byte[] {1, 2})).isEqualTo(KeyValueStore.Change.UNCHANGED);
        assertThat(s.apply("k", 1, new byte[] {1, 2, 3, 4})).isEqualTo(KeyValueStore.Change.CHANGED);
        assertThat(s.bytes()).isEqualTo(5);
        assertThat(s.apply("blå", 4, new byte[0])).isEqualTo(KeyValueStore.Change.ADDED);
        assertThat(s.bytes()).isEqualTo(9);
        assertThat(s.apply("k", 1, null)).isEqualTo(KeyValueStore.Change.DELETED);
        assertThat(s.apply("k", 1, null)).isEqualTo(KeyValueStore.Change.ABSENT);
        assertThat(s.bytes()).isEqualTo(4);
        assertThat(s.size()).isEqualTo(1);
        assertThat(s.get("k")).isNull();
    }
}
