package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.FutureReads;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Reads a partition's objects ahead of the thread that takes them, in their order: up to {@code depth} reads run (or
 * wait to be taken) at once on threads of its own, so decoding the next objects overlaps with checking or sending this
 * one, and memory holds at most {@code depth} + 1 objects. A read's failure is thrown by {@link #next} when its object's
 * turn comes, never earlier: an object after the point where the taker stops (a cut, a failure) fails nothing. Depth 0
 * reads each object in {@link #next}, on the caller's thread. Close it to cancel what is left. Not thread-safe: one
 * taker.
 *
 * @param <I> what names an object (its name, or what the verify pass learnt of it)
 * @param <T> an object as read
 */
public final class ReadAhead<I, T> implements AutoCloseable {
    private static final AtomicInteger POOLS = new AtomicInteger();

    private final Iterator<I> items;
    private final Function<I, T> read;
    private final int depth;
    private final ExecutorService pool;
    private final Deque<Future<T>> ahead = new ArrayDeque<>();

    /**
     * @param depth how many objects may be read ahead of the one taken (0: none)
     * @param name names the reading threads (with the partition, for a thread dump)
     */
    public ReadAhead(List<I> items, Function<I, T> read, int depth, String name) {
        if (depth < 0) {
            throw new IllegalArgumentException("read-ahead depth " + depth + " < 0");
        }
        this.items = items.iterator();
        this.read = read;
        this.depth = depth;
        int pool = POOLS.incrementAndGet();
        this.pool = depth == 0 ? null : Executors.newFixedThreadPool(depth, r -> {
            Thread t = new Thread(r, name + "-read-" + pool);
            t.setDaemon(true);
            return t;
        });
    }

    public boolean hasNext() {
        return !ahead.isEmpty() || items.hasNext();
    }

    /**
     * The next object, read ahead or now; the reads after it start before this returns.
     *
     * @throws java.util.NoSuchElementException when every object was taken
     * @throws RuntimeException what the object's read threw
     */
    public T next() {
        if (pool == null) {
            return read.apply(items.next());
        }
        fill();
        Future<T> head = ahead.remove();
        fill();
        return take(head);
    }

    private void fill() {
        while (ahead.size() < depth && items.hasNext()) {
            I item = items.next();
            ahead.add(pool.submit(() -> read.apply(item)));
        }
    }

    /** A read's object, or its failure as thrown by the read. */
    static <T> T take(Future<T> f) {
        return FutureReads.take(f, "an object read ahead");
    }

    /** Cancels the reads not taken; a read in progress finishes on its thread and is dropped. */
    @Override
    public void close() {
        if (pool != null) {
            ahead.forEach(f -> f.cancel(true));
            ahead.clear();
            pool.shutdownNow();
        }
    }
}
