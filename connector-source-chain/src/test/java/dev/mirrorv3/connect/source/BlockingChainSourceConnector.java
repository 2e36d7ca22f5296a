package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.testkit.DelegatingStore;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.connector.Task;

/**
 * The chain source whose store can block one object read (a worker that hangs in I/O): the task outlives its worker's
 * graceful stop and lives on as a zombie until released. The hang ignores interrupts, as a thread stuck in I/O does
 * (Connect interrupts a task that does not stop in time): otherwise the "zombie" would return at once, before its
 * replacement runs, and test nothing. A read may run ahead on a thread of its own while the task's thread waits for it: the
 * hang names the task's thread either way. Loaded by the embedded worker through META-INF/services.
 */
public class BlockingChainSourceConnector extends ChainSourceConnector {
    private static final AtomicReference<Hang> NEXT = new AtomicReference<>();

    /** Arms a hang: the next object read blocks until {@link Hang#release()}. */
    static Hang hangNextRead() {
        return hangReadOf(null);
    }

    /** Arms a hang: the next read of the object {@code name} (any object if null) blocks until {@link Hang#release()}. */
    static Hang hangReadOf(String name) {
        Hang hang = new Hang(name);
        NEXT.set(hang);
        return hang;
    }

    /** One armed hang and what became of the thread that ran into it. */
    static final class Hang {
        private final String name;
        private final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch blocked = new CountDownLatch(1);
        final CountDownLatch returned = new CountDownLatch(1);
        private volatile Thread thread;

        private Hang(String name) {
            this.name = name;
        }

        private boolean hangs(String read) {
            return name == null || name.equals(read);
        }

        void release() {
            release.countDown();
        }

        /** The hung task's thread has ended: whatever it was going to send has been sent or dropped. */
        boolean threadEnded() {
            Thread t = thread;
            return t != null && !t.isAlive();
        }

        /** @param task the task's thread: the one reading, or the one waiting for the object read ahead on another */
        private void hang(Thread task) {
            thread = task;
            blocked.countDown();
            boolean interrupted = false;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (release.getCount() > 0 && System.nanoTime() < deadline) {
                try {
                    release.await(100, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    interrupted = true; // stuck in I/O: an interrupt does not wake it
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public Class<? extends Task> taskClass() {
        return BlockingTask.class;
    }

    public static class BlockingTask extends ChainSourceTask {
        /** Every listing that leaves the follower behind reads the newest object ahead: tests see the lag at once. */
        @Override
        protected long lagReadAheadIntervalMs() {
            return 0;
        }

        @Override
        protected Store openStore(ChainSourceConfig config) {
            Store store = super.openStore(config);
            Thread task = Thread.currentThread(); // start() runs on the task's thread
            return new DelegatingStore(store, true) { // a snapshot's whole-object read hangs as any read does
                @Override
                public byte[] read(int partition, String name) {
                    Hang hang = NEXT.get();
                    if (hang != null && hang.hangs(name) && NEXT.compareAndSet(hang, null)) {
                        hang.hang(task);
                        byte[] bytes = store.read(partition, name);
                        hang.returned.countDown();
                        return bytes;
                    }
                    return store.read(partition, name);
                }
            };
        }
    }
}
