package dev.mirrorv3.connect.blob;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** Faults a test arms for one destination name; read by {@link FaultInjectingStore} inside the worker. */
public final class Faults {
    private static final Map<String, Faults> BY_DESTINATION = new ConcurrentHashMap<>();

    /** The next this-many creates fail with a transient error. */
    public final AtomicInteger failNextCreates = new AtomicInteger();
    /**
     * The next this-many creates commit and then fail with a transient error, as a filesystem commit whose directory
     * fsync fails after the link, or an S3 PutObject whose reply is lost, does.
     */
    public final AtomicInteger failNextCreatesAfterCommit = new AtomicInteger();
    /** The next this-many lists fail with a transient error. */
    public final AtomicInteger failNextLists = new AtomicInteger();
    /** When set, the next create blocks before its commit until the latch opens (a zombie in the making). */
    public final AtomicReference<CountDownLatch> blockNextCreate = new AtomicReference<>();
    /** Counts down when a create has blocked. */
    public final CountDownLatch blocked = new CountDownLatch(1);
    /** The outcome of the blocked create once released: null for success, else the exception's message. */
    public final AtomicReference<String> blockedCreateOutcome = new AtomicReference<>();
    public final CountDownLatch blockedCreateDone = new CountDownLatch(1);
    public final AtomicInteger creates = new AtomicInteger();
    /**
     * When set, the next metadata snapshot write leaves what a writer killed before its commit leaves (half a temporary
     * file, no snapshot) and hangs until the latch opens; then it fails without committing: that writer is gone.
     */
    public final AtomicReference<CountDownLatch> killNextSnapshotWrite = new AtomicReference<>();
    /** Every manifest's create fails as a transient failure would (a chain written before manifests, a crash before one). */
    public final java.util.concurrent.atomic.AtomicBoolean failManifestCreates = new java.util.concurrent.atomic.AtomicBoolean();
    /** Counts down when a snapshot write has been killed. */
    public final CountDownLatch snapshotWriteKilled = new CountDownLatch(1);
    /**
     * When set, runs once before the next metadata snapshot write lands: a slow commit that another writer of the same
     * destination overtakes (its writer read the store before, and commits after).
     */
    public final AtomicReference<Runnable> beforeNextSnapshotWrite = new AtomicReference<>();

    /**
     * Per partition: its next create waits, before its commit, until the latch opens (a slow or hung write of one
     * partition while the others go on); one-shot, so a task that takes the partition over is not held.
     */
    public final Map<Integer, CountDownLatch> holdNextCreateOf = new ConcurrentHashMap<>();
    /**
     * When true, a partition's listing holds its held create as a store that lists an upload in progress does
     * (S3Proxy's filesystem backend: {@code <name>-<uuid>}); real S3 never does.
     */
    public volatile boolean listHeldCreates;
    /** Partitions whose held create fails with a transient error once released, without committing. */
    public final Set<Integer> failHeldCreateOf = ConcurrentHashMap.newKeySet();
    /** Partitions whose create waits at its hold now, with the object's name. */
    public final Map<Integer, String> heldCreates = new ConcurrentHashMap<>();
    /** The outcomes of the held creates once released, per partition: "ok" or the exception's message. */
    public final Map<Integer, String> heldCreateOutcomes = new ConcurrentHashMap<>();
    /** Per partition: while true, its creates fail with a transient error. */
    public final Map<Integer, Boolean> failCreatesOf = new ConcurrentHashMap<>();
    /** The names of the threads that ran creates and recommits. */
    public final Set<String> createThreads = ConcurrentHashMap.newKeySet();
    /** Per partition: creates attempted. */
    public final Map<Integer, AtomicInteger> createsOf = new ConcurrentHashMap<>();
    /** The partitions of each close() of the task, when it started, and again when it returned. */
    public final BlockingQueue<Set<Integer>> closeStarted = new LinkedBlockingQueue<>();
    public final BlockingQueue<Set<Integer>> closeEnded = new LinkedBlockingQueue<>();

    /** When set, the task's next put() waits until the latch opens before it takes its records (a slow put()). */
    public final AtomicReference<CountDownLatch> holdNextPut = new AtomicReference<>();
    /** Counts down when a put() is held. */
    public final CountDownLatch putHeld = new CountDownLatch(1);

    public static Faults forDestination(String name) {
        return BY_DESTINATION.computeIfAbsent(name, n -> new Faults());
    }
}
