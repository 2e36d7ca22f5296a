package dev.mirrorv3.cache.store;

import static dev.mirrorv3.cache.store.SlotAddress.EMPTY;
import static dev.mirrorv3.cache.store.SlotAddress.TOMBSTONE;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;

/**
 * Key → latest value of one cache, compact: records ({@link RecordLayout}) are appended to byte pages of 1 MiB with
 * their array header (a record above a quarter of a page gets a page of its own; {@link PageTable}), and an
 * open-addressing index of {@code long} slots ({@link SlotIndex}, load ≤ 0.75) points at them. A slot packs a hash
 * tag, the page's generation, its number and the offset ({@link SlotAddress}), so an entry costs its payload, a 2-4
 * byte header and about 11 bytes of index, instead of a map node, a {@code String} and two array headers.
 *
 * <p>One writer (the cache's consumer thread), any number of readers without locks. The argument, whose parts live
 * in the classes named: a record is written before the slot that points to it is published (release/acquire,
 * {@link SlotIndex#publish}), and a page's bytes never change once a slot points to them. Freed space is reclaimed by
 * {@link PageCompaction} on the writer thread; a reader holding an address into a page it dropped notices it by the
 * generation ({@link PageTable#resolve}) and reads the slot again. An index replaced by a larger one keeps the pages
 * it pointed to, so a reader or a {@link StoreCursor} on the old index still reads them (the garbage collector frees
 * them when no one does).
 *
 * <p>Every page and index allocation is reserved in the sidecar's {@link MemoryBudget} first; one that does not fit
 * throws {@link MemoryBudgetExceededException} and leaves the store unchanged.
 */
public final class KeyValueStore {

    /** What a record did to the map, which decides whether it is notified. */
    public enum Change {
        /** A new key. */
        ADDED,
        /** A different value for a known key. */
        CHANGED,
        /** The same bytes again: not notified. */
        UNCHANGED,
        /** A tombstone of a known key: the key is removed. */
        DELETED,
        /** A tombstone of an unknown key: nothing happens, not notified. */
        ABSENT
    }

    private static final double MAX_LOAD = 0.75;
    private static final int MIN_CAPACITY = 16;
    private static final long PRESIZE_MAX_KEYS = 4L << 20;

    /** Sum of prefetched slots: a field the loads feed, so that the JIT cannot drop them. */
    private long prefetched;

    private final MemoryBudget budget;
    private final PageTable pages;
    private final PageCompaction compaction;
    private volatile SlotIndex index;
    private volatile int size;
    private int tombstones;
    private volatile long payloadBytes;
    /** The index's bytes as reserved in the budget; the pages count theirs. */
    private volatile long indexFootprint;

    public KeyValueStore(MemoryBudget budget) {
        this.budget = budget;
        this.pages = new PageTable(budget);
        this.compaction = new PageCompaction(pages);
        long bytes = SlotIndex.bytes(MIN_CAPACITY);
        budget.reserve(bytes); // a few hundred bytes: not worth failing for
        this.index = new SlotIndex(MIN_CAPACITY);
        this.indexFootprint = bytes;
    }

    /** A store without a budget (tests). */
    public KeyValueStore() {
        this(MemoryBudget.unlimited());
    }

    // ------------------------------------------------------------------------------------------------ reads

    /** The value of {@code key}, or null. Any thread. */
    public byte[] get(String key) {
        byte[] k = Utf8Keys.encode(key);
        return k == null ? null : get(k);
    }

    /** The value of the key with these UTF-8 bytes, or null. Any thread. */
    public byte[] get(byte[] key) {
        long h = KeyHash.hash(key, 0, key.length);
        int tag = SlotAddress.tag(h);
        restart:
        while (true) {
            SlotIndex ix = index;
            long[] slots = ix.slots;
            int cap = slots.length;
            int pos = KeyHash.bucket(h, cap);
            for (int n = 0; n < cap; n++) {
                long s = SlotIndex.acquire(slots, pos);
                if (s == EMPTY) {
                    return null;
                }
                if (s != TOMBSTONE && SlotAddress.tagOf(s) == tag) {
                    Page p = pages.resolve(s, ix);
                    if (p == null) {
                        continue restart; // moved by compaction while we looked: read the index again
                    }
                    int off = SlotAddress.offset(s);
                    if (RecordLayout.keyEquals(p.data, off, key)) {
                        int kl = RecordLayout.varint(p.data, off);
                        int at = off + RecordLayout.varintLength(kl);
                        int vl = RecordLayout.varint(p.data, at);
                        int vOff = at + RecordLayout.varintLength(vl) + kl;
                        return Arrays.copyOfRange(p.data, vOff, vOff + vl);
                    }
                }
                pos = pos + 1 == cap ? 0 : pos + 1;
            }
            return null;
        }
    }

    /** Number of keys. */
    public int size() {
        return size;
    }

    /** Sum of key (UTF-8) and value lengths held: the payload. */
    public long bytes() {
        return payloadBytes;
    }

    /**
     * What the store takes on the heap: its pages (records, their headers, garbage not yet compacted, page tails)
     * and its index, as reserved in the budget.
     */
    public long footprint() {
        return pages.footprint() + indexFootprint;
    }

    /** Pages compacted so far (writer's view; for tests and logs). */
    public long compactedPages() {
        return compaction.compactedPages();
    }

    /** A weakly consistent cursor over the entries (any thread); see {@link StoreCursor}. */
    public StoreCursor cursor() {
        return new StoreCursor(index, pages);
    }

    /** The entries as copies, weakly consistent like {@link #cursor()}. */
    public Iterator<Map.Entry<String, byte[]>> entries() {
        return cursor().asEntries();
    }

    // ------------------------------------------------------------------------------------------------ writer

    /**
     * Loads the index slots of a group's keys ahead of {@link #apply(KeyGroup, int, ByteBuffer)} (writer thread
     * only). A bootstrap inserts keys at random slots of an index much larger than the CPU caches, so each insert
     * waits for memory. The group's keys are hashed as they are added, so this loop does a few instructions per key
     * and the CPU keeps all of its loads in flight at once, instead of one insert's miss after the other.
     */
    public void prefetch(KeyGroup group) {
        long[] slots = index.slots;
        int cap = slots.length;
        long sum = 0;
        for (int i = 0; i < group.size; i++) {
            if (group.keys[i] != null) {
                sum += slots[KeyHash.bucket(group.hashes[i], cap)];
            }
        }
        prefetched += sum;
    }

    /**
     * Sizes the index for about {@code expectedKeys} before the first record, so bootstrap does not rehash: for at
     * most 4M keys and a sixteenth of the budget (a long topic with few keys must not reserve a huge table; a larger
     * one doubles as it fills).
     */
    public void presize(long expectedKeys) {
        if (size != 0 || tombstones != 0) {
            return;
        }
        long byBudget = Math.max(MIN_CAPACITY, SlotIndex.capacityFor(budget.maxBytes() / 16));
        long keys = Math.min(Math.max(expectedKeys, 1), PRESIZE_MAX_KEYS);
        long wanted = Math.min((long) Math.ceil(keys / MAX_LOAD), byBudget);
        int capacity = (int) Math.min(Math.max(wanted, MIN_CAPACITY), Integer.MAX_VALUE - 8);
        if (capacity > index.slots.length) {
            try {
                replaceIndex(capacity);
            } catch (MemoryBudgetExceededException e) {
                // keep the small index; the budget is reported when records do not fit
            }
        }
    }

    /** Applies one record (single writer only); {@code key} as UTF-8 ({@link Utf8Keys#normalize}). */
    public Change apply(String key, byte[] value) {
        return apply(key.getBytes(StandardCharsets.UTF_8), value);
    }

    /** Applies one record (single writer only); see {@link #apply(byte[], ByteBuffer)}. */
    public Change apply(byte[] key, byte[] value) {
        return apply(key, value == null ? null : ByteBuffer.wrap(value));
    }

    /**
     * Applies one record whose value is the remaining bytes of {@code value} (single writer only). The buffer's
     * position is not moved and the buffer is not kept: the consumer hands over a slice of its fetch buffer, copied
     * once, here, into a page.
     *
     * @param key   the key's UTF-8 bytes
     * @param value the value, null for a tombstone
     * @throws MemoryBudgetExceededException when the record does not fit the budget (the store is unchanged)
     */
    public Change apply(byte[] key, ByteBuffer value) {
        return apply(key, KeyHash.hash(key, 0, key.length), value);
    }

    /**
     * Applies the record of the group's key {@code i} (single writer only), as {@link #apply(byte[], ByteBuffer)}
     * does, with the hash the group computed.
     *
     * @throws IllegalArgumentException when the group's key {@code i} is null (such a record is not cached)
     */
    public Change apply(KeyGroup group, int i, ByteBuffer value) {
        byte[] key = group.key(i);
        if (key == null) {
            throw new IllegalArgumentException("key " + i + " of the group is null: a record without a key is not "
                    + "applied");
        }
        return apply(key, group.hashes[i], value);
    }

    private Change apply(byte[] key, long h, ByteBuffer value) {
        int tag = SlotAddress.tag(h);
        long[] slots = index.slots;
        int cap = slots.length;
        int pos = KeyHash.bucket(h, cap);
        int free = -1;
        Page[] table = pages.table();
        for (int n = 0; n < cap; n++) {
            long s = slots[pos];
            if (s == EMPTY) {
                if (free < 0) {
                    free = pos;
                }
                break;
            }
            if (s == TOMBSTONE) {
                if (free < 0) {
                    free = pos;
                }
            } else if (SlotAddress.tagOf(s) == tag) {
                Page p = table[SlotAddress.pageNumber(s)];
                if (RecordLayout.keyEquals(p.data, SlotAddress.offset(s), key)) {
                    Change c = update(slots, pos, s, p, key, value, tag);
                    compaction.stepIfDue(index.slots);
                    return c;
                }
            }
            pos = pos + 1 == cap ? 0 : pos + 1;
        }
        if (value == null) {
            return Change.ABSENT;
        }
        if (slots[free] == EMPTY && size + tombstones + 1 > cap * MAX_LOAD) {
            // Mostly tombstones: rebuild at the same size; otherwise double.
            replaceIndex(size + 1 > cap * MAX_LOAD / 2 ? Math.max(MIN_CAPACITY, cap * 2) : cap);
            slots = index.slots;
            free = SlotIndex.freeSlot(slots, h);
        }
        long address = pages.append(key, value, tag);
        if (slots[free] == TOMBSTONE) {
            tombstones--;
        }
        SlotIndex.publish(slots, free, address);
        size = size + 1;
        payloadBytes = payloadBytes + key.length + value.remaining();
        return Change.ADDED;
    }

    private Change update(long[] slots, int pos, long s, Page p, byte[] key, ByteBuffer value, int tag) {
        int off = SlotAddress.offset(s);
        int kl = RecordLayout.varint(p.data, off);
        int at = off + RecordLayout.varintLength(kl);
        int vl = RecordLayout.varint(p.data, at);
        int header = RecordLayout.varintLength(kl) + RecordLayout.varintLength(vl);
        int vOff = off + header + kl;
        int recordSize = header + kl + vl;
        if (value == null) {
            SlotIndex.publish(slots, pos, TOMBSTONE);
            tombstones++;
            size = size - 1;
            payloadBytes = payloadBytes - kl - vl;
            pages.dead(p, recordSize);
            return Change.DELETED;
        }
        if (vl == value.remaining() && ByteBuffer.wrap(p.data, vOff, vl).equals(value)) {
            return Change.UNCHANGED;
        }
        long address = pages.append(key, value, tag);
        SlotIndex.publish(slots, pos, address);
        payloadBytes = payloadBytes + value.remaining() - vl;
        pages.dead(p, recordSize);
        return Change.CHANGED;
    }

    /** Builds an index of {@code capacity} slots from the current one ({@link SlotIndex#rebuilt}) and publishes it. */
    private void replaceIndex(int capacity) {
        long bytes = SlotIndex.bytes(capacity);
        if (!budget.tryReserve(bytes)) {
            throw new MemoryBudgetExceededException(bytes, budget);
        }
        SlotIndex old = index;
        index = SlotIndex.rebuilt(old, capacity, pages.table());
        tombstones = 0;
        long oldBytes = SlotIndex.bytes(old.slots.length);
        budget.release(oldBytes);
        indexFootprint = indexFootprint + bytes - oldBytes;
    }
}
