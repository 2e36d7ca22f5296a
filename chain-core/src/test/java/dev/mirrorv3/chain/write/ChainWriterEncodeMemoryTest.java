package dev.mirrorv3.chain.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.bytes.ObjectBytes;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EncodeMemory;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.testkit.DelegatingStore;
import dev.mirrorv3.testsupport.MutableClock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The writers of a task share one {@link EncodeMemory} (docs/blob-sink.md, "Encoding memory"): an object's bytes are
 * never written over while its commit may still read them: while it uploads and the next object of its chain is encoded,
 * and while it is the frozen pending commit that a retry re-issues (and the store compares with what landed), however
 * many objects of other partitions are encoded meanwhile. A pool of one makes every such reuse certain to collide.
 */
class ChainWriterEncodeMemoryTest {
    private static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();
    private static final FlushPolicy POLICY = new FlushPolicy(3, 1_000_000_000, 60_000);

    @TempDir
    Path root;

    private final EncodeMemory memory = EncodeMemory.pooled(1);
    private final MutableClock clock = new MutableClock();
    private final List<String> events = new CopyOnWriteArrayList<>();

    /** Record {@code offset} of a partition, its value {@code valueBytes} long and different for each offset. */
    private static BackupRecord record(int partition, long offset, int valueBytes) {
        byte[] value = new byte[valueBytes];
        Arrays.fill(value, (byte) (offset * 7 + partition));
        value[0] = (byte) offset;
        return new BackupRecord("t", partition, offset, 1000L + offset, TimestampType.CREATE_TIME, null, value, List.of());
    }

    private static List<BackupRecord> range(int partition, long from, long to, int valueBytes) {
        List<BackupRecord> records = new ArrayList<>();
        for (long o = from; o <= to; o++) {
            records.add(record(partition, o, valueBytes));
        }
        return records;
    }

    private static String name(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET).fileName();
    }

    /** The SHA-256 of what a codec in fresh memory makes of the records: the bytes each object must hold. */
    private static String fresh(List<BackupRecord> records) {
        return ManifestCodec.sha256(EnvelopeCodecs.forSettings(SETTINGS).encode(records));
    }

    /** The SHA-256 of the object the store holds (a short message when it differs). */
    private static String stored(FilesystemStore fs, int partition, String name) {
        return ManifestCodec.sha256(fs.read(partition, name));
    }

    private ChainWriter writer(Store store, int partition, EnvelopeCodec codec) {
        return new ChainWriter(store, partition, codec, POLICY, clock, new ChainReader(store, SETTINGS).head(partition), 0);
    }

    private EnvelopeCodec pooled() {
        return new EncodeWatchingCodec(EnvelopeCodecs.forSettings(SETTINGS, ObjectEncryption.none(), memory),
                records -> events.add("encoded " + records.get(0).offset() + "-" + records.get(records.size() - 1).offset()));
    }

    @Test
    void aPendingCommitKeepsItsBytesWhileOtherPartitionsEncodeAndItsReissueMatchesWhatLanded() {
        FilesystemStore fs = new FilesystemStore(root, "m");
        AtomicBoolean loseReply = new AtomicBoolean(true);
        List<String> recommits = new CopyOnWriteArrayList<>();
        Store flaky = new DelegatingStore(fs) {
            @Override
            public void create(int partition, String name, ObjectBytes data) {
                delegate().create(partition, name, data);
                if (loseReply.getAndSet(false)) {
                    throw new TransientStoreException("injected fault: the reply of " + name + " was lost", new IOException("reset"));
                }
            }

            @Override
            public void recommit(int partition, String name, ObjectBytes data) {
                recommits.add(name);
                delegate().recommit(partition, name, data); // compares the file with these chunks
            }
        };
        EnvelopeCodec codec = pooled();
        ChainWriter a = writer(flaky, 0, codec);
        ChainWriter b = writer(fs, 1, codec);
        List<BackupRecord> aRecords = range(0, 0, 2, 1000);
        aRecords.forEach(a::append);
        assertThatThrownBy(() -> a.flush(FlushTrigger.RECORDS)).as("the premise: the commit failed")
                .isInstanceOf(TransientStoreException.class);
        assertThat(fs.list(0)).as("the premise: it landed all the same").containsExactly(name(0, 2));

        List<String> bObjects = new ArrayList<>();
        for (int i = 0; i < 3; i++) { // larger objects of another partition, encoded in the same memory meanwhile
            List<BackupRecord> records = range(1, 3L * i, 3L * i + 2, 200_000 + 50_000 * i);
            records.forEach(b::append);
            assertThat(b.flush(FlushTrigger.RECORDS)).isPresent();
            bObjects.add(fresh(records));
        }

        assertThat(a.flush(FlushTrigger.TIME)).as("the re-issue finds exactly its bytes at the name")
                .hasValueSatisfying(r -> assertThat(r.name().fileName()).isEqualTo(name(0, 2)));
        assertThat(recommits).containsExactly(name(0, 2));
        assertThat(a.durableNext()).isEqualTo(3);
        assertThat(stored(fs, 0, name(0, 2))).isEqualTo(fresh(aRecords));
        for (int i = 0; i < 3; i++) {
            assertThat(stored(fs, 1, name(3L * i, 3L * i + 2))).as("partition 1's object %d", i).isEqualTo(bObjects.get(i));
        }
    }

    @ParameterizedTest(name = "first commit fails after landing: {0}")
    @ValueSource(booleans = {false, true})
    void anObjectUploadingWhileTheNextIsEncodedIsWrittenWithItsOwnBytes(boolean firstFails) throws Exception {
        FilesystemStore fs = new FilesystemStore(root, "m");
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicBoolean failOnce = new AtomicBoolean(firstFails);
        Store gated = new DelegatingStore(fs) {
            @Override
            public void create(int partition, String name, ObjectBytes data) {
                if (name.equals(name(0, 2))) {
                    entered.countDown();
                    await(go); // the bytes are read only after the next object was encoded
                }
                delegate().create(partition, name, data);
                if (failOnce.getAndSet(false)) {
                    throw new TransientStoreException("injected fault: the reply of " + name + " was lost", new IOException("reset"));
                }
            }

            @Override
            public void recommit(int partition, String name, ObjectBytes data) {
                delegate().recommit(partition, name, data);
            }
        };
        ChainWriter w = writer(gated, 0, pooled());
        List<BackupRecord> first = range(0, 0, 2, 500);
        List<BackupRecord> second = range(0, 3, 5, 300_000);
        first.forEach(w::append);
        second.forEach(w::append);
        CompletableFuture<FlushResult> firstDone = runAsync(w.cut(FlushTrigger.RECORDS).orElseThrow());
        assertThat(entered.await(10, TimeUnit.SECONDS)).as("the create of 0-2 is held").isTrue();
        CompletableFuture<FlushResult> secondDone = runAsync(w.cut(FlushTrigger.RECORDS).orElseThrow());
        awaitEvent("encoded 3-5");
        go.countDown();
        if (firstFails) {
            assertThat(failure(firstDone)).as("the premise: 0-2 failed after landing").isInstanceOf(TransientStoreException.class);
            assertThat(failure(secondDone)).as("the premise: 3-5 was abandoned").isInstanceOf(CommitAbandonedException.class);
            assertThat(w.flush(FlushTrigger.TIME)).as("the re-issue compares its frozen bytes with what landed").isPresent();
            assertThat(w.flush(FlushTrigger.RECORDS)).isPresent();
        } else {
            firstDone.get(10, TimeUnit.SECONDS);
            secondDone.get(10, TimeUnit.SECONDS);
        }
        assertThat(stored(fs, 0, name(0, 2))).as("0-2, uploaded after 3-5 was encoded").isEqualTo(fresh(first));
        assertThat(stored(fs, 0, name(3, 5))).isEqualTo(fresh(second));
    }

    private static CompletableFuture<FlushResult> runAsync(ChainCommit commit) {
        return CompletableFuture.supplyAsync(commit::run, r -> new Thread(r, "commit-" + commit.name()).start());
    }

    private static Throwable failure(CompletableFuture<?> f) throws InterruptedException {
        try {
            f.get(10, TimeUnit.SECONDS);
            throw new AssertionError("expected the commit to fail");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the commit did not finish", e);
        }
    }

    private void awaitEvent(String event) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!events.contains(event)) {
            assertThat(System.nanoTime()).as("waiting for '" + event + "'; so far " + events).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the gate was not opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
