package dev.mirrorv3.cache.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** The 64-bit hash of a key's bytes, and the index slot a probe for it starts at. */
final class KeyHash {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    private KeyHash() {
    }

    /** A 64-bit hash of key bytes (8 bytes per step, multiply-xorshift mixing, SplitMix64's finaliser). */
    static long hash(byte[] a, int off, int len) {
        long h = 0x9E3779B97F4A7C15L ^ len;
        int i = 0;
        for (; i + Long.BYTES <= len; i += Long.BYTES) {
            h = (h ^ (long) LONGS.get(a, off + i)) * 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        long tail = 0;
        for (int shift = 0; i < len; i++, shift += 8) {
            tail |= (a[off + i] & 0xFFL) << shift;
        }
        h = (h ^ tail) * 0x94D049BB133111EBL;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 32);
    }

    /** Lemire's multiply-shift reduction of the hash's high half onto any capacity. */
    static int bucket(long h, int capacity) {
        return (int) (((h >>> 32) * capacity) >>> 32);
    }
}
