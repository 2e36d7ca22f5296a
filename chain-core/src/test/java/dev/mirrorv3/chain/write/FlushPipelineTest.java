package dev.mirrorv3.chain.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.testkit.DelegatingStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlushPipelineTest {
    private static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();
    private static final FlushPolicy POLICY = new FlushPolicy(1000, 1_000_000, 60_000);
    private static final FlushPolicy THREE_RECORDS = new FlushPolicy(3, 1_000_000, 60_000);

    @TempDir
    Path root;

    private GatedStore store;
    private FlushPipeline<Integer> pipeline;
    private Gate firstHeld;

    @AfterEach
    void closePool() {
        store.gates.values().forEach(g -> g.release.countDown());
        pipeline.close(5_000);
    }

    private static BackupRecord record(int partition, long offset) {
        return new BackupRecord("t", partition, offset, 1000L + offset, TimestampType.CREATE_TIME, null, new byte[100], List.of());
    }

    private ChainWriter writer(int partition) {
        return writer(partition, POLICY);
    }

    private ChainWriter writer(int partition, FlushPolicy policy) {
        ChainHead head = new ChainReader(store, SETTINGS).head(partition);
        return new ChainWriter(store, partition, EnvelopeCodecs.forSettings(SETTINGS), policy, Clock.systemUTC(), head, 0);
    }

    private static void appendRange(ChainWriter w, long from, long to) {
        for (long o = from; o <= to; o++) {
            w.append(record(0, o));
        }
    }

    private void setUp(int threads) {
        store = new GatedStore(new FilesystemStore(root, "m"));
        pipeline = new FlushPipeline<>(threads, "test-flush");
    }

    private static String name(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET).fileName();
    }

    /**
     * With a pipeline of {@code threads}: partition 0's writer given offsets 0 to {@code last}, its first commit started
     * by {@code trigger} and held at {@link #firstHeld}.
     */
    private ChainWriter firstCommitHeld(int threads, FlushPolicy policy, long last, FlushTrigger trigger) throws InterruptedException {
        setUp(threads);
        firstHeld = store.gate(0);
        ChainWriter w = writer(0, policy);
        appendRange(w, 0, last);
        assertThat(pipeline.start(0, w, trigger)).isTrue();
        assertThat(firstHeld.entered.await(10, TimeUnit.SECONDS)).isTrue();
        return w;
    }

    /**
     * With a pipeline of {@code threads}: partition 0's writer of three-record objects given offsets 0-5, its first commit
     * (0-2) started and held at {@link #firstHeld}, its second (3-5) started behind it.
     */
    private ChainWriter twoCommitsFirstHeld(int threads) throws InterruptedException {
        ChainWriter w = firstCommitHeld(threads, THREE_RECORDS, 5, FlushTrigger.RECORDS);
        assertThat(pipeline.start(0, w, FlushTrigger.RECORDS)).as("a second commit while the first runs").isTrue();
        return w;
    }

    private List<FlushPipeline.Finished<Integer>> awaitFinished() throws InterruptedException {
        assertThat(pipeline.awaitFinished(10_000)).as("a commit finished").isTrue();
        return pipeline.finished();
    }

    @Test
    void recordsAppendedWhileACommitRunsGoIntoTheNextObjectCutWhenFull() throws Exception {
        ChainWriter w = firstCommitHeld(2, POLICY, 2, FlushTrigger.RECORDS);
        w.append(record(0, 3));
        w.append(record(0, 4));
        assertThat(pipeline.running(0)).isTrue();
        assertThat(pipeline.start(0, w, FlushTrigger.TIME)).as("no second commit before a full object").isFalse();
        assertThat(w.durableNext()).as("nothing is durable before the commit returns").isZero();
        assertThat(w.bufferedBytes()).as("the running commit's records still count").isEqualTo(5 * record(0, 0).payloadBytes());
        assertThat(pipeline.runningBytes()).isEqualTo(3 * record(0, 0).payloadBytes());
        assertThat(w.sizeTrigger()).isEmpty();

        firstHeld.release.countDown();
        List<FlushPipeline.Finished<Integer>> done = awaitFinished();
        assertThat(done).singleElement().satisfies(f -> {
            assertThat(f.failed()).isFalse();
            assertThat(f.result().name().fileName()).isEqualTo(name(0, 2));
        });
        assertThat(w.durableNext()).isEqualTo(3);
        assertThat(w.bufferedBytes()).isEqualTo(2 * record(0, 0).payloadBytes());
        assertThat(pipeline.runningBytes()).isZero();

        assertThat(pipeline.start(0, w, FlushTrigger.CLOSE)).isTrue();
        assertThat(awaitFinished()).singleElement().satisfies(f -> assertThat(f.result().name().fileName()).isEqualTo(name(3, 4)));
        assertThat(store.list(0)).containsExactly(name(0, 2), name(3, 4));
        assertThat(w.bufferedRecords()).isZero();
    }

    @Test
    void aChainsNextObjectIsCutAndEncodedWhileItsCommitRunsAndCreatedAfterIt() throws Exception {
        ChainWriter w = twoCommitsFirstHeld(2);
        appendRange(w, 6, 8);
        assertThat(pipeline.start(0, w, FlushTrigger.RECORDS)).as("at most two per chain").isFalse();
        assertThat(pipeline.runningBytes()).isEqualTo(6 * record(0, 0).payloadBytes());
        assertThat(pipeline.awaitIdle(0, 200)).isFalse();

        firstHeld.release.countDown();
        assertThat(pipeline.awaitIdle(0, 10_000)).isTrue();
        assertThat(pipeline.finished()).as("in the chain's order").extracting(f -> f.result().name().fileName())
                .containsExactly(name(0, 2), name(3, 5));
        assertThat(store.creates).containsExactly("create " + name(0, 2), "created " + name(0, 2), "create " + name(3, 5),
                "created " + name(3, 5));
        assertThat(pipeline.runningBytes()).isZero();
        assertThat(pipeline.busy()).isFalse();
    }

    /**
     * One thread: the first commit was queued first, so it is dequeued first; the second, queued behind it, runs only
     * once the first is done and never waits on a commit that has no thread.
     */
    @Test
    void withOneThreadTheSecondCommitOfAChainRunsAfterTheFirstWithoutDeadlock() throws Exception {
        twoCommitsFirstHeld(1);
        firstHeld.release.countDown();
        assertThat(pipeline.awaitIdle(0, 10_000)).as("both finished on the one thread").isTrue();
        assertThat(pipeline.finished()).extracting(f -> f.result().name().fileName()).containsExactly(name(0, 2), name(3, 5));
        assertThat(store.list(0)).containsExactly(name(0, 2), name(3, 5));
    }

    @Test
    void aFailedCommitAbandonsTheOneBehindItAndItsFailureIsTakenOnce() throws Exception {
        ChainWriter w = twoCommitsFirstHeld(2);
        store.failAfterCommit.put(0, new AtomicInteger(1)); // read once the held create has landed
        firstHeld.release.countDown();
        assertThat(pipeline.awaitIdle(0, 10_000)).isTrue();
        List<FlushPipeline.Finished<Integer>> done = pipeline.finished();
        assertThat(done).hasSize(2);
        assertThat(done.get(0).failure()).as("the premise: the first failed").isInstanceOf(TransientStoreException.class);
        assertThat(done.get(1).abandoned()).isTrue();
        assertThat(done.get(1).failed()).as("not a second failure").isFalse();
        assertThat(done).filteredOn(FlushPipeline.Finished::failed).hasSize(1);
        assertThat(store.list(0)).as("the first landed, nothing of the second").containsExactly(name(0, 2));

        assertThat(pipeline.start(0, w, FlushTrigger.TIME)).isTrue();
        assertThat(awaitFinished()).singleElement().satisfies(f -> assertThat(f.result().name().fileName()).isEqualTo(name(0, 2)));
        assertThat(pipeline.start(0, w, FlushTrigger.RECORDS)).isTrue();
        assertThat(awaitFinished()).singleElement().satisfies(f -> assertThat(f.result().name().fileName()).isEqualTo(name(3, 5)));
    }

    @Test
    void commitsOfDifferentChainsRunInParallel() throws Exception {
        setUp(2);
        ChainWriter w0 = writer(0);
        ChainWriter w1 = writer(1);
        Gate g0 = store.gate(0);
        Gate g1 = store.gate(1);
        w0.append(record(0, 0));
        w1.append(record(1, 0));
        pipeline.start(0, w0, FlushTrigger.TIME);
        pipeline.start(1, w1, FlushTrigger.TIME);
        assertThat(g0.entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(g1.entered.await(10, TimeUnit.SECONDS)).as("partition 1 commits while partition 0's commit is still running").isTrue();
        g1.release.countDown();
        assertThat(awaitFinished()).extracting(FlushPipeline.Finished::key).containsExactly(1);
        assertThat(pipeline.running(0)).isTrue();
        g0.release.countDown();
        assertThat(awaitFinished()).extracting(FlushPipeline.Finished::key).containsExactly(0);
    }

    @Test
    void aFailedCommitFreezesTheChainUntilItsFailureIsTakenAndIsThenReissuedAsItWas() throws Exception {
        setUp(2);
        ChainWriter w0 = writer(0);
        ChainWriter w1 = writer(1);
        store.failAfterCommit.put(0, new AtomicInteger(1)); // it lands, but its outcome is lost
        w0.append(record(0, 0));
        w0.append(record(0, 1));
        pipeline.start(0, w0, FlushTrigger.TIME);
        List<FlushPipeline.Finished<Integer>> done = awaitFinished();
        assertThat(done).singleElement().satisfies(f -> assertThat(f.failure()).isInstanceOf(TransientStoreException.class));
        assertThat(w0.durableNext()).isZero();

        w0.append(record(0, 2));
        w1.append(record(1, 0));
        assertThat(pipeline.start(1, w1, FlushTrigger.TIME)).as("other chains keep committing").isTrue();
        assertThat(awaitFinished()).singleElement().satisfies(f -> assertThat(f.failed()).isFalse());
        // (the failure of partition 0 was taken above with the first finished(); a second failure is held until taken)
        store.failBeforeCommit.put(0, new AtomicInteger(1));
        assertThat(pipeline.start(0, w0, FlushTrigger.TIME)).isTrue();
        assertThat(awaitFinished()).singleElement().satisfies(f -> assertThat(f.failed()).isTrue());
        store.failBeforeCommit.put(0, new AtomicInteger(1));
        assertThat(pipeline.start(0, w0, FlushTrigger.TIME)).isTrue();
        assertThat(pipeline.awaitFinished(10_000)).isTrue();
        assertThat(pipeline.start(0, w0, FlushTrigger.TIME)).as("frozen until the owner has taken the failure").isFalse();
        assertThat(pipeline.finished()).singleElement().satisfies(f -> assertThat(f.failed()).isTrue());

        assertThat(pipeline.start(0, w0, FlushTrigger.TIME)).isTrue();
        assertThat(awaitFinished()).singleElement().satisfies(f ->
                assertThat(f.result().name().fileName()).as("the frozen object, not one re-cut with record 2").isEqualTo(name(0, 1)));
        assertThat(pipeline.start(0, w0, FlushTrigger.TIME)).isTrue();
        assertThat(awaitFinished()).singleElement().satisfies(f -> assertThat(f.result().name().fileName()).isEqualTo(name(2, 2)));
        assertThat(store.list(0)).containsExactly(name(0, 1), name(2, 2));
    }

    @Test
    void waitingForRoomIsBoundedAndWakesWhenACommitFinishes() throws Exception {
        firstCommitHeld(1, POLICY, 0, FlushTrigger.BUFFER_CAP);
        long started = System.nanoTime();
        assertThat(pipeline.awaitFinished(300)).as("nothing finished").isFalse();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isBetween(250L, 5_000L);

        Thread releaser = releasingAfter200Ms(firstHeld);
        started = System.nanoTime();
        releaser.start();
        assertThat(pipeline.awaitFinished(30_000)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).as("woken by the commit, not the timeout")
                .isLessThan(10_000L);
        releaser.join();
        assertThat(pipeline.awaitFinished(10_000)).as("nothing runs: no wait").isTrue();
    }

    @Test
    void closeLetsRunningCommitsFinishAndIdleWaitsForOneChain() throws Exception {
        ChainWriter w = firstCommitHeld(2, POLICY, 0, FlushTrigger.CLOSE);
        assertThat(pipeline.awaitIdle(0, 100)).isFalse();
        Thread releaser = releasingAfter200Ms(firstHeld);
        releaser.start();
        assertThat(pipeline.awaitIdle(0, 30_000)).isTrue();
        releaser.join();
        assertThat(w.durableNext()).isEqualTo(1);

        w.append(record(0, 1));
        Gate second = store.gate(0);
        pipeline.start(0, w, FlushTrigger.CLOSE);
        assertThat(second.entered.await(10, TimeUnit.SECONDS)).isTrue();
        releasingAfter200Ms(second).start();
        pipeline.close(30_000);
        assertThat(store.list(0)).containsExactly(name(0, 0), name(1, 1));
        assertThat(w.durableNext()).isEqualTo(2);
    }

    @Test
    void zeroThreadsCommitsOnTheCallingThread() {
        setUp(0);
        ChainWriter w = writer(0);
        w.append(record(0, 0));
        Thread caller = Thread.currentThread();
        store.onCreate = () -> assertThat(Thread.currentThread()).isSameAs(caller);
        assertThat(pipeline.start(0, w, FlushTrigger.TIME)).isTrue();
        assertThat(pipeline.running(0)).isFalse();
        assertThat(pipeline.finished()).singleElement().satisfies(f -> assertThat(f.failed()).isFalse());
        assertThat(w.durableNext()).isEqualTo(1);
    }

    /** A thread, not yet started, that opens the gate after 200 ms: a commit that finishes while the test waits on it. */
    private static Thread releasingAfter200Ms(Gate gate) {
        return new Thread(() -> {
            sleep(200);
            gate.release.countDown();
        });
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class Gate {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
    }

    /** A real filesystem store whose creates can be held at a gate or fail, per partition. */
    private static final class GatedStore extends DelegatingStore {
        private final Store delegate;
        final Map<Integer, Gate> gates = new ConcurrentHashMap<>();
        final Map<Integer, AtomicInteger> failBeforeCommit = new ConcurrentHashMap<>();
        final Map<Integer, AtomicInteger> failAfterCommit = new ConcurrentHashMap<>();
        volatile Runnable onCreate = () -> { };
        final List<String> creates = new CopyOnWriteArrayList<>();

        GatedStore(Store delegate) {
            super(delegate);
            this.delegate = delegate;
        }

        /** The next create of the partition waits at this gate. */
        Gate gate(int partition) {
            Gate g = new Gate();
            gates.put(partition, g);
            return g;
        }

        @Override
        public void create(int partition, String name, byte[] data) {
            onCreate.run();
            creates.add("create " + name);
            Gate g = gates.remove(partition);
            if (g != null) {
                g.entered.countDown();
                try {
                    g.release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            failIf(failBeforeCommit, partition, "create " + name);
            delegate.create(partition, name, data);
            creates.add("created " + name);
            failIf(failAfterCommit, partition, "learn the outcome of create " + name);
        }

        @Override
        public void recommit(int partition, String name, byte[] data) {
            failIf(failBeforeCommit, partition, "recommit " + name);
            delegate.recommit(partition, name, data);
        }

        private static void failIf(Map<Integer, AtomicInteger> faults, int partition, String what) {
            AtomicInteger n = faults.get(partition);
            if (n != null && n.getAndUpdate(x -> Math.max(0, x - 1)) > 0) {
                throw new TransientStoreException("injected fault: cannot " + what, new IOException("injected"));
            }
        }
    }
}
