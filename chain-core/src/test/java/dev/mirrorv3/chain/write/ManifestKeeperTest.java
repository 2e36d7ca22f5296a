package dev.mirrorv3.chain.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import dev.mirrorv3.chain.manifest.ManifestName;
import dev.mirrorv3.chain.manifest.ManifestTrail;
import dev.mirrorv3.chain.manifest.StoredManifest;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.ObjectExistsException;
import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.testkit.DelegatingStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer's side of the manifests: when one is written, what it records, a crash, a retry, a zombie, the probe. */
class ManifestKeeperTest {
    private static final EnvelopeFormat FORMAT = EnvelopeFormat.PARQUET;

    @TempDir
    Path root;

    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    private FilesystemStore store() {
        return new FilesystemStore(root, "m");
    }

    private static ChainListing listing(FilesystemStore store) {
        return new ChainListing(store, 0, Manifest.Kind.CHAIN);
    }

    /** Objects of one offset each, [from, from + count), as a writer commits them; returns their names. */
    private static List<ObjectName> objects(FilesystemStore store, long from, int count) {
        List<ObjectName> names = new ArrayList<>();
        for (long o = from; o < from + count; o++) {
            ObjectName n = ObjectName.plain(o, o, FORMAT);
            store.create(0, n.fileName(), bytes(o));
            names.add(n);
        }
        return names;
    }

    private static byte[] bytes(long offset) {
        return ("object " + offset).getBytes(StandardCharsets.UTF_8);
    }

    /** A keeper opened on the partition as it is now. */
    private ManifestKeeper opened(FilesystemStore store) {
        return new ManifestKeeper(listing(store), listing(store).head(FORMAT), 0, clock);
    }

    /** The keeper's writer commits objects of one offset each, [from, from + count); returns their names. */
    private static List<ObjectName> commit(ManifestKeeper keeper, FilesystemStore store, long from, int count) {
        List<ObjectName> names = objects(store, from, count);
        committed(keeper, names);
        return names;
    }

    /** Tells the keeper its writer committed these objects (made by {@link #objects}). */
    private static void committed(ManifestKeeper keeper, List<ObjectName> names) {
        names.forEach(n -> keeper.committed(n, bytes(n.to()).length, ManifestCodec.sha256(bytes(n.to()))));
    }

    /** A keeper opened on the partition as it is now, whose writer then committed [from, from + count). */
    private ManifestKeeper openedAndCommitted(FilesystemStore store, long from, int count) {
        ManifestKeeper keeper = opened(store);
        commit(keeper, store, from, count);
        return keeper;
    }

    /** A keeper opened on the partition as it is now, whose writer committed [from, from + count) and wrote their manifests. */
    private ManifestKeeper openedAndWritten(FilesystemStore store, long from, int count) {
        ManifestKeeper keeper = openedAndCommitted(store, from, count);
        keeper.writeWaiting();
        return keeper;
    }

    /** A keeper opened on the partition as it is now that lists and writes its manifests through {@code racing}. */
    private ManifestKeeper openedThrough(FailingBeside racing, FilesystemStore store) {
        return new ManifestKeeper(new ChainListing(racing, 0, Manifest.Kind.CHAIN), listing(store).head(FORMAT), 0, clock);
    }

    private Path manifestDir() {
        return root.resolve("m/_manifest/0");
    }

    @Test
    void aManifestIsDueEveryThousandObjectsAfterADayAndWhenThePartitionCloses() {
        FilesystemStore store = store();
        ManifestKeeper keeper = opened(store);
        assertThat(keeper.anyWaiting()).isFalse();
        commit(keeper, store, 0, ManifestKeeper.MAX_OBJECTS - 1);
        long now = clock.millis();
        assertThat(keeper.due(now)).as("999 objects, none a day old").isFalse();
        assertThat(keeper.anyWaiting()).as("what a closing partition writes").isTrue();
        assertThat(keeper.due(now + Duration.ofHours(24).toMillis())).as("the oldest waited a day").isTrue();
        ObjectName last = ObjectName.plain(999, 999, FORMAT);
        store.create(0, last.fileName(), bytes(999));
        keeper.committed(last, bytes(999).length, ManifestCodec.sha256(bytes(999)));
        assertThat(keeper.due(now)).as("1000 objects wait").isTrue();

        keeper.writeWaiting();
        assertThat(keeper.anyWaiting()).isFalse();
        ChainHead head = listing(store).head(FORMAT);
        assertThat(head.manifest()).hasValueSatisfying(m -> {
            assertThat(m.name()).isEqualTo(new ManifestName(0, 999));
            assertThat(m.manifest().objects()).hasSize(1000);
            assertThat(m.manifest().objects().get(5).sha256()).isEqualTo(ManifestCodec.sha256(bytes(5)));
            assertThat(m.manifest().start()).isZero();
        });
        assertThat(head.after()).isEmpty();
        assertThat(head.last()).contains(last);
    }

    @Test
    void aChainWithoutManifestsOpensFromAFullListingAndIsThenGivenOne() {
        FilesystemStore store = store();
        List<ObjectName> legacy = objects(store, 500, 30); // written before manifests; its head was removed before, at 500
        ChainStart.record(store, 0, 500); // by prune, or by the writer that began it there
        ChainHead opened = listing(store).head(FORMAT);
        assertThat(opened.manifest()).isEmpty();
        assertThat(opened.after()).as("a full listing").hasSize(30);
        ManifestKeeper keeper = new ManifestKeeper(listing(store), opened, 0, clock);
        assertThat(keeper.due(clock.millis())).as("given one at once").isTrue();
        keeper.writeWaiting();
        List<ObjectName> later = objects(store, 530, 5);
        committed(keeper, later);
        keeper.writeWaiting();

        ManifestTrail trail = ManifestTrail.read(listing(store));
        assertThat(trail.manifests()).extracting(StoredManifest::name)
                .containsExactly(new ManifestName(500, 529), new ManifestName(530, 534));
        Manifest first = trail.manifests().get(0).manifest();
        assertThat(first.recorded()).as("objects written before manifests: the range, not each one").isFalse();
        assertThat(first.last()).isEqualTo(legacy.get(29));
        assertThat(first.start()).as("the recorded start: the first object present").isEqualTo(500);
        assertThat(trail.manifests().get(1).manifest().previous()).isEqualTo(trail.manifests().get(0).link());
        assertThat(trail.recorded(later.get(0))).isPresent();
        assertThat(trail.recorded(legacy.get(0))).isEmpty();
        assertThat(listing(store).head(FORMAT).after()).as("the next open lists nothing before the newest manifest").isEmpty();
    }

    @Test
    void aCrashBetweenAnObjectAndItsManifestLeavesObjectsTheNextWriterCoversAsARangeWithoutReadingThem() throws IOException {
        FilesystemStore store = store();
        openedAndWritten(store, 0, 10);
        List<ObjectName> unmanifested = objects(store, 10, 3); // committed, then the worker died before their manifest
        assertThat(Files.list(manifestDir()).count()).as("the premise: one manifest, of the first ten").isOne();

        ChainHead head = listing(store).head(FORMAT);
        assertThat(head.after()).containsExactlyElementsOf(unmanifested);
        ManifestKeeper next = new ManifestKeeper(listing(store), head, 0, clock);
        assertThat(next.due(clock.millis())).isTrue();
        long gets = store.requests().count(StoreRequests.Operation.GET);
        next.writeWaiting();
        commit(next, store, 13, 2);
        next.writeWaiting();
        assertThat(store.requests().count(StoreRequests.Operation.GET)).as("no object read back").isEqualTo(gets);
        ManifestTrail trail = ManifestTrail.read(listing(store));
        assertThat(trail.manifests()).extracting(StoredManifest::name)
                .containsExactly(new ManifestName(0, 9), new ManifestName(10, 12), new ManifestName(13, 14));
        assertThat(trail.manifests().get(1).manifest().recorded()).isFalse();
        assertThat(trail.manifests().get(1).manifest().last()).isEqualTo(unmanifested.get(2));
        assertThat(trail.recorded(ObjectName.plain(13, 13, FORMAT))).isPresent();
    }

    @Test
    void aManifestWhoseCreateFailedAfterItLandedIsReissuedWithTheSameBytes() throws IOException {
        FilesystemStore fs = store();
        AtomicBoolean failAfterLanding = new AtomicBoolean(true);
        FailingBeside store = new FailingBeside(fs, failAfterLanding);
        ManifestKeeper keeper = new ManifestKeeper(new ChainListing(store, 0, Manifest.Kind.CHAIN),
                ChainHead.empty(fs.location(0)), 0, clock);
        committed(keeper, objects(fs, 0, 3));
        assertThatThrownBy(keeper::writeWaiting).isInstanceOf(TransientStoreException.class);
        assertThat(Files.list(manifestDir()).map(p -> p.getFileName().toString()).toList()).as("the premise: it landed")
                .containsExactly(new ManifestName(0, 2).fileName());
        committed(keeper, objects(fs, 3, 2)); // committed meanwhile: they go into the next manifest
        keeper.writeWaiting();
        assertThat(ManifestTrail.read(listing(fs)).manifests()).extracting(StoredManifest::name)
                .containsExactly(new ManifestName(0, 2), new ManifestName(3, 4));
    }

    @Test
    void aZombiesManifestIsNeverTakenForTheNewest() {
        FilesystemStore fs = store();
        openedAndWritten(fs, 0, 5);
        ManifestKeeper zombie = openedAndCommitted(fs, 5, 3);
        // The live task opened after the zombie's objects (its partition moved) and wrote one of its own.
        ManifestKeeper live = openedAndCommitted(fs, 8, 1);

        // Written once the live task's are there, the zombie's manifest never lands: the live task's first manifest covers
        // exactly the zombie's objects (it takes it as the newest, nothing left to write), and once the zombie has an object
        // the live one did not find, the live task's next manifest refuses it.
        live.writeWaiting(); // 5-7 (found at open, a range) and 8-8
        zombie.writeWaiting();
        assertThat(ManifestTrail.read(listing(fs)).manifests()).extracting(StoredManifest::name)
                .containsExactly(new ManifestName(0, 4), new ManifestName(5, 7), new ManifestName(8, 8));
        commit(zombie, fs, 9, 1);
        assertThatThrownBy(zombie::writeWaiting).isInstanceOf(ChainChangedException.class)
                .hasMessageContaining(new ManifestName(8, 8).fileName() + " was not written by this task")
                .hasMessageContaining("it covers objects up to " + ObjectName.plain(8, 8, FORMAT) + ", beyond those this task"
                        + " found or wrote");

        // Racing the live task (it listed the manifests just before the live task wrote its own) with a manifest of fewer
        // objects than the live one covers from the same offset, it lands under a name of its own that sorts before the
        // live one's: never the newest, and off the hash chain.
        FilesystemStore fs2 = new FilesystemStore(root, "m2");
        ManifestKeeper old2 = new ManifestKeeper(listing(fs2), ChainHead.empty(fs2.location(0)), 0, clock);
        commit(old2, fs2, 0, 5);
        old2.writeWaiting();
        FailingBeside racing = new FailingBeside(fs2, new AtomicBoolean(false));
        ManifestKeeper zombie2 = openedThrough(racing, fs2);
        commit(zombie2, fs2, 5, 2);
        objects(fs2, 7, 1); // its next object, durable after it decided on its manifest
        ManifestKeeper live2 = openedAndCommitted(fs2, 8, 1);
        racing.beforeCreate = live2::writeWaiting;
        zombie2.writeWaiting();
        assertThat(listing(fs2).newest()).as("the newest is the live task's")
                .hasValueSatisfying(m -> assertThat(m.name()).isEqualTo(new ManifestName(8, 8)));
        ManifestTrail trail = ManifestTrail.read(listing(fs2));
        assertThat(trail.manifests()).extracting(StoredManifest::name)
                .containsExactly(new ManifestName(0, 4), new ManifestName(5, 7), new ManifestName(8, 8));
        assertThat(trail.strays()).extracting(StoredManifest::name).containsExactly(new ManifestName(5, 6));
        assertThat(trail.summary()).contains("not on the hash chain", new ManifestName(5, 6).fileName());
        assertThat(listing(fs2).head(FORMAT).last()).contains(ObjectName.plain(8, 8, FORMAT));
    }

    @Test
    void aLiveTaskThatOpenedBeforeAClosingTasksManifestTakesItAndContinuesTheHashChain() {
        FilesystemStore fs = store();
        openedAndWritten(fs, 0, 5);
        // Connect gave up stopping the old task instance (its stop timed out) and started a new one, which opened the
        // partition and found the old one's last objects after the newest manifest; then the old one closed the partition
        // and wrote their manifest.
        ManifestKeeper closing = openedAndCommitted(fs, 5, 3);
        ManifestKeeper live = opened(fs);
        closing.writeWaiting();
        commit(live, fs, 8, 1);

        live.writeWaiting();

        ManifestTrail trail = ManifestTrail.read(listing(fs));
        assertThat(trail.manifests()).extracting(StoredManifest::name)
                .containsExactly(new ManifestName(0, 4), new ManifestName(5, 7), new ManifestName(8, 8));
        assertThat(trail.strays()).isEmpty();
        assertThat(trail.recorded(ObjectName.plain(6, 6, FORMAT))).as("the closing task's record of its object").isPresent();
        assertThat(trail.recorded(ObjectName.plain(8, 8, FORMAT))).isPresent();
        assertThat(live.newest()).hasValueSatisfying(m -> assertThat(m.name()).isEqualTo(new ManifestName(8, 8)));
    }

    @Test
    void aClosingTasksManifestOfSomeOfTheObjectsFoundIsTakenAndTheRestCoveredAsARange() {
        FilesystemStore fs = store();
        openedAndWritten(fs, 0, 5);
        ManifestKeeper closing = openedAndCommitted(fs, 5, 2);
        objects(fs, 7, 1); // the closing task's last object, durable before the live task listed the partition
        ManifestKeeper live = opened(fs);
        closing.writeWaiting(); // 5-6: its commit of 7 had not finished when it wrote the manifest
        commit(live, fs, 8, 1);

        live.writeWaiting();

        ManifestTrail trail = ManifestTrail.read(listing(fs));
        assertThat(trail.manifests()).extracting(StoredManifest::name).containsExactly(new ManifestName(0, 4),
                new ManifestName(5, 6), new ManifestName(7, 7), new ManifestName(8, 8));
        assertThat(trail.manifests().get(2).manifest().recorded()).as("found at open, covered as a range").isFalse();
        assertThat(trail.strays()).isEmpty();
    }

    @Test
    void anotherWritersManifestThatDoesNotFollowTheNewestOrDiffersFromWhatThisTaskWroteIsRefused() {
        FilesystemStore fs = store();
        openedAndWritten(fs, 0, 5);
        objects(fs, 5, 3);
        ManifestKeeper live = opened(fs); // found 5-7
        Manifest.Link elsewhere = new Manifest.Link(new ManifestName(0, 3).fileName(), ManifestCodec.sha256(new byte[1]));
        foreign(fs, Manifest.unrecorded(Manifest.Kind.CHAIN, 0, 0, elsewhere, objectNames(5, 3), java.util.Map.of()));
        assertThatThrownBy(live::writeWaiting).isInstanceOf(ChainChangedException.class)
                .hasMessageContaining(new ManifestName(5, 7).fileName() + " was not written by this task")
                .hasMessageContaining("it does not follow that manifest but " + new ManifestName(0, 3).fileName());

        FilesystemStore fs2 = new FilesystemStore(root, "m2");
        ManifestKeeper live2 = new ManifestKeeper(listing(fs2), ChainHead.empty(fs2.location(0)), 0, clock);
        commit(live2, fs2, 0, 2);
        List<Manifest.Entry> changed = List.of(new Manifest.Entry(ObjectName.plain(0, 0, FORMAT), bytes(0).length,
                ManifestCodec.sha256(bytes(0))), new Manifest.Entry(ObjectName.plain(1, 1, FORMAT), 3, ManifestCodec.sha256(bytes(7))));
        foreign(fs2, Manifest.recorded(Manifest.Kind.CHAIN, 0, 0, null, changed, java.util.Map.of()));
        assertThatThrownBy(live2::writeWaiting).isInstanceOf(ChainChangedException.class)
                .hasMessageContaining(new ManifestName(0, 1).fileName() + " was not written by this task")
                .hasMessageContaining("its record of " + ObjectName.plain(1, 1, FORMAT) + " (size, SHA-256) differs");
    }

    private static List<ObjectName> objectNames(long from, int count) {
        List<ObjectName> names = new ArrayList<>();
        for (long o = from; o < from + count; o++) {
            names.add(ObjectName.plain(o, o, FORMAT));
        }
        return names;
    }

    /** Another writer's manifest, created as a writer creates one. */
    private static void foreign(FilesystemStore store, Manifest m) {
        listing(store).create(m.range(), ManifestCodec.encode(m), false);
    }

    @Test
    void aZombieWritingTheLiveTasksManifestNameIsRefusedByTheNoOverwriteCreate() {
        FilesystemStore fs = store();
        openedAndWritten(fs, 0, 5);
        ManifestKeeper live = openedAndCommitted(fs, 5, 2);
        // The zombie checked the manifests' tail before the live task created the same name (a race the listing cannot close).
        FailingBeside racing = new FailingBeside(fs, new AtomicBoolean(false));
        ManifestKeeper zombie = openedThrough(racing, fs);
        racing.beforeCreate = live::writeWaiting;
        assertThatThrownBy(zombie::writeWaiting).isInstanceOf(ObjectExistsException.class)
                .hasMessageContaining(new ManifestName(5, 6).fileName()).hasMessageContaining("refusing to overwrite it");
        assertThat(ManifestTrail.read(listing(fs)).manifests()).extracting(StoredManifest::name)
                .containsExactly(new ManifestName(0, 4), new ManifestName(5, 6));
    }

    @Test
    void aManifestAnotherWriterAddedAfterTheNewestStopsTheWritersNextManifestNamingIt() {
        FilesystemStore store = store();
        ManifestKeeper live = openedAndWritten(store, 0, 5);
        openedAndWritten(store, 5, 1);
        live.committed(ObjectName.plain(6, 6, FORMAT), 1, ManifestCodec.sha256(new byte[1]));
        assertThatThrownBy(live::writeWaiting).isInstanceOf(ChainChangedException.class)
                .hasMessageContaining(manifestDir().resolve(new ManifestName(5, 5).fileName()) + " was not written by this task")
                .hasMessageContaining("the newest manifest it wrote or found is " + new ManifestName(0, 4).fileName());
    }

    @Test
    void theProbeFindsAMissingObjectOfAnyManifestWithinOneCheckPerManifest() throws IOException {
        FilesystemStore store = store();
        ManifestKeeper keeper = openedAndWritten(store, 0, 2500); // manifests 0-999, 1000-1999, 2000-2499
        Files.delete(root.resolve("m/0").resolve(ObjectName.plain(1500, 1500, FORMAT).fileName()));
        keeper.check(); // the newest: 2000-2499
        StoreRequests requests = store.requests();
        long lists = requests.count(StoreRequests.Operation.LIST);
        long gets = requests.count(StoreRequests.Operation.GET);
        assertThatThrownBy(keeper::check).as("the second check probes the manifest before it").isInstanceOf(ChainChangedException.class)
                .hasMessageContaining(ObjectName.plain(1500, 1500, FORMAT).fileName() + " is gone, and the manifest")
                .hasMessageContaining(new ManifestName(1000, 1999).fileName());
        assertThat(requests.count(StoreRequests.Operation.LIST) - lists).as("the probe's listing").isOne();
        assertThat(requests.count(StoreRequests.Operation.GET) - gets).as("the probed manifest").isOne();
    }

    @Test
    void aHeadRemovedOnPurposeIsNotMissing() throws IOException {
        FilesystemStore store = store();
        ManifestKeeper keeper = openedAndWritten(store, 0, 30);
        for (long o = 0; o < 10; o++) {
            Files.delete(root.resolve("m/0").resolve(ObjectName.plain(o, o, FORMAT).fileName()));
        }
        keeper.check();
        keeper.check();
        Files.delete(root.resolve("m/0").resolve(ObjectName.plain(20, 20, FORMAT).fileName()));
        assertThatThrownBy(keeper::check).isInstanceOf(ChainChangedException.class)
                .hasMessageContaining(ObjectName.plain(20, 20, FORMAT).fileName() + " is gone");
    }

    /** A filesystem store whose manifest creates fail once after landing (a lost reply), and may run a step first. */
    private static final class FailingBeside extends DelegatingStore {
        private final AtomicBoolean failAfterLanding;
        Runnable beforeCreate = () -> { };

        FailingBeside(FilesystemStore delegate, AtomicBoolean failAfterLanding) {
            super(delegate);
            this.failAfterLanding = failAfterLanding;
        }

        @Override
        public void createBeside(String dir, String name, byte[] data) {
            beforeCreate.run();
            super.createBeside(dir, name, data);
            if (failAfterLanding.getAndSet(false)) {
                throw new TransientStoreException("injected: the reply was lost", new IOException("injected"));
            }
        }
    }
}
