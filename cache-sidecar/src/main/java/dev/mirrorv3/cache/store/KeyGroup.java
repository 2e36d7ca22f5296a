package dev.mirrorv3.cache.store;

import java.util.Arrays;

/**
 * Keys of consecutive records, each hashed once as it is added, for {@link KeyValueStore#prefetch(KeyGroup)} and
 * {@link KeyValueStore#apply(KeyGroup, int, java.nio.ByteBuffer)}. Writer thread only; reused with {@link #clear()}.
 */
public final class KeyGroup {
    final byte[][] keys;
    final long[] hashes;
    int size;

    public KeyGroup(int capacity) {
        this.keys = new byte[capacity][];
        this.hashes = new long[capacity];
    }

    public void clear() {
        Arrays.fill(keys, 0, size, null);
        size = 0;
    }

    /**
     * Adds a key as UTF-8 bytes ({@link Utf8Keys#normalize}), or null for a record without a key.
     *
     * @throws IllegalStateException when the group is full
     */
    public void add(byte[] key) {
        if (size == keys.length) {
            throw new IllegalStateException("the group is full: it holds " + keys.length + " keys");
        }
        keys[size] = key;
        hashes[size] = key == null ? 0 : KeyHash.hash(key, 0, key.length);
        size++;
    }

    public int size() {
        return size;
    }

    /** The key added {@code i}-th, or null. */
    public byte[] key(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("key " + i + " of a group of " + size);
        }
        return keys[i];
    }
}
