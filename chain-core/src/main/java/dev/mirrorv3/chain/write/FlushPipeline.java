package dev.mirrorv3.chain.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs chain commits (encoding, tail check, store commit) on a small pool so that the task thread only converts and
 * buffers (docs/blob-sink.md, "Pipelined flush"). At most one commit per key (a partition) runs at a time, since a chain
 * is written in order; commits of different keys run in parallel. A finished commit, success or failure, is reported
 * to the owner's thread by {@link #finished()}; a key whose commit failed takes no new commit until that failure was
 * taken, so the owner learns of it (and follows its retry or fail protocol) before the frozen commit is re-issued.
 * With 0 threads every commit runs on the thread that starts it, as a synchronous flush does.
 *
 * <p>One owner thread calls {@link #start}, {@link #finished()} and the waits; the pool threads only run commits.
 *
 * @param <K> what identifies a chain (a topic partition)
 */
public final class FlushPipeline<K> implements AutoCloseable {

    /** A commit that finished: its result, or the failure that left its records buffered. */
    public record Finished<K>(K key, FlushResult result, RuntimeException failure) {
        public boolean failed() {
            return failure != null;
        }
    }

    private final ExecutorService pool;
    /** Guards everything below; pool threads signal on it when a commit finishes. */
    private final Object lock = new Object();
    /** Keys with a commit running, and the payload bytes each holds. */
    private final Map<K, Long> running = new HashMap<>();
    /** Keys whose failure is not taken yet: no new commit for them. */
    private final Map<K, Boolean> failedUntaken = new HashMap<>();
    private final List<Finished<K>> finished = new ArrayList<>();
    private long runningBytes;

    /**
     * @param threads pool size; 0 runs each commit on the calling thread
     * @param threadName prefix of the pool's thread names (they show in thread dumps)
     */
    public FlushPipeline(int threads, String threadName) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be at least 0: " + threads);
        }
        this.pool = threads == 0 ? null : new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), namedDaemons(threadName));
    }

    /**
     * Starts the key's next commit, cut now from {@code writer}, unless one is running or its failure is not taken yet.
     *
     * @return true if a commit was started (with 0 threads: it has finished, see {@link #finished()})
     */
    public boolean start(K key, ChainWriter writer, FlushTrigger trigger) {
        synchronized (lock) {
            if (running.containsKey(key) || failedUntaken.containsKey(key)) {
                return false;
            }
        }
        ChainWriter.Commit commit = writer.cut(trigger).orElse(null);
        if (commit == null) {
            return false;
        }
        synchronized (lock) {
            running.put(key, commit.payloadBytes());
            runningBytes += commit.payloadBytes();
        }
        Runnable run = () -> {
            FlushResult result = null;
            RuntimeException failure = null;
            try {
                result = commit.run();
            } catch (RuntimeException e) {
                failure = e;
            } catch (Error e) {
                failure = new IllegalStateException("the commit of " + commit.name() + " failed: " + e, e);
            }
            done(key, result, failure);
        };
        if (pool == null) {
            run.run();
        } else {
            pool.execute(run);
        }
        return true;
    }

    private void done(K key, FlushResult result, RuntimeException failure) {
        synchronized (lock) {
            runningBytes -= running.remove(key);
            if (failure != null) {
                failedUntaken.put(key, Boolean.TRUE);
            }
            finished.add(new Finished<>(key, result, failure));
            lock.notifyAll();
        }
    }

    /** Takes the commits finished since the last call, in the order they finished; their keys may start again. */
    public List<Finished<K>> finished() {
        synchronized (lock) {
            List<Finished<K>> taken = List.copyOf(finished);
            finished.clear();
            taken.forEach(f -> failedUntaken.remove(f.key()));
            return taken;
        }
    }

    public boolean running(K key) {
        synchronized (lock) {
            return running.containsKey(key);
        }
    }

    /** Whether a commit is running, or finished and not taken yet. */
    public boolean busy() {
        synchronized (lock) {
            return !running.isEmpty() || !finished.isEmpty();
        }
    }

    /** Payload bytes of the commits running now: what their success will take off the buffers. */
    public long runningBytes() {
        synchronized (lock) {
            return runningBytes;
        }
    }

    /**
     * Waits until a commit finishes that is not taken yet, or {@code timeoutMs} pass; never spins.
     *
     * @return true if a finished commit is waiting to be taken
     */
    public boolean awaitFinished(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (lock) {
            while (finished.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || running.isEmpty()) {
                    return !finished.isEmpty();
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
            return true;
        }
    }

    /** Waits until no commit of {@code key} runs (its result stays to be taken); true if none runs. */
    public boolean awaitIdle(K key, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (lock) {
            while (running.containsKey(key)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
            return true;
        }
    }

    /**
     * Stops the pool: commits running now may finish within {@code timeoutMs}, then the pool's threads are interrupted.
     * What did not finish is not durable as far as anyone was told; the chain stays the truth.
     */
    public void close(long timeoutMs) {
        if (pool == null) {
            return;
        }
        pool.shutdown();
        try {
            if (!pool.awaitTermination(timeoutMs, TimeUnit.MILLISECONDS)) {
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(0);
    }

    private static ThreadFactory namedDaemons(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t; // the creating (task) thread's context class loader: the plugin's, for Parquet's codecs
        };
    }
}
