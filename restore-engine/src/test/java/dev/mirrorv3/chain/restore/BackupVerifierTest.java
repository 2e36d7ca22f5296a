package dev.mirrorv3.chain.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.Compression;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import dev.mirrorv3.chain.manifest.ManifestName;
import dev.mirrorv3.chain.read.CheckedObject;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.ManifestKeeper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verify pass reading objects and manifests ahead in parallel, and the objects it keeps for the produce pass. */
class BackupVerifierTest {
    private static final EnvelopeSettings NDJSON = new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED, ValueType.BYTES,
            ValueType.BYTES);
    private static final int PER_OBJECT = 100;

    @TempDir
    Path root;
    FilesystemStore store;
    CountingStore counting;

    @BeforeEach
    void setUp() {
        store = new FilesystemStore(root, "b");
        counting = new CountingStore(store);
    }

    @AfterEach
    void nothingKeptIsLeftBehind() {
        assertThat(KeptObjects.reservedBytes()).as("every test closes what it kept").isZero();
    }

    /** Objects of {@value #PER_OBJECT} records from offset 0, stamped 1000 + offset; their names. */
    private List<ObjectName> write(int objects) {
        List<ObjectName> names = new ArrayList<>();
        for (int i = 0; i < objects; i++) {
            long from = (long) i * PER_OBJECT;
            ObjectName name = ObjectName.plain(from, from + PER_OBJECT - 1, NDJSON.format());
            store.create(0, name.fileName(), EnvelopeCodecs.forSettings(NDJSON).encode(records(from, from + PER_OBJECT - 1, "v")));
            names.add(name);
        }
        return names;
    }

    private static List<BackupRecord> records(long from, long to, String value) {
        List<BackupRecord> out = new ArrayList<>();
        for (long o = from; o <= to; o++) {
            out.add(new BackupRecord("t", 0, o, 1000 + o, TimestampType.CREATE_TIME, null, (value + o).getBytes(StandardCharsets.UTF_8),
                    List.of()));
        }
        return out;
    }

    private void damage(ObjectName name) throws Exception {
        Files.writeString(root.resolve("b/0").resolve(name.fileName()), "not ndjson");
    }

    private BackupVerifier verifier() {
        return new BackupVerifier(counting, NDJSON, "t");
    }

    private static VerifiedPartition verify(BackupVerifier v, CutFinder cut) {
        return v.verify(0, 0, cut, r -> 1, n -> { });
    }

    @Test
    void objectsReadAheadInParallelGiveTheSameResultAsOneAfterTheOther() throws Exception {
        List<ObjectName> names = write(12);
        VerifiedPartition one = verify(verifier().readingAhead(0), CutFinder.none());
        assertThat(counting.maxConcurrentReads()).isEqualTo(1);
        counting.reads = 0;
        counting.holdReadsOf(names.get(0).fileName()); // the first object's read lasts until the next three have been read
        Thread release = new Thread(() -> releaseOnceRead(counting, 4));
        release.start();
        VerifiedPartition four = verify(verifier().readingAhead(4), CutFinder.none());
        release.join();
        assertThat(counting.maxConcurrentReads()).as("objects read at once").isGreaterThan(1).isLessThanOrEqualTo(4);
        assertThat(four.records()).isEqualTo(one.records()).isEqualTo(1200);
        assertThat(four.cut().sha256()).as("the digest over the records in their order").isEqualTo(one.cut().sha256());
        assertThat(four.objects()).extracting(VerifiedObject::name).isEqualTo(one.objects().stream().map(VerifiedObject::name).toList());
    }

    @Test
    void theFirstDamagedObjectIsNamedEvenWhenALaterOneFailedFirst() throws Exception {
        List<ObjectName> names = write(8);
        damage(names.get(3));
        damage(names.get(4));
        counting.holdReadsOf(names.get(3).fileName()); // object 4's read fails while object 3's is still held
        Thread release = new Thread(() -> releaseOnceRead(counting, 5));
        release.start();
        assertThatThrownBy(() -> verify(verifier().readingAhead(6), CutFinder.none()))
                .isInstanceOf(ChainException.class)
                .hasMessageContaining(names.get(3).fileName())
                .hasMessageContaining("cannot be read");
        release.join();
        assertThat(counting.reads).as("the premise: object 4 was read (and failed) before object 3's read ended").isGreaterThanOrEqualTo(5);
    }

    @Test
    void anObjectAfterTheCutIsNotCheckedThoughReadAhead() throws Exception {
        List<ObjectName> names = write(6);
        damage(names.get(3));
        damage(names.get(4));
        VerifiedPartition vp = verify(verifier().readingAhead(4), new RestoreCut(null, Map.of(0, 150L)).finder(0));
        assertThat(vp.lastOffset()).isEqualTo(150);
        assertThat(vp.objects()).extracting(VerifiedObject::name).containsExactly(names.get(0), names.get(1));
    }

    @Test
    void keptObjectsAreHandedOutAsVerifiedWithoutAnotherReadAndLeaveTheBudget() throws Exception {
        List<ObjectName> names = write(3);
        try (KeptObjects kept = KeptObjects.upTo(1 << 20)) {
            BackupVerifier v = verifier().keeping(kept);
            VerifiedPartition vp = verify(v, CutFinder.none());
            assertThat(KeptObjects.reservedBytes()).as("three objects kept, their values' bytes at least")
                    .isGreaterThan(3 * PER_OBJECT * "v100".length());
            int reads = counting.reads;
            Files.write(root.resolve("b/0").resolve(names.get(1).fileName()),
                    EnvelopeCodecs.forSettings(NDJSON).encode(records(100, 199, "changed")));
            CheckedObject second = v.reread(0, vp.objects().get(1));
            assertThat(counting.reads).as("no read").isEqualTo(reads);
            assertThat(second.records()).as("the records the verify pass checked").isEqualTo(records(100, 199, "v"))
                    .isInstanceOf(PackedRecords.class);
            assertThat(second.sha256()).isEqualTo(vp.objects().get(1).sha256());
            assertThatThrownBy(() -> v.reread(0, vp.objects().get(1))).as("handed out once; then read again, and changed")
                    .isInstanceOf(ChainException.class).hasMessageContaining(names.get(1).fileName() + " changed since the verify pass");
        }
        assertThat(KeptObjects.reservedBytes()).as("closing gives the rest back").isZero();
    }

    @Test
    void anObjectBeyondTheBudgetIsReadAgainAndMustNotHaveChanged() throws Exception {
        List<ObjectName> names = write(3);
        long oneObject = PackedRecords.of(records(0, 99, "v")).heapBytes() + 50; // the second object's values are longer
        try (KeptObjects kept = KeptObjects.upTo(oneObject)) {
            BackupVerifier v = verifier().keeping(kept);
            VerifiedPartition vp = verify(v, CutFinder.none());
            Files.write(root.resolve("b/0").resolve(names.get(2).fileName()),
                    EnvelopeCodecs.forSettings(NDJSON).encode(records(200, 299, "changed")));
            int reads = counting.reads;
            assertThat(v.reread(0, vp.objects().get(0)).records()).isEqualTo(records(0, 99, "v"));
            assertThat(v.reread(0, vp.objects().get(1)).records()).as("not kept: read again, unchanged").isEqualTo(records(100, 199, "v"));
            assertThat(counting.reads - reads).isEqualTo(1);
            assertThatThrownBy(() -> v.reread(0, vp.objects().get(2))).isInstanceOf(ChainException.class)
                    .hasMessageContaining(names.get(2).fileName() + " changed since the verify pass read it");
        }
    }

    @Test
    void aVerifierKeepsNothingUnlessAskedTo() {
        write(2);
        BackupVerifier v = verifier();
        VerifiedPartition vp = verify(v, CutFinder.none());
        assertThat(KeptObjects.reservedBytes()).isZero();
        int reads = counting.reads;
        v.reread(0, vp.objects().get(0));
        assertThat(counting.reads - reads).isEqualTo(1);
    }

    /** {@code objects} objects as {@link #write}, each followed by a manifest of it (a hash chain of as many manifests). */
    private List<ObjectName> writeWithManifests(int objects) {
        ManifestKeeper keeper = new ManifestKeeper(new ChainListing(store, 0, Manifest.Kind.CHAIN), ChainHead.empty(store.location(0)), 0,
                Clock.systemUTC());
        List<ObjectName> names = write(objects);
        for (ObjectName name : names) {
            byte[] bytes = store.read(0, name.fileName());
            keeper.committed(name, bytes.length, ManifestCodec.sha256(bytes));
            keeper.writeWaiting();
        }
        return names;
    }

    @Test
    void manifestsAreReadInParallelAndFollowedAsOneAfterTheOther() {
        writeWithManifests(6);
        String serial = verify(verifier().readingAhead(0), CutFinder.none()).manifests();
        assertThat(counting.maxConcurrentBesideReads()).as("the premise: read one after the other").isEqualTo(1);
        counting.besideReadsMeet(2);

        VerifiedPartition parallel = verify(verifier().readingAhead(4), CutFinder.none());

        assertThat(counting.maxConcurrentBesideReads()).as("manifests read at once").isGreaterThan(1).isLessThanOrEqualTo(4);
        assertThat(parallel.manifests()).isEqualTo(serial).startsWith("6, hash chain intact, 6 objects with a recorded SHA-256");
    }

    @Test
    void theFirstBrokenManifestIsNamedWhenTheyAreReadInParallel() throws Exception {
        writeWithManifests(6);
        List<String> manifests = store.listBeside(ManifestName.dir(0));
        Files.writeString(store.besideDir(ManifestName.dir(0)).resolve(manifests.get(2)), "{\"not\": \"a manifest\"}");
        Files.writeString(store.besideDir(ManifestName.dir(0)).resolve(manifests.get(4)), "not json");
        Throwable serial = catchThrowable(() -> verify(verifier().readingAhead(0), CutFinder.none()));
        assertThat(serial).as("the premise: the third manifest is named").isInstanceOf(ChainException.class)
                .hasMessageContaining(manifests.get(2));

        assertThatThrownBy(() -> verify(verifier().readingAhead(4), CutFinder.none())).isInstanceOf(serial.getClass())
                .hasMessage(serial.getMessage());
    }

    /** Releases the held reads once {@code reads} objects were read (the held one included), and a moment more. */
    private static void releaseOnceRead(CountingStore store, int reads) {
        try {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (store.reads < reads && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        store.releaseReads();
    }
}
