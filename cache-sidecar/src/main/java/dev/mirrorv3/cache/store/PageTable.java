package dev.mirrorv3.cache.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The store's pages by number: appends records to the open page (or a page of its own), counts each page's written
 * and live bytes, drops a sealed page without live bytes, and reserves and releases every page in the
 * {@link MemoryBudget}. A page number freed is reused with the next generation, so an address into the dropped page
 * no longer resolves. Writer thread only, except {@link #resolve} and {@link #footprint}.
 */
final class PageTable {

    /**
     * A page's array is exactly 1 MiB with its 16-byte header, one G1 region with the 1 MiB regions bin/cache-sidecar
     * sets: an object of at least half a region is humongous, allocated straight in the old generation and never
     * copied by a young collection, so the bootstrap does not copy the whole cache from eden through the survivors
     * (with the parallel collector 256 KiB pages were copied that way). Offsets stay below 2^20.
     */
    static final int PAGE_SIZE = (1 << SlotAddress.OFFSET_BITS) - 16;
    /** Records above this size get a page of their own, so no page tail wastes more than this. */
    static final int LARGE_RECORD = PAGE_SIZE / 4;
    /** JVM array header plus the {@link Page} object, per page, for the footprint. */
    static final long PAGE_OVERHEAD = 48;
    private static final VarHandle PAGES = MethodHandles.arrayElementVarHandle(Page[].class);

    private final MemoryBudget budget;
    private volatile Page[] pages = new Page[16];
    private int[] generations = new int[16];
    private int[] freeNumbers = new int[16];
    private int freeCount;
    private int pageCount;
    private Page open;
    private volatile long footprint;
    /** Sums over all pages of {@code fill} and {@code live}: their difference is the garbage compaction reclaims. */
    private long totalFill;
    private long totalLive;

    PageTable(MemoryBudget budget) {
        this.budget = budget;
    }

    /** The page an address points to, if it still holds the record: the current table, else the retired one's. */
    Page resolve(long s, SlotIndex ix) {
        int number = SlotAddress.pageNumber(s);
        int gen = SlotAddress.gen(s);
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

    /** The current table by page number (writer: every live slot's page is in it). */
    Page[] table() {
        return pages;
    }

    /** Pages numbered so far: the table's used length. */
    int pageCount() {
        return pageCount;
    }

    /** The page records are appended to, or null before the first. */
    Page open() {
        return open;
    }

    /** Bytes of the pages, their headers and objects, as reserved in the budget. */
    long footprint() {
        return footprint;
    }

    long totalFill() {
        return totalFill;
    }

    /** Bytes written that no slot points to any more. */
    long garbage() {
        return totalFill - totalLive;
    }

    /** Writes a record to the open page (or a page of its own) and returns its address. */
    long append(byte[] key, ByteBuffer value, int tag) {
        int kl = key.length;
        int vl = value.remaining();
        long recordSize = (long) RecordLayout.varintLength(kl) + RecordLayout.varintLength(vl) + kl + vl;
        Page p = pageFor(recordSize);
        int off = p.fill;
        byte[] d = p.data;
        int at = RecordLayout.putVarint(d, off, kl);
        at = RecordLayout.putVarint(d, at, vl);
        System.arraycopy(key, 0, d, at, kl);
        value.get(value.position(), d, at + kl, vl);
        return written(p, off, (int) recordSize, tag);
    }

    /** Copies a live record during compaction. */
    long appendCopy(byte[] src, int off, int recordSize, int tag) {
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
        return SlotAddress.address(tag, p.gen, p.number, off);
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
        } else if (pageCount < SlotAddress.MAX_PAGES) {
            number = pageCount++;
        } else {
            budget.release(cost);
            throw new IllegalStateException("the store has " + SlotAddress.MAX_PAGES + " pages of " + PAGE_SIZE
                    + " bytes, its limit");
        }
        Page[] table = pages;
        if (number >= table.length) {
            int grown = Math.min(SlotAddress.MAX_PAGES, table.length * 2);
            generations = Arrays.copyOf(generations, grown);
            table = Arrays.copyOf(table, grown);
            pages = table;
        }
        int gen = generations[number] % SlotAddress.GEN_MASK + 1; // 1..4095, never 0 (EMPTY and TOMBSTONE have 0)
        generations[number] = gen;
        Page p = new Page(new byte[bytes], number, gen);
        PAGES.setRelease(table, number, p);
        footprint = footprint + cost;
        return p;
    }

    /** A record is no longer pointed to: its page loses live bytes, and a sealed page without any is dropped. */
    void dead(Page p, int recordSize) {
        p.live -= recordSize;
        totalLive -= recordSize;
        if (p.live == 0 && p != open) {
            free(p);
        }
    }

    /** A record of a page being compacted was copied elsewhere; the page is dropped by {@link #free} at the end. */
    void movedOut(Page p, int recordSize) {
        p.live -= recordSize;
        totalLive -= recordSize;
    }

    void free(Page p) {
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
}
