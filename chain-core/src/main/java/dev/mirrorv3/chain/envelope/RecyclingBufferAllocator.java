package dev.mirrorv3.chain.envelope;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * Parquet's buffers of one encoder (page slabs, the column chunks' collected pages, dictionaries): a buffer Parquet
 * releases is given out again for a later request of its size class (eight classes per power of two), so that a writer's pages and the
 * next objects reuse the same heap arrays instead of allocating (and zeroing) new ones. A buffer is given out as
 * {@code ByteBuffer.allocate(size)} would be: position 0, limit {@code size}; its bytes past what Parquet writes are stale,
 * and Parquet reads only what it wrote. Only buffers given out and not yet released are taken back (a second release of
 * one is ignored), and {@link #forgetLent()} drops those a writer never released. Not thread-safe: one encoder at a
 * time ({@link EncodeMemory}).
 */
final class RecyclingBufferAllocator implements ByteBufferAllocator {
    private static final int MIN_CLASS = 4 * 1024;

    private final long maxKeptBytes;
    private final Map<Integer, ArrayDeque<ByteBuffer>> free = new HashMap<>();
    private final Set<ByteBuffer> lent = Collections.newSetFromMap(new IdentityHashMap<>());
    private long keptBytes;

    /** @param maxKeptBytes at most this many bytes of released buffers are kept for reuse; beyond, they are dropped */
    RecyclingBufferAllocator(long maxKeptBytes) {
        this.maxKeptBytes = maxKeptBytes;
    }

    @Override
    public ByteBuffer allocate(int size) {
        int sizeClass = sizeClass(size);
        ArrayDeque<ByteBuffer> kept = sizeClass < 0 ? null : free.get(sizeClass);
        ByteBuffer buf;
        if (kept != null && !kept.isEmpty()) {
            buf = kept.pop();
            keptBytes -= buf.capacity();
            buf.clear().limit(size);
        } else {
            buf = ByteBuffer.allocate(sizeClass < 0 ? size : sizeClass).limit(size);
        }
        lent.add(buf);
        return buf;
    }

    @Override
    public void release(ByteBuffer b) {
        if (!lent.remove(b)) {
            return; // not ours, or released before
        }
        if (keptBytes + b.capacity() <= maxKeptBytes && sizeClass(b.capacity()) == b.capacity()) {
            free.computeIfAbsent(b.capacity(), c -> new ArrayDeque<>()).push(b);
            keptBytes += b.capacity();
        }
    }

    @Override
    public boolean isDirect() {
        return false;
    }

    /** Drops the buffers given out and never released (a writer that failed half-way): they are never reused. */
    void forgetLent() {
        lent.clear();
    }

    /** Bytes of released buffers kept for reuse. */
    long keptBytes() {
        return keptBytes;
    }

    /**
     * {@code size} rounded up to an eighth of its power of two (at least 4 KiB): a page's collected bytes of a little over
     * 1 MiB take 1.125 MiB, not 2; -1 above 1 GiB (allocated exactly, never kept).
     */
    static int sizeClass(int size) {
        if (size > (1 << 30)) {
            return -1;
        }
        if (size <= MIN_CLASS) {
            return MIN_CLASS;
        }
        int step = Math.max(MIN_CLASS / 8, Integer.highestOneBit(size) / 8);
        return (size + step - 1) / step * step;
    }
}
