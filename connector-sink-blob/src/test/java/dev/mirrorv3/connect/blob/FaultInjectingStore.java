package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.TemporaryFiles;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.testkit.DelegatingStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Delegates to a real store, failing or blocking as {@link Faults} says. Whole-object calls (a snapshot's commit from
 * a file) go through {@link #create} and {@link #read}, so that their faults land on them too.
 */
final class FaultInjectingStore extends DelegatingStore {
    private final Faults faults;

    FaultInjectingStore(Store delegate, Faults faults) {
        super(delegate, true);
        this.faults = faults;
    }

    @Override
    public List<String> list(int partition) {
        failIfArmed(takeOne(faults.failNextLists), "list");
        List<String> names = delegate().list(partition);
        String held = faults.listHeldCreates ? faults.heldCreates.get(partition) : null;
        if (held == null) {
            return names;
        }
        // what S3Proxy's filesystem backend lists while an upload is in progress: the key and a suffix
        List<String> withUpload = new java.util.ArrayList<>(names);
        withUpload.add(held + "-16aa5299-6c08-403d-9ba8-91340ed7764a");
        withUpload.sort(null);
        return withUpload;
    }

    @Override
    public List<String> listFrom(int partition, String startAt, int max) {
        failIfArmed(takeOne(faults.failNextLists), "list");
        return delegate().listFrom(partition, startAt, max);
    }

    /**
     * Counts an attempt to commit an object of {@code partition} (a create or a recommit: both are commits to the
     * faults), and fails it while the test fails that partition's commits.
     */
    private void countCommitAttempt(int partition, String attempt) {
        faults.creates.incrementAndGet();
        faults.createsOf.computeIfAbsent(partition, p -> new AtomicInteger()).incrementAndGet();
        faults.createThreads.add(Thread.currentThread().getName());
        failIfArmed(faults.failCreatesOf.getOrDefault(partition, false), attempt + " of partition " + partition);
    }

    @Override
    public void create(int partition, String name, byte[] data) {
        countCommitAttempt(partition, "create " + name);
        CountDownLatch hold = faults.holdNextCreateOf.remove(partition);
        if (hold != null) {
            faults.heldCreates.put(partition, name);
            awaitIgnoringInterrupts(hold); // as a thread stuck in I/O, see below
            faults.heldCreates.remove(partition);
            try {
                failIfArmed(faults.failHeldCreateOf.remove(partition), "create " + name + " of partition " + partition);
                delegate().create(partition, name, data);
                faults.heldCreateOutcomes.put(partition, "ok");
            } catch (RuntimeException e) {
                faults.heldCreateOutcomes.put(partition, String.valueOf(e.getMessage()));
                throw e;
            }
            return;
        }
        failIfArmed(takeOne(faults.failNextCreates), "create " + name);
        CountDownLatch block = faults.blockNextCreate.getAndSet(null);
        if (block != null) {
            faults.blocked.countDown();
            // A thread stuck in uninterruptible I/O (a hung NFS write, say) neither returns nor sees the worker's
            // interrupt: wait for the test's release only, then commit as if nothing happened.
            while (block.getCount() > 0) {
                try {
                    block.await();
                } catch (InterruptedException e) {
                    // swallowed on purpose, see above
                }
            }
            try {
                delegate().create(partition, name, data);
                faults.blockedCreateOutcome.set(null);
            } catch (RuntimeException e) {
                faults.blockedCreateOutcome.set(e.getMessage());
                throw e;
            } finally {
                faults.blockedCreateDone.countDown();
            }
            return;
        }
        delegate().create(partition, name, data);
        failIfArmed(takeOne(faults.failNextCreatesAfterCommit), "learn the outcome of create " + name);
    }

    @Override
    public void recommit(int partition, String name, byte[] data) {
        countCommitAttempt(partition, "recommit " + name);
        failIfArmed(takeOne(faults.failNextCreates), "recommit " + name);
        delegate().recommit(partition, name, data);
        failIfArmed(takeOne(faults.failNextCreatesAfterCommit), "learn the outcome of recommit " + name);
    }

    // Metadata snapshots and manifests pass through, but for a killed metadata snapshot write (killNextSnapshotWrite).
    @Override
    public void recommitBeside(String dir, String name, byte[] data) {
        failIfArmed(dir.startsWith("_manifest") && faults.failManifestCreates.get(), "create manifest " + name);
        delegate().recommitBeside(dir, name, data);
    }

    @Override
    public void createBeside(String dir, String name, byte[] data) {
        failIfArmed(dir.startsWith("_manifest") && faults.failManifestCreates.get(), "create manifest " + name);
        CountDownLatch kill = dir.startsWith("_meta") ? faults.killNextSnapshotWrite.getAndSet(null) : null;
        if (kill != null) {
            // A filesystem commit writes a temporary file, then links it: a writer that dies before the link leaves this.
            Path temp = Path.of(delegate().besideLocation(dir)).resolve(TemporaryFiles.temporaryNameFor(name));
            try {
                Files.createDirectories(temp.getParent());
                Files.write(temp, Arrays.copyOf(data, data.length / 2));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            faults.snapshotWriteKilled.countDown();
            while (kill.getCount() > 0) {
                try {
                    kill.await();
                } catch (InterruptedException e) {
                    // swallowed on purpose: a thread stuck in I/O does not see the worker's interrupt
                }
            }
            throw new TransientStoreException("injected fault: the writer of " + name + " was lost", new IOException("injected"));
        }
        Runnable overtaken = faults.beforeNextSnapshotWrite.getAndSet(null);
        if (overtaken != null) {
            overtaken.run();
        }
        delegate().createBeside(dir, name, data);
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        while (latch.getCount() > 0) {
            try {
                latch.await();
            } catch (InterruptedException e) {
                // swallowed on purpose: a thread stuck in I/O does not see the worker's interrupt
            }
        }
    }

    /** Uses up one of the {@code remaining} armed failures: true when one was left. */
    private static boolean takeOne(AtomicInteger remaining) {
        return remaining.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    private static void failIfArmed(boolean armed, String what) {
        if (armed) {
            throw new TransientStoreException("injected fault: cannot " + what, new IOException("injected"));
        }
    }
}
