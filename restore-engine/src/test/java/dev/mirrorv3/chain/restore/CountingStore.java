package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.testkit.DelegatingStore;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The tests' store, counting object reads (from any thread): {@code failReads} makes the next reads fail as an unreachable
 * store does, {@link #failOnce} fails the next read of one object, and {@link #holdReadsOf} holds the reads of one object
 * until released; {@link #maxConcurrentReads} tells how many reads ran at once. What is beside the chains (manifests) is
 * read from the store it wraps, uncounted; {@link #maxConcurrentBesideReads} tells how many of those ran at once.
 */
final class CountingStore extends DelegatingStore {
    private final Set<String> failOnce = ConcurrentHashMap.newKeySet();
    volatile int reads;
    volatile int failReads;
    private int concurrent;
    private int maxConcurrent;
    private volatile CountDownLatch hold = new CountDownLatch(0);
    private volatile String held;
    private volatile CountDownLatch besideReadsMeet = new CountDownLatch(0);
    private int concurrentBeside;
    private int maxConcurrentBeside;

    CountingStore(Store store) {
        super(store, true); // a snapshot's whole-object read is an object read too
    }

    /** The next read of object {@code name} fails as an unreachable store does. */
    void failOnce(String name) {
        failOnce.add(name);
    }

    /** Every read of object {@code name} waits until {@link #releaseReads}. */
    void holdReadsOf(String name) {
        hold = new CountDownLatch(1);
        held = name;
    }

    void releaseReads() {
        hold.countDown();
    }

    synchronized int maxConcurrentReads() {
        return maxConcurrent;
    }

    @Override
    public byte[] read(int partition, String name) {
        synchronized (this) {
            if (failReads > 0 || failOnce.remove(name)) {
                failReads = Math.max(0, failReads - 1);
                throw new TransientStoreException("read " + name + ": injected outage", null);
            }
            reads++;
            maxConcurrent = Math.max(maxConcurrent, ++concurrent);
        }
        try {
            if (name.equals(held) && !hold.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("reads held for 30 s: the test never released them");
            }
            return delegate().read(partition, name);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            synchronized (this) {
                concurrent--;
            }
        }
    }

    @Override
    public byte[] readBeside(String dir, String name) {
        synchronized (this) {
            maxConcurrentBeside = Math.max(maxConcurrentBeside, ++concurrentBeside);
        }
        try {
            CountDownLatch meet = besideReadsMeet;
            meet.countDown();
            meet.await(5, TimeUnit.SECONDS); // read one after the other, the first waits in vain
            return delegate().readBeside(dir, name);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransientStoreException("read " + name + ": interrupted", e);
        } finally {
            synchronized (this) {
                concurrentBeside--;
            }
        }
    }

    /** The next reads beside the chains (manifests) each wait, up to 5 s, until {@code reads} of them are under way. */
    void besideReadsMeet(int reads) {
        besideReadsMeet = new CountDownLatch(reads);
    }

    synchronized int maxConcurrentBesideReads() {
        return maxConcurrentBeside;
    }

}
