package dev.mirrorv3.cache.store;

import static dev.mirrorv3.cache.store.SlotAddress.EMPTY;
import static dev.mirrorv3.cache.store.SlotAddress.TOMBSTONE;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The open-addressing index (linear probing) of {@link SlotAddress} slots. The writer publishes a slot with
 * {@link #publish} after the record it points to is written, and readers load it with {@link #acquire}, so they see
 * the record's bytes; the probe helpers here are the writer's, which reads its own writes plainly.
 */
final class SlotIndex {

    private static final long ARRAY_HEADER = 16;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

    final long[] slots;
    /** Set when a larger index replaced this one: the pages its (then frozen) slots point to. */
    volatile Page[] retiredPages;

    SlotIndex(int capacity) {
        this.slots = new long[capacity];
    }

    /** Publishes slot {@code pos} (writer), after the record it points to is written. */
    static void publish(long[] slots, int pos, long s) {
        SLOTS.setRelease(slots, pos, s);
    }

    /** Reads slot {@code pos} (any thread), with the record it points to. */
    static long acquire(long[] slots, int pos) {
        return (long) SLOTS.getAcquire(slots, pos);
    }

    /** What an index of {@code capacity} slots takes on the heap. */
    static long bytes(int capacity) {
        return ARRAY_HEADER + (long) Long.BYTES * capacity;
    }

    /** The most slots an index of {@code maxBytes} holds. */
    static long capacityFor(long maxBytes) {
        return (maxBytes - ARRAY_HEADER) / Long.BYTES;
    }

    /**
     * An index of {@code capacity} slots holding the live slots of {@code old} (without tombstones), whose records
     * are in {@code table}. The old index keeps a copy of the table, so whoever still reads it can resolve its (now
     * frozen) addresses.
     */
    static SlotIndex rebuilt(SlotIndex old, int capacity, Page[] table) {
        SlotIndex fresh = new SlotIndex(capacity);
        long[] to = fresh.slots;
        for (long s : old.slots) {
            if (s != EMPTY && s != TOMBSTONE) {
                byte[] d = table[SlotAddress.pageNumber(s)].data;
                int off = SlotAddress.offset(s);
                int kl = RecordLayout.varint(d, off);
                to[freeSlot(to, KeyHash.hash(d, RecordLayout.keyOffset(d, off, kl), kl))] = s;
            }
        }
        old.retiredPages = table.clone();
        return fresh;
    }

    /** The first tombstone or empty slot on the probe path of {@code h} (the key is known to be absent). */
    static int freeSlot(long[] slots, long h) {
        int cap = slots.length;
        int pos = KeyHash.bucket(h, cap);
        while (slots[pos] != EMPTY && slots[pos] != TOMBSTONE) {
            pos = pos + 1 == cap ? 0 : pos + 1;
        }
        return pos;
    }

    /** The slot on the probe path of {@code h} holding exactly {@code address}, or -1. */
    static int find(long[] slots, long h, long address) {
        int cap = slots.length;
        int pos = KeyHash.bucket(h, cap);
        for (int n = 0; n < cap; n++) {
            long s = slots[pos];
            if (s == address) {
                return pos;
            }
            if (s == EMPTY) {
                return -1;
            }
            pos = pos + 1 == cap ? 0 : pos + 1;
        }
        return -1;
    }
}
