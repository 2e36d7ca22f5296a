package dev.mirrorv3.cache.store;

import java.util.Arrays;

/**
 * A record's bytes in a page: {@code varint keyLength, varint valueLength, key, value} (unsigned LEB128 varints, so
 * the header takes 2-4 bytes for usual sizes).
 */
final class RecordLayout {

    private RecordLayout() {
    }

    /** Whether the record at {@code off} has exactly these key bytes. */
    static boolean keyEquals(byte[] d, int off, byte[] key) {
        int kl = varint(d, off);
        if (kl != key.length) {
            return false;
        }
        int keyOff = keyOffset(d, off, kl);
        return Arrays.equals(d, keyOff, keyOff + kl, key, 0, kl);
    }

    /** Where the key of the record at {@code off}, whose key length {@code kl} was read, starts. */
    static int keyOffset(byte[] d, int off, int kl) {
        int at = off + varintLength(kl);
        return at + varintLength(varint(d, at));
    }

    static int varintLength(int v) {
        return v < 1 << 7 ? 1 : v < 1 << 14 ? 2 : v < 1 << 21 ? 3 : v < 1 << 28 ? 4 : 5;
    }

    static int putVarint(byte[] d, int at, int v) {
        while ((v & ~0x7F) != 0) {
            d[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        d[at++] = (byte) v;
        return at;
    }

    static int varint(byte[] d, int at) {
        int v = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = d[at++];
            v |= (b & 0x7F) << shift;
            if (b >= 0) {
                return v;
            }
        }
    }
}
