package dev.mirrorv3.cache.store;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Key → latest value of one cache, compact: records ({@code varint keyLength, varint valueLength, key, value}) are
 * appended to byte pages of 1 MiB with their array header (a record above a quarter of a page gets a page of its own),
 * and an open-addressing index of {@code long} slots (linear probing, load ≤ 0.75) points at them. A slot packs a
 * 14-bit hash tag, the page's 12-bit generation, its 18-bit page number and the 20-bit offset, so an entry costs its
 * payload, a 2-4 byte header and about 11 bytes of index, instead of a map node, a {@code String} and two array headers.
 *
 * <p>One writer (the cache's consumer thread), any number of readers without locks: a record is written before the
 * slot that points to it is published (release/acquire), and a page's bytes never change once a slot points to them.
 * Freed space is reclaimed by compaction on the writer thread, one page per step, whenever more than a quarter of
 * the written bytes are garbage: the live records of the emptiest page are copied to the open page, their slots
 * repointed, and the page dropped. A reader holding an address into a dropped page notices it by the generation and
 * reads the slot again; an index replaced by a larger one keeps the pages it pointed to, so a reader or an iteration
 * on the old index still reads them (the garbage collector frees them when no one does).
 *
 * <p>Iteration walks one index's slots: it never fails, and lists each key present for the whole iteration exactly
 * once, with a value it had at some time during the iteration.
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

    static final int OFFSET_BITS = 20;
    /**
     * A page's array is exactly 1 MiB with its 16-byte header, one G1 region with the 1 MiB regions bin/cache-sidecar
     * sets: an object of at least half a region is humongous, allocated straight in the old generation and never
     * copied by a young collection, so the bootstrap does not copy the whole cache from eden through the survivors
     * (with the parallel collector 256 KiB pages were copied that way). Offsets stay below 2^20.
     */
    static final int PAGE_SIZE = (1 << OFFSET_BITS) - 16;
    /** Records above this size get a page of their own, so no page tail wastes more than this. */
    static final int LARGE_RECORD = PAGE_SIZE / 4;
    private static final int PAGE_BITS = 18;
    static final int MAX_PAGES = 1 << PAGE_BITS;
    private static final int GEN_BITS = 12;
    private static final int GEN_MASK = (1 << GEN_BITS) - 1;
    private static final int TAG_BITS = 14;
    private static final int TAG_MASK = (1 << TAG_BITS) - 1;
    private static final int PAGE_SHIFT = OFFSET_BITS;
    private static final int GEN_SHIFT = OFFSET_BITS + PAGE_BITS;
    private static final int TAG_SHIFT = GEN_SHIFT + GEN_BITS;
    /** Live slots have a generation of 1 or more, so these two never collide with an address. */
    private static final long EMPTY = 0;
    private static final long TOMBSTONE = 1;
    private static final double MAX_LOAD = 0.75;
    private static final int MIN_CAPACITY = 16;
    private static final long PRESIZE_MAX_KEYS = 4L << 20;
    /** JVM array header plus the {@link Page} object, per page, for the footprint. */
    static final long PAGE_OVERHEAD = 48;
    private static final long ARRAY_HEADER = 16;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle PAGES = MethodHandles.arrayElementVarHandle(Page[].class);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    /** Sum of prefetched slots: a field the loads feed, so that the JIT cannot drop them. */
    private long prefetched;

    private static final class Page {
        final byte[] data;
        final int number;
        final int gen;
        /** Bytes written (writer only). */
        int fill;
        /** Bytes of records a slot still points to (writer only). */
        int live;

        Page(byte[] data, int number, int gen) {
            this.data = data;
            this.number = number;
            this.gen = gen;
        }
    }

    private static final class Index {
        final long[] slots;
        /** Set when a larger index replaced this one: the pages its (then frozen) slots point to. */
        volatile Page[] retiredPages;

        Index(int capacity) {
            this.slots = new long[capacity];
        }
    }

    private final MemoryBudget budget;
    private volatile Index index;
    private volatile Page[] pages = new Page[16];
    private int[] generations = new int[16];
    private int[] freeNumbers = new int[16];
    private int freeCount;
    private int pageCount;
    private Page open;
    private volatile int size;
    private int tombstones;
    private volatile long payloadBytes;
    private volatile long footprint;
    /** Sums over all pages of {@code fill} and {@code live}: their difference is the garbage compaction reclaims. */
    private long totalFill;
    private long totalLive;
    private long compactedPages;

    public KeyValueStore(MemoryBudget budget) {
        this.budget = budget;
        long bytes = indexBytes(MIN_CAPACITY);
        budget.reserve(bytes); // a few hundred bytes: not worth failing for
        this.index = new Index(MIN_CAPACITY);
        this.footprint = bytes;
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
        long h = hash(key, 0, key.length);
        int tag = tag(h);
        restart:
        while (true) {
            Index ix = index;
            long[] slots = ix.slots;
            int cap = slots.length;
            int pos = bucket(h, cap);
            for (int n = 0; n < cap; n++) {
                long s = (long) SLOTS.getAcquire(slots, pos);
                if (s == EMPTY) {
                    return null;
                }
                if (s != TOMBSTONE && tagOf(s) == tag) {
                    Page p = resolve(s, ix);
                    if (p == null) {
                        continue restart; // moved by compaction while we looked: read the index again
                    }
                    int off = offset(s);
                    if (keyEquals(p.data, off, key)) {
                        int kl = varint(p.data, off);
                        int at = off + varintLength(kl);
                        int vl = varint(p.data, at);
                        int vOff = at + varintLength(vl) + kl;
                        return Arrays.copyOfRange(p.data, vOff, vOff + vl);
                    }
                }
                pos = pos + 1 == cap ? 0 : pos + 1;
            }
            return null;
        }
    }

    /** The page an address points to, if it still holds the record: the current table, else the retired one's. */
    private Page resolve(long s, Index ix) {
        int number = pageNumber(s);
        int gen = gen(s);
        Page[] table = pages;
        if (number < table.length) {
            Page p = (Page) PAGES.getAcquire(table, number);
            if (p != null && p.gen == gen) {
                return p;
            }
        }
        Page[] retired = ix.retiredPages;
        if (retired != null && number < retired.length) {
            Page p = retired[number];
            if (p != null && p.gen == gen) {
                return p;
            }
        }
        return null;
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
        return footprint;
    }

    /** Pages compacted so far (writer's view; for tests and logs). */
    public long compactedPages() {
        return compactedPages;
    }

    /** A weakly consistent cursor over the entries (any thread); see the class comment. */
    public Cursor cursor() {
        return new Cursor(index);
    }

    /** The entries as copies, weakly consistent like {@link #cursor()}. */
    public Iterator<Map.Entry<String, byte[]>> entries() {
        Cursor c = cursor();
        return new Iterator<>() {
            private boolean ahead;
            private boolean more;

            @Override
            public boolean hasNext() {
                if (!ahead) {
                    more = c.next();
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
                return new AbstractMap.SimpleImmutableEntry<>(c.key(), c.value());
            }
        };
    }

    /** Walks one index; each {@link #next()} positions on an entry whose bytes can be read until the next call. */
    public final class Cursor {
        private final Index ix;
        private int pos = -1;
        private byte[] data;
        private int keyOffset;
        private int keyLength;
        private int valueOffset;
        private int valueLength;

        private Cursor(Index ix) {
            this.ix = ix;
        }

        public boolean next() {
            long[] slots = ix.slots;
            while (++pos < slots.length) {
                long s = (long) SLOTS.getAcquire(slots, pos);
                for (int tries = 0; s != EMPTY && s != TOMBSTONE; tries++) {
                    Page p = resolve(s, ix);
                    if (p != null) {
                        position(p.data, offset(s));
                        return true;
                    }
                    // Moved by compaction: the slot already points elsewhere (or, in a replaced index, its pages
                    // were kept). A slot that keeps pointing nowhere would be a broken invariant: skip it.
                    long again = (long) SLOTS.getAcquire(slots, pos);
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
            keyLength = varint(d, off);
            int at = off + varintLength(keyLength);
            valueLength = varint(d, at);
            keyOffset = at + varintLength(valueLength);
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
    }

    // ------------------------------------------------------------------------------------------------ writer

    /**
     * Keys of consecutive records, each hashed once as it is added, for {@link #prefetch(Group)} and
     * {@link #apply(Group, int, ByteBuffer)}. Writer thread only; reused with {@link #clear()}.
     */
    public static final class Group {
        private final byte[][] keys;
        private final long[] hashes;
        private int size;

        public Group(int capacity) {
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
            hashes[size] = key == null ? 0 : hash(key, 0, key.length);
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

    /**
     * Loads the index slots of a group's keys ahead of {@link #apply(Group, int, ByteBuffer)} (writer thread only).
     * A bootstrap inserts keys at random slots of an index much larger than the CPU caches, so each insert waits for
     * memory. The group's keys are hashed as they are added, so this loop does a few instructions per key and the
     * CPU keeps all of its loads in flight at once, instead of one insert's miss after the other.
     */
    public void prefetch(Group group) {
        long[] slots = index.slots;
        int cap = slots.length;
        long sum = 0;
        for (int i = 0; i < group.size; i++) {
            if (group.keys[i] != null) {
                sum += slots[bucket(group.hashes[i], cap)];
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
        long byBudget = Math.max(MIN_CAPACITY, (budget.maxBytes() / 16 - ARRAY_HEADER) / Long.BYTES);
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
        return apply(key, hash(key, 0, key.length), value);
    }

    /**
     * Applies the record of the group's key {@code i} (single writer only), as {@link #apply(byte[], ByteBuffer)}
     * does, with the hash the group computed.
     *
     * @throws IllegalArgumentException when the group's key {@code i} is null (such a record is not cached)
     */
    public Change apply(Group group, int i, ByteBuffer value) {
        byte[] key = group.key(i);
        if (key == null) {
            throw new IllegalArgumentException("key " + i + " of the group is null: a record without a key is not "
                    + "applied");
        }
        return apply(key, group.hashes[i], value);
    }

    private Change apply(byte[] key, long h, ByteBuffer value) {
        int tag = tag(h);
        long[] slots = index.slots;
        int cap = slots.length;
        int pos = bucket(h, cap);
        int free = -1;
        Page[] table = pages;
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
            } else if (tagOf(s) == tag) {
                Page p = table[pageNumber(s)];
                if (keyEquals(p.data, offset(s), key)) {
                    Change c = update(slots, pos, s, p, key, value, tag);
                    compactIfDue();
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
            free = freeSlot(slots, h);
        }
        long address = append(key, value, tag);
        if (slots[free] == TOMBSTONE) {
            tombstones--;
        }
        SLOTS.setRelease(slots, free, address);
        size = size + 1;
        payloadBytes = payloadBytes + key.length + value.remaining();
        return Change.ADDED;
    }

    private Change update(long[] slots, int pos, long s, Page p, byte[] key, ByteBuffer value, int tag) {
        int off = offset(s);
        int kl = varint(p.data, off);
        int at = off + varintLength(kl);
        int vl = varint(p.data, at);
        int header = varintLength(kl) + varintLength(vl);
        int vOff = off + header + kl;
        int recordSize = header + kl + vl;
        if (value == null) {
            SLOTS.setRelease(slots, pos, TOMBSTONE);
            tombstones++;
            size = size - 1;
            payloadBytes = payloadBytes - kl - vl;
            dead(p, recordSize);
            return Change.DELETED;
        }
        if (vl == value.remaining() && ByteBuffer.wrap(p.data, vOff, vl).equals(value)) {
            return Change.UNCHANGED;
        }
        long address = append(key, value, tag);
        SLOTS.setRelease(slots, pos, address);
        payloadBytes = payloadBytes + value.remaining() - vl;
        dead(p, recordSize);
        return Change.CHANGED;
    }

    /** The first tombstone or empty slot on the probe path of {@code h} (the key is known to be absent). */
    private static int freeSlot(long[] slots, long h) {
        int cap = slots.length;
        int pos = bucket(h, cap);
        while (slots[pos] != EMPTY && slots[pos] != TOMBSTONE) {
            pos = pos + 1 == cap ? 0 : pos + 1;
        }
        return pos;
    }

    /** Writes a record to the open page (or a page of its own) and returns its address. */
    private long append(byte[] key, ByteBuffer value, int tag) {
        int kl = key.length;
        int vl = value.remaining();
        long recordSize = (long) varintLength(kl) + varintLength(vl) + kl + vl;
        Page p = pageFor(recordSize);
        int off = p.fill;
        byte[] d = p.data;
        int at = putVarint(d, off, kl);
        at = putVarint(d, at, vl);
        System.arraycopy(key, 0, d, at, kl);
        value.get(value.position(), d, at + kl, vl);
        return written(p, off, (int) recordSize, tag);
    }

    /** Copies a live record during compaction. */
    private long appendCopy(byte[] src, int off, int recordSize, int tag) {
        Page p = pageFor(recordSize);
        int at = p.fill;
        System.arraycopy(src, off, p.data, at, recordSize);
        return written(p, at, recordSize, tag);
    }

    private long written(Page p, int off, int recordSize, int tag) {
        p.fill += recordSize;
        p.live += recordSize;
        totalFill += recordSize;
        totalLive += recordSize;
        return address(tag, p.gen, p.number, off);
    }

    /** A page with room for {@code recordSize} bytes: the open page, a new open page, or one of its own. */
    private Page pageFor(long recordSize) {
        if (recordSize > LARGE_RECORD) {
            if (recordSize > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException("a record of " + recordSize + " bytes is too large for a page");
            }
            return newPage((int) recordSize);
        }
        if (open == null || open.fill + recordSize > PAGE_SIZE) {
            Page fresh = newPage(PAGE_SIZE);
            Page sealed = open;
            open = fresh;
            if (sealed != null && sealed.live == 0) {
                free(sealed);
            }
        }
        return open;
    }

    private Page newPage(int bytes) {
        long cost = bytes + PAGE_OVERHEAD;
        if (!budget.tryReserve(cost)) {
            throw new MemoryBudgetExceededException(cost, budget);
        }
        int number;
        if (freeCount > 0) {
            number = freeNumbers[--freeCount];
        } else if (pageCount < MAX_PAGES) {
            number = pageCount++;
        } else {
            budget.release(cost);
            throw new IllegalStateException("the store has " + MAX_PAGES + " pages of " + PAGE_SIZE
                    + " bytes, its limit");
        }
        Page[] table = pages;
        if (number >= table.length) {
            int grown = Math.min(MAX_PAGES, table.length * 2);
            generations = Arrays.copyOf(generations, grown);
            table = Arrays.copyOf(table, grown);
            pages = table;
        }
        int gen = generations[number] % GEN_MASK + 1; // 1..4095, never 0 (EMPTY and TOMBSTONE have 0)
        generations[number] = gen;
        Page p = new Page(new byte[bytes], number, gen);
        PAGES.setRelease(table, number, p);
        footprint = footprint + cost;
        return p;
    }

    /** A record is no longer pointed to: its page loses live bytes, and a sealed page without any is dropped. */
    private void dead(Page p, int recordSize) {
        p.live -= recordSize;
        totalLive -= recordSize;
        if (p.live == 0 && p != open) {
            free(p);
        }
    }

    private void free(Page p) {
        PAGES.setRelease(pages, p.number, (Page) null);
        totalFill -= p.fill;
        totalLive -= p.live;
        long cost = p.data.length + PAGE_OVERHEAD;
        budget.release(cost);
        footprint = footprint - cost;
        if (freeCount == freeNumbers.length) {
            freeNumbers = Arrays.copyOf(freeNumbers, freeCount * 2);
        }
        freeNumbers[freeCount++] = p.number;
    }

    /** One compaction step when more than a quarter of the written bytes (and over two pages' worth) is garbage. */
    private void compactIfDue() {
        long garbage = totalFill - totalLive;
        if (garbage <= 2L * PAGE_SIZE || garbage * 4 <= totalFill) {
            return;
        }
        Page[] table = pages;
        Page victim = null;
        double best = 1;
        for (int i = 0; i < pageCount; i++) {
            Page p = table[i];
            if (p != null && p != open && p.fill > 0) {
                double liveShare = (double) p.live / p.fill;
                if (liveShare < best) {
                    best = liveShare;
                    victim = p;
                }
            }
        }
        if (victim != null) {
            compact(victim);
        }
    }

    /** Moves the live records of {@code victim} to the open page, then drops it. Stops quietly if over budget. */
    private void compact(Page victim) {
        byte[] d = victim.data;
        long[] slots = index.slots;
        int off = 0;
        while (off < victim.fill && victim.live > 0) {
            int kl = varint(d, off);
            int at = off + varintLength(kl);
            int vl = varint(d, at);
            int keyOff = at + varintLength(vl);
            int recordSize = keyOff - off + kl + vl;
            long h = hash(d, keyOff, kl);
            int tag = tag(h);
            long mine = address(tag, victim.gen, victim.number, off);
            int pos = find(slots, h, mine);
            if (pos >= 0) {
                long moved;
                try {
                    moved = appendCopy(d, off, recordSize, tag);
                } catch (MemoryBudgetExceededException e) {
                    return; // no room to move into: the next write reports the budget
                }
                SLOTS.setRelease(slots, pos, moved);
                victim.live -= recordSize;
                totalLive -= recordSize;
            }
            off += recordSize;
        }
        if (victim.live != 0) {
            throw new IllegalStateException("compaction found " + victim.live + " live bytes in page "
                    + victim.number + " that no slot points to");
        }
        compactedPages++;
        free(victim);
    }

    /** The slot on the probe path of {@code h} holding exactly {@code address}, or -1. */
    private static int find(long[] slots, long h, long address) {
        int cap = slots.length;
        int pos = bucket(h, cap);
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

    /**
     * Builds an index of {@code capacity} slots from the current one (without tombstones) and publishes it. The old
     * one keeps a copy of the page table, so whoever still reads it can resolve its (now frozen) addresses.
     */
    private void replaceIndex(int capacity) {
        long bytes = indexBytes(capacity);
        if (!budget.tryReserve(bytes)) {
            throw new MemoryBudgetExceededException(bytes, budget);
        }
        Index old = index;
        Index fresh = new Index(capacity);
        long[] to = fresh.slots;
        Page[] table = pages;
        for (long s : old.slots) {
            if (s != EMPTY && s != TOMBSTONE) {
                byte[] d = table[pageNumber(s)].data;
                int off = offset(s);
                int kl = varint(d, off);
                int at = off + varintLength(kl);
                int keyOff = at + varintLength(varint(d, at));
                to[freeSlot(to, hash(d, keyOff, kl))] = s;
            }
        }
        old.retiredPages = table.clone();
        index = fresh;
        tombstones = 0;
        long oldBytes = indexBytes(old.slots.length);
        budget.release(oldBytes);
        footprint = footprint + bytes - oldBytes;
    }

    private static long indexBytes(int capacity) {
        return ARRAY_HEADER + (long) Long.BYTES * capacity;
    }

    // ------------------------------------------------------------------------------------------------ encoding

    private static long address(int tag, int gen, int page, int off) {
        return (long) tag << TAG_SHIFT | (long) gen << GEN_SHIFT | (long) page << PAGE_SHIFT | off;
    }

    private static int tagOf(long s) {
        return (int) (s >>> TAG_SHIFT) & TAG_MASK;
    }

    private static int gen(long s) {
        return (int) (s >>> GEN_SHIFT) & GEN_MASK;
    }

    private static int pageNumber(long s) {
        return (int) (s >>> PAGE_SHIFT) & (MAX_PAGES - 1);
    }

    private static int offset(long s) {
        return (int) s & ((1 << OFFSET_BITS) - 1);
    }

    private static int tag(long h) {
        return (int) h & TAG_MASK;
    }

    /** Lemire's multiply-shift reduction of the hash's high half onto any capacity. */
    private static int bucket(long h, int capacity) {
        return (int) (((h >>> 32) * capacity) >>> 32);
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

    private static boolean keyEquals(byte[] d, int off, byte[] key) {
        int kl = varint(d, off);
        if (kl != key.length) {
            return false;
        }
        int at = off + varintLength(kl);
        int keyOff = at + varintLength(varint(d, at));
        return Arrays.equals(d, keyOff, keyOff + kl, key, 0, kl);
    }

    static int varintLength(int v) {
        return v < 1 << 7 ? 1 : v < 1 << 14 ? 2 : v < 1 << 21 ? 3 : v < 1 << 28 ? 4 : 5;
    }

    private static int putVarint(byte[] d, int at, int v) {
        while ((v & ~0x7F) != 0) {
            d[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        d[at++] = (byte) v;
        return at;
    }

    private static int varint(byte[] d, int at) {
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
