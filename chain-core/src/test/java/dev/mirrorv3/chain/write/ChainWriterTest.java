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
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.manifest.ManifestName;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.ObjectExistsException;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.testkit.DelegatingStore;
import dev.mirrorv3.testsupport.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ChainWriterTest {
    private static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();
    private static final FlushPolicy POLICY = new FlushPolicy(3, 1_000_000, 1000);

    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock();

    private static BackupRecord record(long offset) {
        return new BackupRecord("t", 0, offset, 1000L + offset, TimestampType.CREATE_TIME, null, new byte[] {(byte) offset}, List.of());
    }

    private ChainWriter writer(Store store, long start) {
        ChainHead head = new ChainReader(store, SETTINGS).head(0);
        return new ChainWriter(store, 0, EnvelopeCodecs.forSettings(SETTINGS), POLICY, clock, head, start);
    }

    /** A writer of a filesystem chain (under {@code root/m}) it has just given its first object, offset 0. */
    private ChainWriter writerOfObjectZero() {
        ChainWriter w = writer(new FilesystemStore(root, "m"), 0);
        w.append(record(0));
        w.flush(FlushTrigger.RECORDS);
        return w;
    }

    @Test
    void aCutTakesAtMostTheSizeLimitsSoRecordsThatCameDuringACommitGoIntoLaterObjects() {
        FilesystemStore store = new FilesystemStore(root, "m");
        ChainWriter w = writer(store, 0);
        w.append(record(0));
        ChainCommit running = w.cut(FlushTrigger.TIME).orElseThrow();
        for (long o = 1; o <= 7; o++) {
            w.append(record(o)); // while the commit of 0 runs
        }
        assertThat(w.sizeTrigger()).as("7 records outside the running commit, limit 3").contains(FlushTrigger.RECORDS);
        ChainCommit behind = w.cut(FlushTrigger.RECORDS).orElseThrow();
        assertThat(behind.name().fileName()).as("a full object behind the running commit").isEqualTo(name(1, 3));
        assertThatThrownBy(() -> w.cut(FlushTrigger.RECORDS)).as("two commits at a time").isInstanceOf(IllegalStateException.class);
        running.run();
        assertThat(behind.run().name().fileName()).isEqualTo(name(1, 3));
        assertThat(w.flush(FlushTrigger.CLOSE)).hasValueSatisfying(r -> assertThat(r.name().fileName()).isEqualTo(name(4, 6)));
        assertThat(w.flush(FlushTrigger.CLOSE)).hasValueSatisfying(r -> assertThat(r.name().fileName()).isEqualTo(name(7, 7)));
        assertThat(store.list(0)).containsExactly(name(0, 0), name(1, 3), name(4, 6), name(7, 7));
        assertThat(w.bufferedRecords()).isZero();
    }

    @Test
    void namesObjectsFromTheChainEndToTheLastRecordAcrossHoles() {
        FilesystemStore store = new FilesystemStore(root, "m");
        ChainWriter w = writer(store, 5); // an empty chain starting at the log start, 5
        assertThat(ChainStart.recordedByStartRecords(store, 0)).as("recorded before its first object").hasValue(5);
        assertThat(w.append(record(7))).isTrue(); // 5 and 6 are holes
        assertThat(w.append(record(9))).isTrue();
        assertThat(w.append(record(9))).as("a re-delivered record is skipped").isFalse();
        assertThat(w.append(record(8))).as("nothing below the next expected offset").isFalse();
        w.flush(FlushTrigger.CLOSE);
        assertThat(store.list(0)).containsExactly(ObjectName.plain(5, 9, EnvelopeFormat.PARQUET).fileName());
        assertThat(w.durableNext()).isEqualTo(10);
        assertThat(new ChainReader(store, SETTINGS).read(0, ObjectName.plain(5, 9, EnvelopeFormat.PARQUET), "t").records())
                .extracting(BackupRecord::offset).containsExactly(7L, 9L);
    }

    @Test
    void triggers() {
        ChainWriter w = writer(new FilesystemStore(root, "m"), 0);
        assertThat(w.msUntilTimeTrigger(clock.millis())).isEqualTo(Long.MAX_VALUE);
        w.append(record(0));
        w.append(record(1));
        assertThat(w.sizeTrigger()).isEmpty();
        clock.advance(400);
        assertThat(w.msUntilTimeTrigger(clock.millis())).isEqualTo(600);
        w.append(record(2));
        assertThat(w.sizeTrigger()).contains(FlushTrigger.RECORDS);
        clock.advance(600);
        assertThat(w.msUntilTimeTrigger(clock.millis())).isZero();
    }

    @Test
    void aForeignObjectAfterTheTailStopsTheNextFlush() throws IOException {
        ChainWriter w = writerOfObjectZero();
        Files.write(root.resolve("m/0").resolve(ObjectName.plain(1, 4, EnvelopeFormat.PARQUET).fileName()), new byte[1]);
        w.append(record(1));
        assertThatThrownBy(() -> w.flush(FlushTrigger.RECORDS)).isInstanceOf(ChainChangedException.class)
                .hasMessageContaining("00000000000000000001-00000000000000000004.parquet was not written by this task");
        assertThat(w.bufferedRecords()).as("the buffer is kept").isEqualTo(1);
    }

    /**
     * An old task instance Connect gave up on closes the partition after the new one opened it: its last object and the
     * manifest recording it land after the new writer's tail. Both the periodic check and the next commit see the chain
     * moved on with the same records, not another writer's object; without the manifest it is another writer's.
     */
    @Test
    void anOldInstancesLastObjectRecordedByItsManifestIsTheChainMovingOn() throws IOException {
        FilesystemStore fs = new FilesystemStore(root, "m");
        ChainWriter old = writer(fs, 0);
        old.append(record(0));
        old.flush(FlushTrigger.RECORDS);
        ChainWriter live = writer(fs, 1); // found 0-0 after the newest manifest (none)
        old.append(record(1));
        old.append(record(2));
        old.flush(FlushTrigger.CLOSE);
        Path manifests = root.resolve("m/_manifest/0");
        assertThat(manifests).as("the premise: no manifest before the old instance's").doesNotExist();
        old.manifests().writeWaiting(); // 0-2, recording 0-0 and 1-2

        assertThatThrownBy(() -> live.periodicCheck(EnvelopeFormat.PARQUET)).isInstanceOf(ChainMovedOnException.class);
        live.append(record(1));
        assertThatThrownBy(() -> live.flush(FlushTrigger.RECORDS)).isInstanceOf(ChainMovedOnException.class)
                .hasMessageContaining(name(1, 2) + " follow the last object this task wrote or found (" + name(0, 0) + ")")
                .hasMessageContaining("recorded by " + manifests.resolve(new ManifestName(0, 2).fileName()))
                .hasMessageContaining("opened again from its new end, after " + name(1, 2));

        Files.delete(manifests.resolve(new ManifestName(0, 2).fileName()));
        assertThatThrownBy(() -> live.flush(FlushTrigger.RECORDS)).isInstanceOf(ChainChangedException.class)
                .isNotInstanceOf(ChainMovedOnException.class).hasMessageContaining(name(1, 2) + " was not written by this task");
    }

    @Test
    void aRemovedTailStopsTheNextFlush() throws IOException {
        ChainWriter w = writerOfObjectZero();
        Files.delete(root.resolve("m/0").resolve(ObjectName.plain(0, 0, EnvelopeFormat.PARQUET).fileName()));
        w.append(record(1));
        assertThatThrownBy(() -> w.flush(FlushTrigger.RECORDS)).isInstanceOf(ChainChangedException.class)
                .hasMessageContaining("is gone");
    }

    @Test
    void aTransientStoreFailureKeepsTheBuffer() {
        AtomicBoolean failing = new AtomicBoolean(true);
        FilesystemStore fs = new FilesystemStore(root, "m");
        Store flaky = new DelegatingStore(fs) {
            @Override
            public void create(int partition, String name, byte[] data) {
                if (failing.get()) {
                    throw new TransientStoreException("disk away", new IOException("EIO"));
                }
                super.create(partition, name, data);
            }
        };
        ChainWriter w = writer(flaky, 0);
        w.append(record(0));
        w.append(record(1));
        assertThatThrownBy(() -> w.flush(FlushTrigger.TIME)).isInstanceOf(TransientStoreException.class);
        assertThat(w.bufferedRecords()).isEqualTo(2);
        assertThat(w.durableNext()).isZero();
        failing.set(false);
        w.flush(FlushTrigger.TIME);
        assertThat(fs.list(0)).containsExactly(ObjectName.plain(0, 1, EnvelopeFormat.PARQUET).fileName());
    }

    /** What fails after an object landed, before the writer learns that it did. */
    enum AfterCommit {
        /** The commit itself reports a failure (S3: every SDK attempt after the one that committed fails, or the GET of
         * the 412 path does; filesystem: the temp-file delete or the directory fsync after the link). */
        CREATE_THROWS,
        /** The listing of the check for a twin right after the commit. */
        TWIN_CHECK_THROWS
    }

    /** A filesystem store whose commits land and then fail as {@code fault} says while {@code armed}. */
    private static Store landsThenFails(FilesystemStore fs, AfterCommit fault, AtomicBoolean armed) {
        AtomicBoolean failNextList = new AtomicBoolean();
        return new DelegatingStore(fs) {
            @Override
            public void create(int partition, String name, byte[] data) {
                super.create(partition, name, data);
                if (armed.getAndSet(false)) {
                    if (fault == AfterCommit.CREATE_THROWS) {
                        throw new TransientStoreException("the reply was lost", new IOException("connection reset"));
                    }
                    failNextList.set(true);
                }
            }

            @Override
            public List<String> listFrom(int partition, String startAt, int max) {
                if (failNextList.getAndSet(false)) {
                    throw new TransientStoreException("cannot list for now", new IOException("connection reset"));
                }
                return super.listFrom(partition, startAt, max);
            }
        };
    }

    private static String name(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET).fileName();
    }

    @ParameterizedTest
    @EnumSource(AfterCommit.class)
    void aCommitThatLandedAndThenFailedIsCompletedByTheRetryNotTakenForAnotherWriter(AfterCommit fault) {
        FilesystemStore fs = new FilesystemStore(root, "m");
        AtomicBoolean armed = new AtomicBoolean(true);
        ChainWriter w = writer(landsThenFails(fs, fault, armed), 0);
        w.append(record(0));
        assertThatThrownBy(() -> w.flush(FlushTrigger.TIME)).as("the first object of an empty chain")
                .isInstanceOf(TransientStoreException.class);
        assertThat(fs.list(0)).as("it landed").containsExactly(name(0, 0));
        assertThat(w.durableNext()).as("not known durable yet").isZero();
        assertThat(w.flush(FlushTrigger.TIME)).hasValueSatisfying(r -> assertThat(r.name().fileName()).isEqualTo(name(0, 0)));
        assertThat(w.durableNext()).isEqualTo(1);

        w.append(record(1));
        w.append(record(2));
        armed.set(true);
        assertThatThrownBy(() -> w.flush(FlushTrigger.RECORDS)).isInstanceOf(TransientStoreException.class);
        assertThat(fs.list(0)).containsExactly(name(0, 0), name(1, 2));
        w.periodicCheck(EnvelopeFormat.PARQUET); // the pending object at the chain's end is no other writer's either
        // Records that arrive while the commit is pending go into the next object, not into a re-encoded one.
        w.append(record(3));
        assertThat(w.bufferedRecords()).isEqualTo(3);
        assertThat(w.flush(FlushTrigger.TIME)).hasValueSatisfying(r -> {
            assertThat(r.name().fileName()).isEqualTo(name(1, 2));
            assertThat(r.records()).isEqualTo(2);
            assertThat(r.payloadBytes()).isEqualTo(record(1).payloadBytes() + record(2).payloadBytes());
        });
        assertThat(w.durableNext()).isEqualTo(3);
        assertThat(w.bufferedRecords()).isEqualTo(1);
        assertThat(w.bufferedBytes()).isEqualTo(record(3).payloadBytes());
        w.flush(FlushTrigger.TIME);
        assertThat(fs.list(0)).containsExactly(name(0, 0), name(1, 2), name(3, 3));
        w.periodicCheck(EnvelopeFormat.PARQUET);
        ChainReader reader = new ChainReader(fs, SETTINGS);
        assertThat(reader.listChain(0, OptionalLong.empty()).objects().stream()
                .flatMap(o -> reader.read(0, o, "t").records().stream()).map(BackupRecord::offset).toList())
                .containsExactly(0L, 1L, 2L, 3L);
    }

    @Test
    void aPendingCommitIsDueAtOnceAndItsFrozenRecordsDoNotCountForTheNextObjectsTimer() {
        FilesystemStore fs = new FilesystemStore(root, "m");
        ChainWriter w = writer(landsThenFails(fs, AfterCommit.CREATE_THROWS, new AtomicBoolean(true)), 0);
        w.append(record(0));
        assertThatThrownBy(() -> w.flush(FlushTrigger.RECORDS)).isInstanceOf(TransientStoreException.class);
        assertThat(w.msUntilTimeTrigger(clock.millis())).as("retry the pending commit on the next put").isZero();
        clock.advance(300);
        w.append(record(1));
        w.flush(FlushTrigger.TIME);
        assertThat(w.msUntilTimeTrigger(clock.millis())).as("record 1 has waited 0 of 1000 ms").isEqualTo(1000);
    }

    /**
     * A task frozen while it encodes its first object (SIGSTOP of its worker, ./torture zombie): its partition moves and
     * the new task writes an object from the same offset. Woken, the frozen task must not add its object beside it.
     */
    @Test
    void aTaskFrozenWhileItEncodesAddsNothingBesideTheObjectTheMovedTaskWrote() {
        FilesystemStore fs = new FilesystemStore(root, "m");
        EnvelopeCodec real = EnvelopeCodecs.forSettings(SETTINGS);
        // Meanwhile the moved task wrote offsets 0..4.
        EnvelopeCodec frozenWhileEncoding = new EncodeWatchingCodec(real, records -> fs.create(0,
                ObjectName.plain(0, 4, EnvelopeFormat.PARQUET).fileName(),
                real.encode(List.of(record(0), record(1), record(2), record(3), record(4)))));
        ChainWriter zombie = new ChainWriter(fs, 0, frozenWhileEncoding, POLICY, clock,
                new ChainReader(fs, SETTINGS).head(0), 0);
        zombie.append(record(0));
        zombie.append(record(1));
        assertThatThrownBy(() -> zombie.flush(FlushTrigger.TIME)).isInstanceOf(ChainChangedException.class)
                .hasMessageContaining(name(0, 4));
        assertThat(fs.list(0)).as("only the moved task's object").containsExactly(name(0, 4));
    }

    @Test
    void anotherObjectAtThePendingNameIsAnotherWriter() {
        FilesystemStore fs = new FilesystemStore(root, "m");
        AtomicBoolean first = new AtomicBoolean(true);
        Store racing = new DelegatingStore(fs) {
            @Override
            public void create(int partition, String name, byte[] data) {
                if (first.getAndSet(false)) {
                    super.create(partition, name, new byte[] {42}); // a zombie got the name first
                    throw new TransientStoreException("the reply was lost", new IOException("connection reset"));
                }
                super.create(partition, name, data);
            }
        };
        ChainWriter w = writer(racing, 0);
        w.append(record(0));
        assertThatThrownBy(() -> w.flush(FlushTrigger.RECORDS)).isInstanceOf(TransientStoreException.class);
        assertThatThrownBy(() -> w.flush(FlushTrigger.RECORDS)).isInstanceOf(ObjectExistsException.class)
                .hasMessageContaining("another writer created " + root.resolve("m/0").resolve(name(0, 0)));
        assertThat(w.durableNext()).isZero();
    }

    @Test
    void anObjectAfterThePendingOneIsAnotherWriter() throws IOException {
        FilesystemStore fs = new FilesystemStore(root, "m");
        AtomicBoolean armed = new AtomicBoolean();
        ChainWriter w = writer(landsThenFails(fs, AfterCommit.CREATE_THROWS, armed), 0);
        w.append(record(0));
        w.flush(FlushTrigger.RECORDS);
        w.append(record(1));
        armed.set(true);
        assertThatThrownBy(() -> w.flush(FlushTrigger.RECORDS)).isInstanceOf(TransientStoreException.class);
        Files.write(root.resolve("m/0").resolve(name(2, 4)), new byte[1]);
        assertThatThrownBy(() -> w.flush(FlushTrigger.RECORDS)).isInstanceOf(ChainChangedException.class)
                .hasMessageContaining(name(2, 4) + " was not written by this task");
        assertThat(w.durableNext()).isEqualTo(1);
    }

    @Test
    void thePeriodicCheckComparesTheChainsEndWithWhatWasWritten() throws IOException {
        ChainWriter w = writerOfObjectZero();
        w.periodicCheck(EnvelopeFormat.PARQUET);
        Files.writeString(root.resolve("m/0/README"), "x");
        assertThatThrownBy(() -> w.periodicCheck(EnvelopeFormat.PARQUET)).isInstanceOf(ChainChangedException.class)
                .hasMessageContaining("README");
    }
}
