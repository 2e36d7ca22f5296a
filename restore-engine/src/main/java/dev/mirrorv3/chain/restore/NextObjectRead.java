package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.read.CheckedObject;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The one object a {@link Follower} reads ahead of its turn, while the records of the object before it are being sent:
 * read and checked against its name on a thread of a pool shared by the followers of the process (idle threads end), and
 * taken in its turn, when the follower hands it out. A read ahead that failed throws in its turn and is not kept, so the
 * turn can be tried again; one the follower no longer wants (it was placed again) is dropped. Holds at most one object,
 * and only with a permit of {@code permits}, which the followers of one task share: a task holds at most as many
 * objects read ahead as the permits, however many partitions it follows. Not thread-safe: the follower's thread.
 */
final class NextObjectRead {
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "mirror-v3-follow-read-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    private final Semaphore permits;
    private ObjectName name;
    private Future<CheckedObject> read;

    NextObjectRead(Semaphore permits) {
        this.permits = permits;
    }

    /** Starts reading {@code next} (dropping any other read ahead) if a permit is free. */
    void start(ObjectName next, Function<ObjectName, CheckedObject> fetch) {
        drop();
        if (!permits.tryAcquire()) {
            return;
        }
        name = next;
        read = POOL.submit(() -> fetch.apply(next));
    }

    /**
     * The object {@code wanted}: the one read ahead, waited for, or read now when another (or none) was read ahead.
     *
     * @throws RuntimeException what its read threw
     */
    CheckedObject take(ObjectName wanted, Function<ObjectName, CheckedObject> fetch) {
        if (read == null || !wanted.equals(name)) {
            drop();
            return fetch.apply(wanted);
        }
        Future<CheckedObject> f = read;
        forget();
        return ReadAhead.take(f);
    }

    /** Drops the object read ahead, if any. */
    void drop() {
        if (read != null) {
            read.cancel(true);
            forget();
        }
    }

    private void forget() {
        read = null;
        name = null;
        permits.release();
    }
}
