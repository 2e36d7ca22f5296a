package dev.mirrorv3.cache.store;

/**
 * The {@code long} an index slot holds: a record's address packing a 14-bit tag of its key's hash, its page's 12-bit
 * generation, the 18-bit page number and the 20-bit offset in the page; or one of the two markers {@link #EMPTY} and
 * {@link #TOMBSTONE}, which never collide with an address because a live page's generation is 1 or more.
 */
final class SlotAddress {

    static final int OFFSET_BITS = 20;
    static final int PAGE_BITS = 18;
    static final int MAX_PAGES = 1 << PAGE_BITS;
    private static final int GEN_BITS = 12;
    static final int GEN_MASK = (1 << GEN_BITS) - 1;
    private static final int TAG_BITS = 14;
    private static final int TAG_MASK = (1 << TAG_BITS) - 1;
    private static final int PAGE_SHIFT = OFFSET_BITS;
    private static final int GEN_SHIFT = OFFSET_BITS + PAGE_BITS;
    private static final int TAG_SHIFT = GEN_SHIFT + GEN_BITS;
    static final long EMPTY = 0;
    static final long TOMBSTONE = 1;

    private SlotAddress() {
    }

    static long address(int tag, int gen, int page, int off) {
        return (long) tag << TAG_SHIFT | (long) gen << GEN_SHIFT | (long) page << PAGE_SHIFT | off;
    }

    static int tagOf(long s) {
        return (int) (s >>> TAG_SHIFT) & TAG_MASK;
    }

    static int gen(long s) {
        return (int) (s >>> GEN_SHIFT) & GEN_MASK;
    }

    static int pageNumber(long s) {
        return (int) (s >>> PAGE_SHIFT) & (MAX_PAGES - 1);
    }

    static int offset(long s) {
        return (int) s & ((1 << OFFSET_BITS) - 1);
    }

    /** The tag an address of a key with hash {@code h} carries. */
    static int tag(long h) {
        return (int) h & TAG_MASK;
    }
}
