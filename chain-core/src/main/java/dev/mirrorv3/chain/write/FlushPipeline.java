package dev.mirrorv3.chain.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs chain commits (encoding, tail check, store commit) on a small pool so that the task thread only converts and
 * buffers (docs/blob-sink.md, "Pipelined flush"). A chain is written in order: at most two commits per key (a
 * partition) are in flight, the second cut behind the first while it runs ({@link ChainWriter#cutBehind}): it encodes
 * while the first uploads and is created only after the first is durable. Commits of different keys run in parallel.
 * A finished commit, success or failure, is reported to the owner's thread by {@link #finished()}, a key's in the
 * chain's order; a key whose commit failed takes no new commit until that failure was taken, so the owner learns of it
 * (and follows its retry or fail protocol) before the frozen commit is re-issued. A second commit abandoned because the
 * one before it failed is reported as {@link Finished#abandoned()}, for the owner to ignore: the failure is taken once.
 * With 0 threads every commit runs on the thread that starts it, as a synchronous flush does (never two per key).
 *
 * <p>No deadlock: the pool takes its tasks first in, first out, and a key's second commit is submitted only after its
 * first was; so the first is taken off the queue before the second, and when a thread runs the second (which waits for
 * the first), the first is already running on another thread or done. A waiting second never holds the thread its
 * first needs, whatever the pool's size (one thread included), and a first commit waits for nothing.
 *
 * <p>One owner thread calls {@link #start}, {@link #finished()} and the waits; the pool threads only run commits.
 *
 * @param <K> what identifies a chain (a topic partition)
 */
public final class FlushPipeline<K> implements AutoCloseable {

    /**
     * A commit that finished: its result, or the failure that left its records buffered, or (abandoned) a second commit
     * given up because the one before it failed: nothing of it was written, its records stay buffered.
     */
    public record Finished<K>(K key, FlushResult result, RuntimeException failure, boolean abandoned) {
        public boolean failed() {
            return failure != null;
        }
    }

    /** A commit in flight and, once it finished, its outcome (held until the commit before it of the same key is reported). */
    private static final class InFlight<K> {
        final ChainCommit commit;
        Finished<K> outcome;

        InFlight(ChainCommit commit) {
            this.commit = commit;
        }
    }

    private final ExecutorService pool;
    /** Guards everything below; pool threads signal on it when a commit finishes. */
    private final Object lock = new Object();
    /** Per key with commits in flight: at most two, in the chain's order. */
    private final Map<K, List<InFlight<K>>> running = new HashMap<>();
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
                new LinkedBlockingQueue<>(), namedDaemons(threadName)); // first in, first out: see the class comment
    }

    /**
     * Starts the key's next commit, cut now from {@code writer}: with none in flight, its next object; with one running,
     * a second behind it if the writer holds a full object after it ({@link ChainWriter#cutBehind}); none with two, or
     * while a failure of the key is not taken.
     *
     * @return true if a commit was started (with 0 threads: it has finished, see {@link #finished()})
     */
    public boolean start(K key, ChainWriter writer, FlushTrigger trigger) {
        Optional<ChainCommit> behind = startsBehind(key);
        if (behind == null) {
            return false;
        }
        ChainCommit commit = (behind.isEmpty() ? writer.cut(trigger) : writer.cutBehind(behind.get(), trigger)).orElse(null);
        if (commit == null) {
            return false;
        }
        InFlight<K> entry = new InFlight<>(commit);
        synchronized (lock) {
            running.computeIfAbsent(key, k -> new ArrayList<>(2)).add(entry);
            runningBytes += commit.payloadBytes();
        }
        Runnable run = () -> {
            FlushResult result = null;
            RuntimeException failure = null;
            boolean abandoned = false;
            try {
                result = commit.run();
            } catch (CommitAbandonedException e) {
                abandoned = true;
            } catch (RuntimeException e) {
                failure = e;
            } catch (Error e) {
                failure = new IllegalStateException("the commit of " + commit.name() + " failed: " + e, e);
            }
            done(key, entry, new Finished<>(key, result, failure, abandoned));
        };
        if (pool == null) {
            run.run();
        } else {
            pool.execute(run);
        }
        return true;
    }

    /**
     * Whether {@link #start} would start a commit of the key now, so that the owner checks what it is about to commit
     * (e.g. the records' topic) only then.
     */
    public boolean canStart(K key, ChainWriter writer) {
        Optional<ChainCommit> behind = startsBehind(key);
        return behind != null && (behind.isEmpty() ? writer.bufferedRecords() > 0 : writer.canCutBehind(behind.get()));
    }

    /** The commit a new one of the key would be cut behind (empty: none in flight); null if none may start now. */
    private Optional<ChainCommit> startsBehind(K key) {
        synchronized (lock) {
            List<InFlight<K>> keys = running.get(key);
            if (failedUntaken.containsKey(key) || (keys != null && keys.size() > 1)) {
                return null;
            }
            return keys == null ? Optional.empty() : Optional.of(keys.get(0).commit);
        }
    }

    /** Reports the key's finished commits in the chain's order: a second that finished first waits for the first's report. */
    private void done(K key, InFlight<K> entry, Finished<K> outcome) {
        synchronized (lock) {
            entry.outcome = outcome;
            List<InFlight<K>> keys = running.get(key);
            while (!keys.isEmpty() && keys.get(0).outcome != null) {
                InFlight<K> reported = keys.remove(0);
                runningBytes -= reported.commit.payloadBytes();
                if (reported.outcome.failed()) {
                    failedUntaken.put(key, Boolean.TRUE);
                }
                finished.add(reported.outcome);
            }
            if (keys.isEmpty()) {
                running.remove(key);
            }
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

    /** Whether a commit of the key is in flight (one or two). */
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

    /** Payload bytes of the commits in flight now (a key's two included): what their success will take off the buffers. */
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

    /** Waits until no commit of {@code key} runs, neither of two (their results stay to be taken); true if none runs. */
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
