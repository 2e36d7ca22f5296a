package dev.mirrorv3.chain.prune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.testkit.FourObjectChain;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prune on a filesystem chain of four objects, offsets 0-399, each record stamped 1,000,000 + its offset (ms). */
class ChainPrunerTest {
    static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();

    @TempDir
    Path root;
    FilesystemStore store;

    @BeforeEach
    void chain() {
        store = new FilesystemStore(root, "b");
        FourObjectChain.write(store, "t", null, (byte) 1, records -> EnvelopeCodecs.forSettings(SETTINGS).encode(records));
    }

    PartitionPrune prune(Store s, long cutMs, boolean dryRun) {
        return new ChainPruner(s, new ChainReader(s, SETTINGS), "t").prune(0, Instant.ofEpochMilli(cutMs), dryRun);
    }

    List<Long> starts() {
        return new ChainReader(store, SETTINGS).listChain(0, OptionalLong.empty()).objects().stream().map(ObjectName::from).toList();
    }

    @Test
    void removesTheObjectsWhoseNewestRecordIsOlderThanTheCutOldestFirstAndRecordsTheNewStart() {
        PartitionPrune dry = prune(store, 1_000_250, true);
        assertThat(dry.removed()).extracting(r -> r.name().from()).containsExactly(0L, 100L);
        assertThat(dry.removed()).allMatch(r -> r.bytes() > 0);
        assertThat(starts()).as("a dry run removes nothing").containsExactly(0L, 100L, 200L, 300L);
        assertThat(ChainStart.recordedByStartRecords(store, 0)).as("nor records anything").isEmpty();

        PartitionPrune done = prune(store, 1_000_250, false);
        assertThat(done.removed()).extracting(r -> r.name().from()).containsExactly(0L, 100L);
        assertThat(done.newStart()).hasValue(200);
        assertThat(done.keptObjects()).isEqualTo(2);
        assertThat(starts()).containsExactly(200L, 300L);
        assertThat(ChainStart.recordedByStartRecords(store, 0)).hasValue(200);
        assertThat(prune(store, 1_000_250, false).removed()).as("a second run has nothing left to do").isEmpty();
    }

    @Test
    void prunesAChainFromBeforeTheStartRuleAndRecordsItsNewStart() throws Exception {
        java.nio.file.Files.delete(root.resolve("b/0/00000000000000000000-00000000000000000099.parquet"));
        assertThat(ChainStart.recordedByStartRecords(store, 0)).as("premise: an earlier version's chain, from 100").isEmpty();
        assertThat(prune(store, 1_000_250, true).removed()).extracting(r -> r.name().from()).containsExactly(100L);
        assertThat(ChainStart.recordedByStartRecords(store, 0)).as("a dry run records nothing").isEmpty();
        assertThat(prune(store, 1_000_250, false).newStart()).hasValue(200);
        assertThat(starts()).as("every reader accepts it from its new start").containsExactly(200L, 300L);
    }

    @Test
    void neverTheNewestObject() {
        PartitionPrune done = prune(store, Long.MAX_VALUE, false);
        assertThat(done.removed()).hasSize(3);
        assertThat(starts()).containsExactly(300L);
    }

    @Test
    void aRunKilledAfterRecordingTheStartIsFinishedByTheNextWhateverItsCut() throws Exception {
        ChainStart.record(store, 0, 300); // what a run with a late cut recorded before it was killed
        store.delete(0, ObjectName.plain(0, 99, EnvelopeFormat.PARQUET).fileName());
        assertThat(starts()).as("readers accept the chain in between").containsExactly(100L, 200L, 300L);
        PartitionPrune again = prune(store, 0, false); // a cut older than every record
        assertThat(again.removed()).extracting(r -> r.name().from()).containsExactly(100L, 200L);
        assertThat(starts()).containsExactly(300L);
    }

    @Test
    void anObjectUnderARetentionIsLeftAndReportedAndTheRunGoesOn() {
        String lockedName = ObjectName.plain(100, 199, EnvelopeFormat.PARQUET).fileName();
        Store locking = new LockingStore(store, lockedName, "COMPLIANCE");
        PartitionPrune done = prune(locking, 1_000_350, false);
        assertThat(done.removed()).extracting(r -> r.name().from()).containsExactly(0L);
        assertThat(done.locked()).singleElement().satisfies(l -> assertThat(l.reason())
                .contains(lockedName, "COMPLIANCE", "until 2030-01-01T00:00:00Z", "a later run deletes it"));
        assertThat(starts()).as("no gap: the locked object and those after it stay").containsExactly(100L, 200L, 300L);
    }
    /** Asked before the start is recorded: the start is where what stays begins, and a dry run reports the lock too. */
    @Test
    void aRetentionAskedBeforeTheStartIsRecordedPutsTheStartAtTheLockedObject() {
        String lockedName = ObjectName.plain(100, 199, EnvelopeFormat.PARQUET).fileName();
        Store locking = new LockingStore(store, lockedName, "GOVERNANCE");
        PartitionPrune dry = prune(locking, 1_000_350, true);
        assertThat(dry.removed()).extracting(r -> r.name().from()).containsExactly(0L);
        assertThat(dry.locked()).singleElement().satisfies(l -> assertThat(l.name().from()).isEqualTo(100L));
        PartitionPrune done = prune(locking, 1_000_350, false);
        assertThat(done.newStart()).hasValue(100);
        assertThat(done.locked()).singleElement().satisfies(l -> assertThat(l.reason()).contains(lockedName, "GOVERNANCE"));
        assertThat(starts()).containsExactly(100L, 200L, 300L);
        assertThat(ChainStart.recordedByStartRecords(store, 0)).as("the start recorded is where what stays begins").hasValue(100);
    }
}
