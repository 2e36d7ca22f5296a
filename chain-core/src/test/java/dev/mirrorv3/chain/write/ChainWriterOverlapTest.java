package dev.mirrorv3.chain.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.testkit.DelegatingStore;
import dev.mirrorv3.testsupport.MutableClock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Object N+1 is encoded while object N is created, and created only after N is durable: the second commit a
 * {@link ChainWriter} lets run beside the first (docs/blob-sink.md, "Pipelined flush").
 */
class ChainWriterOverlapTest {
    private static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();
    private static final FlushPolicy POLICY = new FlushPolicy(3, 1_000_000, 60_000);

    @TempDir
    Path root;

    /** What happened, in order: "encoded 3-5", "create 0-2", "created 0-2". */
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final Map<String, Gate> gates = new ConcurrentHashMap<>();
    /** The bytes of each create, by object name (the first attempt's). */
    private final Map<String, byte[]> created = new ConcurrentHashMap<>();
    private FilesystemStore fs;
    private final MutableClock clock = new MutableClock();

    @AfterEach
    void releaseGates() {
        gates.values().forEach(g -> g.release.countDown());
    }

    private static BackupRecord record(long offset) {
        return new BackupRecord("t", 0, offset, 1000L + offset, TimestampType.CREATE_TIME, null, new byte[] {(byte) offset}, List.of());
    }

    private static String name(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET).fileName();
    }

    private static String range(String fileName) {
        ObjectName n = ObjectName.parse(fileName).orElseThrow();
        return n.from() + "-" + n.to();
    }

    /** A writer over a filesystem store whose creates may be held at a gate, and whose codec logs what it encoded. */
    private ChainWriter writer() {
        fs = new FilesystemStore(root.resolve("overlapped"), "m");
        Store gated = new DelegatingStore(fs) {
            @Override
            public void create(int partition, String name, byte[] data) {
                events.add("create " + range(name));
                created.putIfAbsent(name, data);
                Gate g = gates.get(name);
                if (g != null) {
                    g.entered.countDown();
                    await(g.release);
                }
                super.create(partition, name, data);
                events.add("created " + range(name));
                if (g != null && g.failAfterLanding) {
                    throw new TransientStoreException("injected fault: the reply of " + name + " was lost", new IOException("reset"));
                }
            }
        };
        EnvelopeCodec logging = new EncodeWatchingCodec(EnvelopeCodecs.forSettings(SETTINGS),
                records -> events.add("encoded " + records.get(0).offset() + "-" + records.get(records.size() - 1).offset()));
        return new ChainWriter(gated, 0, logging, POLICY, clock, new ChainReader(gated, SETTINGS).head(0), 0);
    }

    private Gate hold(String name, boolean failAfterLanding) {
        Gate g = new Gate(failAfterLanding);
        gates.put(name, g);
        return g;
    }

    private static void appendRange(ChainWriter w, long from, long to) {
        for (long o = from; o <= to; o++) {
            w.append(record(o));
        }
    }

    private static CompletableFuture<FlushResult> runAsync(ChainCommit commit) {
        return CompletableFuture.supplyAsync(commit::run, r -> new Thread(r, "commit-" + commit.name()).start());
    }

    private void awaitEvent(String event) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!events.contains(event)) {
            assertThat(System.nanoTime()).as("waiting for '" + event + "'; so far " + events).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    /** The names and bytes a writer that commits one object at a time makes of the same records and cuts. */
    private Map<String, byte[]> oneAtATime(long... cutsAfter) {
        FilesystemStore alone = new FilesystemStore(root.resolve("one-at-a-time"), "m");
        ChainWriter w = new ChainWriter(alone, 0, EnvelopeCodecs.forSettings(SETTINGS), POLICY, Clock.systemUTC(),
                new ChainReader(alone, SETTINGS).head(0), 0);
        long next = 0;
        for (long last : cutsAfter) {
            appendRange(w, next, last);
            w.flush(FlushTrigger.RECORDS);
            next = last + 1;
        }
        Map<String, byte[]> objects = new java.util.TreeMap<>();
        alone.list(0).forEach(n -> objects.put(n, alone.read(0, n)));
        return objects;
    }

    private Map<String, byte[]> stored() {
        Map<String, byte[]> objects = new java.util.TreeMap<>();
        fs.list(0).forEach(n -> objects.put(n, fs.read(0, n)));
        return objects;
    }

    /** The two commits in flight: 0-2 held in its create, 3-5 cut behind it and encoded. */
    private record TwoInFlight(Gate first, CompletableFuture<FlushResult> firstDone, CompletableFuture<FlushResult> nextDone) {
    }

    private TwoInFlight cutTwo(ChainWriter w, boolean firstFailsAfterLanding) throws InterruptedException {
        Gate first = hold(name(0, 2), firstFailsAfterLanding);
        CompletableFuture<FlushResult> firstDone = runAsync(w.cut(FlushTrigger.RECORDS).orElseThrow());
        assertThat(first.entered.await(10, TimeUnit.SECONDS)).as("the create of 0-2 is held").isTrue();
        CompletableFuture<FlushResult> nextDone = runAsync(w.cut(FlushTrigger.RECORDS).orElseThrow());
        awaitEvent("encoded 3-5");
        return new TwoInFlight(first, firstDone, nextDone);
    }

    /** Releases the first of two commits in flight, which fails after landing: the premise of the tests that need it. */
    private void failFirst(TwoInFlight two) throws Exception {
        two.first().release.countDown();
        assertThat(failure(two.firstDone())).as("the premise: the commit of 0-2 failed").isInstanceOf(TransientStoreException.class);
        assertThat(fs.list(0)).as("the premise: it landed").containsExactly(name(0, 2));
        assertThat(failure(two.nextDone())).isInstanceOf(CommitAbandonedException.class)
                .hasMessageContaining(name(3, 5)).hasMessageContaining(name(0, 2));
    }

    @Test
    void theNextObjectIsEncodedWhileTheOneBeforeIsCreatedAndIsCreatedOnlyAfterIt() throws Exception {
        ChainWriter w = writer();
        Gate first = hold(name(0, 2), false);
        appendRange(w, 0, 5);
        ChainCommit n = w.cut(FlushTrigger.RECORDS).orElseThrow();
        CompletableFuture<FlushResult> nDone = runAsync(n);
        assertThat(first.entered.await(10, TimeUnit.SECONDS)).as("the create of 0-2 is held").isTrue();

        ChainCommit next = w.cut(FlushTrigger.RECORDS).orElseThrow();
        assertThat(next.name().fileName()).as("it starts after the running commit").isEqualTo(name(3, 5));
        CompletableFuture<FlushResult> nextDone = runAsync(next);
        awaitEvent("encoded 3-5");
        assertThat(nextDone).as("it waits for the commit before it").isNotDone();
        assertThat(events).doesNotContain("create 3-5");
        assertThat(w.durableNext()).isZero();
        assertThat(w.bufferedRecords()).isEqualTo(6);
        assertThat(w.sizeTrigger()).as("every buffered record is in one of the two commits").isEmpty();
        appendRange(w, 6, 8);
        assertThat(w.sizeTrigger()).as("3 records outside both commits").contains(FlushTrigger.RECORDS);
        assertThatThrownBy(() -> w.cut(FlushTrigger.RECORDS)).as("at most two at a time")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("is still running");

        first.release.countDown();
        assertThat(nDone.get(10, TimeUnit.SECONDS).name().fileName()).isEqualTo(name(0, 2));
        assertThat(nextDone.get(10, TimeUnit.SECONDS).name().fileName()).isEqualTo(name(3, 5));
        assertThat(events).containsSubsequence("create 0-2", "encoded 3-5", "created 0-2", "create 3-5", "created 3-5");
        assertThat(w.durableNext()).isEqualTo(6);
        assertThat(w.bufferedRecords()).isEqualTo(3);
        assertThat(w.flush(FlushTrigger.RECORDS)).hasValueSatisfying(r -> assertThat(r.name().fileName()).isEqualTo(name(6, 8)));
        assertThat(stored()).as("names and bytes as one commit at a time makes them")
                .containsExactlyEntriesOf(oneAtATime(2, 5, 8));
    }

    @Test
    void aFailedCommitAbandonsTheOneCutBehindItWhichIsWrittenAfterTheFailedOneIsReissued() throws Exception {
        ChainWriter w = writer();
        appendRange(w, 0, 5);
        failFirst(cutTwo(w, true)); // 0-2 lands, but its outcome is lost
        assertThat(events).as("nothing of 3-5 reached the store").doesNotContain("create 3-5");
        assertThat(w.durableNext()).isZero();
        assertThat(w.bufferedRecords()).as("every record stays buffered").isEqualTo(6);
        assertThat(w.msUntilTimeTrigger(clock.millis())).as("the frozen commit is due at once").isZero();
        assertThat(w.cut(FlushTrigger.TIME)).as("the frozen commit, re-issued")
                .hasValueSatisfying(c -> assertThat(c.name().fileName()).isEqualTo(name(0, 2)));
        assertThatThrownBy(() -> w.cut(FlushTrigger.RECORDS)).as("no commit behind a re-issued one")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("is still running");
    }

    @Test
    void afterAnAbandonedCommitTheChainIsTheOneACommitAtATimeMakes() throws Exception {
        ChainWriter w = writer();
        appendRange(w, 0, 5);
        failFirst(cutTwo(w, true));
        byte[] firstAttempt = created.get(name(0, 2));

        appendRange(w, 6, 6);
        assertThat(w.flush(FlushTrigger.TIME)).as("the frozen commit, re-issued")
                .hasValueSatisfying(r -> assertThat(r.name().fileName()).isEqualTo(name(0, 2)));
        assertThat(fs.read(0, name(0, 2))).as("the bytes of the first attempt").isEqualTo(firstAttempt);
        assertThat(w.flush(FlushTrigger.RECORDS)).as("the abandoned object, cut again")
                .hasValueSatisfying(r -> assertThat(r.name().fileName()).isEqualTo(name(3, 5)));
        assertThat(w.flush(FlushTrigger.CLOSE)).hasValueSatisfying(r -> assertThat(r.name().fileName()).isEqualTo(name(6, 6)));
        assertThat(stored()).containsExactlyEntriesOf(oneAtATime(2, 5, 6));
        assertThat(w.bufferedRecords()).isZero();
        assertThat(w.bufferedBytes()).isZero();
    }

    @Test
    void theTimeTriggerCountsTheRecordsOutsideBothCommitsAndThoseOfAnAbandonedOneAgainNeverLate() throws Exception {
        ChainWriter w = writer();
        appendRange(w, 0, 2);
        clock.advance(10);
        appendRange(w, 3, 5);
        clock.advance(10);
        appendRange(w, 6, 6);
        TwoInFlight two = cutTwo(w, true);
        // The records after a cut keep the oldest buffered record's time: their trigger may trip early, never late.
        assertThat(w.msUntilTimeTrigger(clock.millis())).as("record 6 is the only one outside").isBetween(59_980L, 60_000L);

        failFirst(two);
        assertThat(w.sizeTrigger()).as("3-6 outside the frozen 0-2").contains(FlushTrigger.RECORDS);
        w.flush(FlushTrigger.TIME); // 0-2, re-issued
        assertThat(w.msUntilTimeTrigger(clock.millis())).as("record 3 has waited 10 ms").isBetween(59_980L, 59_990L);
    }

    @Test
    void theBufferIsNotDiscardedWhileEitherOfTwoCommitsRuns() throws Exception {
        ChainWriter w = writer();
        Gate second = hold(name(3, 5), false);
        appendRange(w, 0, 6);
        TwoInFlight two = cutTwo(w, false);
        assertThatThrownBy(w::discardBuffer).isInstanceOf(IllegalStateException.class).hasMessageContaining("is still running");

        two.first().release.countDown();
        two.firstDone().get(10, TimeUnit.SECONDS);
        assertThat(second.entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(w.durableNext()).isEqualTo(3);
        assertThatThrownBy(w::discardBuffer).as("the second still runs").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is still running");
        assertThat(w.bufferedRecords()).isEqualTo(4);

        second.release.countDown();
        two.nextDone().get(10, TimeUnit.SECONDS);
        w.discardBuffer();
        assertThat(w.bufferedRecords()).isZero();
        assertThat(w.bufferedBytes()).isZero();
        assertThat(w.expectedNext()).isEqualTo(6);
        assertThat(w.cut(FlushTrigger.CLOSE)).isEmpty();
        assertThat(fs.list(0)).containsExactly(name(0, 2), name(3, 5));
    }

    @Test
    void aSecondCommitIsCutOnlyForAFullObject() throws Exception {
        ChainWriter w = writer();
        Gate first = hold(name(0, 2), false);
        appendRange(w, 0, 4);
        CompletableFuture<FlushResult> nDone = runAsync(w.cut(FlushTrigger.RECORDS).orElseThrow());
        assertThat(first.entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(w.cut(FlushTrigger.TIME)).as("2 records after the running commit: they wait for its outcome").isEmpty();
        first.release.countDown();
        nDone.get(10, TimeUnit.SECONDS);
        assertThat(w.flush(FlushTrigger.TIME)).hasValueSatisfying(r -> assertThat(r.name().fileName()).isEqualTo(name(3, 4)));
    }

    private static Throwable failure(CompletableFuture<FlushResult> f) throws InterruptedException, java.util.concurrent.TimeoutException {
        try {
            f.get(10, TimeUnit.SECONDS);
            throw new AssertionError("the commit did not fail");
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class Gate {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final boolean failAfterLanding;

        Gate(boolean failAfterLanding) {
            this.failAfterLanding = failAfterLanding;
        }
    }
}
