package dev.mirrorv3.cache.store;

import static dev.mirrorv3.cache.store.SlotAddress.EMPTY;
import static dev.mirrorv3.cache.store.SlotAddress.TOMBSTONE;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Walks one index of a {@link KeyValueStore} (any thread); each {@link #next()} positions on an entry whose bytes can
 * be read until the next call. It never fails, and lists each key present for the whole walk exactly once, with a
 * value it had at some time during the walk.
 */
public final class StoreCursor {
    private final SlotIndex ix;
    private final PageTable pages;
    private int pos = -1;
    private byte[] data;
    private int keyOffset;
    private int keyLength;
    private int valueOffset;
    private int valueLength;

    StoreCursor(SlotIndex ix, PageTable pages) {
        this.ix = ix;
        this.pages = pages;
    }

    public boolean next() {
        long[] slots = ix.slots;
        while (++pos < slots.length) {
            long s = SlotIndex.acquire(slots, pos);
            for (int tries = 0; s != EMPTY && s != TOMBSTONE; tries++) {
                Page p = pages.resolve(s, ix);
                if (p != null) {
                    position(p.data, SlotAddress.offset(s));
                    return true;
                }
                // Moved by compaction: the slot already points elsewhere (or, in a replaced index, its pages
                // were kept). A slot that keeps pointing nowhere would be a broken invariant: skip it.
                long again = SlotIndex.acquire(slots, pos);
                if (again == s && tries > 1000) {
                    break;
                }
                s = again;
            }
        }
        return false;
    }

    private void position(byte[] d, int off) {
        data = d;
        keyLength = RecordLayout.varint(d, off);
        int at = off + RecordLayout.varintLength(keyLength);
        valueLength = RecordLayout.varint(d, at);
        keyOffset = at + RecordLayout.varintLength(valueLength);
        valueOffset = keyOffset + keyLength;
    }

    public String key() {
        return new String(data, keyOffset, keyLength, StandardCharsets.UTF_8);
    }

    public byte[] value() {
        return Arrays.copyOfRange(data, valueOffset, valueOffset + valueLength);
    }

    public void writeKey(OutputStream out) throws IOException {
        out.write(data, keyOffset, keyLength);
    }

    public void writeValue(OutputStream out) throws IOException {
        out.write(data, valueOffset, valueLength);
    }

    /** The rest of the walk as entries holding copies. */
    Iterator<Map.Entry<String, byte[]>> asEntries() {
        return new Iterator<>() {
            private boolean ahead;
            private boolean more;

            @Override
            public boolean hasNext() {
                if (!ahead) {
                    more = StoreCursor.this.next();
                    ahead = true;
                }
                return more;
            }

            @Override
            public Map.Entry<String, byte[]> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                ahead = false;
                return new AbstractMap.SimpleImmutableEntry<>(key(), value());
            }
        };
    }
}
