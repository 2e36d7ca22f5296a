package dev.mirrorv3.cache.store;

/**
 * Reclaims the garbage of updates and deletes, one page per step on the writer thread, whenever more than a quarter
 * of the written bytes (and over two pages' worth) is garbage: the live records of the emptiest sealed page are
 * copied to the open page, their slots repointed (release stores), and the page dropped. A reader holding an address
 * into the dropped page notices it by the page's generation ({@link PageTable#resolve}) and reads the slot again.
 */
final class PageCompaction {

    private final PageTable pages;
    private long compactedPages;

    PageCompaction(PageTable pages) {
        this.pages = pages;
    }

    /** Pages compacted so far (writer's view). */
    long compactedPages() {
        return compactedPages;
    }

    /** One compaction step of the pages {@code slots} point into, if due. */
    void stepIfDue(long[] slots) {
        long garbage = pages.garbage();
        if (garbage <= 2L * PageTable.PAGE_SIZE || garbage * 4 <= pages.totalFill()) {
            return;
        }
        Page victim = emptiestSealedPage();
        if (victim != null) {
            compact(victim, slots);
        }
    }

    private Page emptiestSealedPage() {
        Page[] table = pages.table();
        Page open = pages.open();
        Page victim = null;
        double best = 1;
        for (int i = 0; i < pages.pageCount(); i++) {
            Page p = table[i];
            if (p != null && p != open && p.fill > 0) {
                double liveShare = (double) p.live / p.fill;
                if (liveShare < best) {
                    best = liveShare;
                    victim = p;
                }
            }
        }
        return victim;
    }

    /** Moves the live records of {@code victim} to the open page, then drops it. Stops quietly if over budget. */
    private void compact(Page victim, long[] slots) {
        byte[] d = victim.data;
        int off = 0;
        while (off < victim.fill && victim.live > 0) {
            int kl = RecordLayout.varint(d, off);
            int at = off + RecordLayout.varintLength(kl);
            int vl = RecordLayout.varint(d, at);
            int keyOff = at + RecordLayout.varintLength(vl);
            int recordSize = keyOff - off + kl + vl;
            long h = KeyHash.hash(d, keyOff, kl);
            int tag = SlotAddress.tag(h);
            long mine = SlotAddress.address(tag, victim.gen, victim.number, off);
            int pos = SlotIndex.find(slots, h, mine);
            if (pos >= 0) {
                long moved;
                try {
                    moved = pages.appendCopy(d, off, recordSize, tag);
                } catch (MemoryBudgetExceededException e) {
                    return; // no room to move into: the next write reports the budget
                }
                SlotIndex.publish(slots, pos, moved);
                pages.movedOut(victim, recordSize);
            }
            off += recordSize;
        }
        if (victim.live != 0) {
            throw new IllegalStateException("compaction found " + victim.live + " live bytes in page "
                    + victim.number + " that no slot points to");
        }
        compactedPages++;
        pages.free(victim);
    }
}
