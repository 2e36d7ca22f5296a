package dev.mirrorv3.chain.prune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import dev.mirrorv3.chain.manifest.ManifestTrail;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prune of a compaction=log partition on the filesystem: four snapshots taking records stamped 1000 to 4000 ms. */
class SnapshotPrunerTest {
    static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();

    @TempDir
    Path dir;
    FilesystemStore store;
    SnapshotReader reader;
    List<ObjectName> written = new ArrayList<>();

    @BeforeEach
    void snapshots() {
        store = new FilesystemStore(dir.resolve("root"), "b");
        reader = new SnapshotReader(store, SETTINGS, KeyRing.empty());
        SnapshotWriter w = new SnapshotWriter(store, "kv", 0, new SnapshotWriter.Settings(SETTINGS, new ParquetCodec(SETTINGS), reader,
                new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000), Clock.systemUTC(), 1 << 20),
                ChainHead.empty(store.location(0)), 0, dir.resolve("spill"));
        for (long o = 0; o < 4; o++) {
            w.append(new BackupRecord("kv", 0, o, 1_000 * (o + 1), TimestampType.CREATE_TIME, ("k" + o).getBytes(StandardCharsets.UTF_8),
                    new byte[] {1}, List.of()));
            written.add(w.flush(FlushTrigger.TIME).orElseThrow().name());
            if (o == 1) {
                w.manifests().writeWaiting(); // a manifest recording the first two snapshots
            }
        }
    }

    PartitionPrune prune(Store s, long cutMs, boolean dryRun) {
        return new SnapshotPruner(s, new SnapshotReader(s, SETTINGS, KeyRing.empty())).prune(0, Instant.ofEpochMilli(cutMs), dryRun);
    }

    List<ObjectName> left() {
        return reader.list(0).objects();
    }

    @Test
    void removesTheSnapshotsOlderThanTheOneARestoreAtTheCutTakes() {
        PartitionPrune dry = prune(store, 2_500, true);
        assertThat(dry.removed()).extracting(PartitionPrune.Removed::name).containsExactly(written.get(0));
        assertThat(left()).as("a dry run removes nothing").hasSize(4);
        PartitionPrune done = prune(store, 2_500, false);
        assertThat(done.removed()).extracting(PartitionPrune.Removed::name).containsExactly(written.get(0));
        assertThat(done.newStart()).as("gaps below the newest are allowed: no start is recorded").isEmpty();
        assertThat(done.keptObjects()).isEqualTo(3);
        assertThat(done.keptBytes()).isPositive();
        assertThat(left()).containsExactlyElementsOf(written.subList(1, 4));
    }

    @Test
    void theSinksOpenAndARestoresManifestCheckAcceptTheSeriesAfterTheNewestManifestsLastSnapshotWent() {
        assertThat(reader.listing(0).newest()).as("premise: a manifest records the first two snapshots").get()
                .satisfies(m -> assertThat(m.manifest().last()).isEqualTo(written.get(1)));
        assertThat(prune(store, 3_500, false).removed()).extracting(PartitionPrune.Removed::name)
                .containsExactly(written.get(0), written.get(1));
        assertThat(reader.head(0).nextOffset()).as("the sink's open continues after the newest").hasValue(4);
        ManifestTrail.read(reader.listing(0)).checkObject(written.get(3), sha256(written.get(3)), store.size(0,
                written.get(3).fileName()));
    }

    private String sha256(ObjectName name) {
        return ManifestCodec.sha256(store.read(0, name.fileName()));
    }

    @Test
    void neverTheNewestAndNothingWhenNoneIsAtOrBeforeTheCut() {
        assertThat(prune(store, 500, false).removed()).as("every snapshot took a record stamped after the cut").isEmpty();
        assertThat(prune(store, Long.MAX_VALUE, false).removed()).hasSize(3);
        assertThat(left()).containsExactly(written.get(3));
        assertThat(prune(store, Long.MAX_VALUE, false).removed()).as("an idle partition's only snapshot stays").isEmpty();
    }

    @Test
    void aSnapshotUnderARetentionIsLeftAndReportedAndTheOthersGo() {
        String lockedName = written.get(1).fileName();
        Store locking = new LockingStore(store, lockedName, "COMPLIANCE");
        PartitionPrune done = prune(locking, 3_500, false);
        assertThat(done.locked()).singleElement().satisfies(l -> assertThat(l.reason()).contains(lockedName, "COMPLIANCE"));
        assertThat(done.removed()).extracting(PartitionPrune.Removed::name).containsExactly(written.get(0));
        assertThat(left()).containsExactly(written.get(1), written.get(2), written.get(3));
    }
}
