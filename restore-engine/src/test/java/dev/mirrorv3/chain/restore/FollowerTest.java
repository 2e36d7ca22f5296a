package dev.mirrorv3.chain.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.MissingKeysException;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import dev.mirrorv3.chain.manifest.ManifestName;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FollowerTest {
    private static final EnvelopeSettings NDJSON = new EnvelopeSettings(dev.mirrorv3.chain.envelope.EnvelopeFormat.NDJSON,
            dev.mirrorv3.chain.envelope.Compression.UNCOMPRESSED, dev.mirrorv3.chain.envelope.ValueType.BYTES,
            dev.mirrorv3.chain.envelope.ValueType.BYTES);

    @TempDir
    Path root;
    FilesystemStore store;

    @BeforeEach
    void setUp() {
        store = new FilesystemStore(root, "b");
    }

    private void write(long from, long to, LongPredicate present) {
        List<BackupRecord> records = new ArrayList<>();
        for (long o = from; o <= to; o++) {
            if (present.test(o)) {
                records.add(record(o));
            }
        }
        store.create(0, ObjectName.plain(from, to, NDJSON.format()).fileName(), EnvelopeCodecs.forSettings(NDJSON).encode(records));
    }

    /** Every offset of 0-299, in the objects 0-99, 100-199 and 200-299. */
    private void writeOffsets0To299InThreeObjects() {
        write(0, 99, o -> true);
        write(100, 199, o -> true);
        write(200, 299, o -> true);
    }

    @Test
    void aChainShortenedByHandIsRefusedWithTheOneStartRulesMessage() throws Exception {
        writeOffsets0To299InThreeObjects();
        writeManifest(0, 299); // a chain under the rule (its writer gave it a manifest), not one from before it
        java.nio.file.Files.delete(root.resolve("b/0/" + ObjectName.plain(0, 99, NDJSON.format()).fileName()));
        assertThatThrownBy(() -> follower(OffsetMode.RENUMBER).resume(0)).isInstanceOf(ChainException.class)
                .hasMessageContaining("starts at offset 100 (00000000000000000100-00000000000000000199.ndjson), not at 0 nor at its"
                        + " recorded start");
    }

    @Test
    void aChainFromBeforeTheRuleThatStartsAfter0IsRefusedAsBeforeUnlessChainStartSaysWhere() throws Exception {
        write(100, 199, o -> true);
        write(200, 299, o -> true);
        assertThatThrownBy(() -> follower(OffsetMode.RENUMBER).resume(0)).isInstanceOf(ChainException.class)
                .hasMessageContaining("starts at offset 100 (00000000000000000100-00000000000000000199.ndjson), not at 0; if objects"
                        + " before it were removed on purpose, pass --chain-start 100");
        Follower f = new Follower(store, NDJSON, "t", 0, OffsetMode.RENUMBER, 100);
        f.resume(0);
        assertThat(f.next()).first().extracting(r -> r.record().offset()).isEqualTo(100L);
        assertThat(ChainStart.recordedByStartRecords(store, 0)).as("a reader records nothing").isEmpty();
    }

    private void writeManifest(long from, long to) {
        Manifest m = new Manifest(Manifest.Kind.CHAIN, 0, from, new ManifestName(from, to), null, List.of(),
                ObjectName.plain(to - 99, to, NDJSON.format()), Map.of());
        store.createBeside(ManifestName.dir(0), new ManifestName(from, to).fileName(), ManifestCodec.encode(m));
    }

    @Test
    void aChainPrunedToItsRecordedStartIsFollowed() throws Exception {
        write(0, 99, o -> true);
        write(100, 199, o -> true);
        dev.mirrorv3.chain.manifest.ChainStart.record(store, 0, 100);
        java.nio.file.Files.delete(root.resolve("b/0/" + ObjectName.plain(0, 99, NDJSON.format()).fileName()));
        Follower f = follower(OffsetMode.RENUMBER);
        f.resume(0);
        assertThat(f.next()).first().extracting(r -> r.record().offset()).isEqualTo(100L);
    }

    /**
     * A standby behind the start a prune recorded: the objects it needs next are gone, listed already (a missing object)
     * or not yet (a gap), or it is placed again below the start. Each time it says so, not "a gap in the backup".
     */
    @Test
    void aFollowerBehindTheStartAPruneRecordedSaysWhereItIsAndWhereTheChainStarts() throws Exception {
        writeOffsets0To299InThreeObjects();
        Follower listedAhead = follower(OffsetMode.PRESERVE);
        listedAhead.resume(0);
        assertThat(listedAhead.next()).hasSize(100);
        Follower caughtUp = follower(OffsetMode.PRESERVE);
        caughtUp.resume(300);
        write(300, 399, o -> true);
        write(400, 499, o -> true);
        ChainStart.record(store, 0, 400); // what prune does, then it deletes
        for (long from = 0; from < 400; from += 100) {
            java.nio.file.Files.delete(root.resolve("b/0/" + ObjectName.plain(from, from + 99, NDJSON.format()).fileName()));
        }
        String expected = "now starts at offset 400 (its recorded start: mirror-v3 prune removed the objects before it)";
        assertThatThrownBy(listedAhead::next).as("its next object was listed before the prune").isInstanceOf(ChainException.class)
                .hasMessageContaining(expected).hasMessageContaining("next record is the backup's offset 100 (target offset 100)")
                .hasMessageContaining("offsets 100-399 are no longer in the backup");
        assertThatThrownBy(caughtUp::next).as("listing after its end finds the chain further on").isInstanceOf(ChainException.class)
                .hasMessageContaining(expected).hasMessageContaining("next record is the backup's offset 300 (target offset 300)");
        assertThatThrownBy(() -> follower(OffsetMode.PRESERVE).resume(300)).as("placed again, as after a restart")
                .isInstanceOf(ChainException.class).hasMessageContaining(expected)
                .hasMessageContaining("into a new, empty topic with offsets=renumber (it begins at offset 400)");
    }

    /** Renumber counts from where the chain starts: after a prune moved it, a failed check of the last record says so. */
    @Test
    void aRenumberFollowerPlacedAgainAfterAPruneExplainsAFailedCheckOfTheTargetsLastRecord() throws Exception {
        writeOffsets0To299InThreeObjects();
        Follower before = follower(OffsetMode.RENUMBER);
        before.resume(150);
        assertThat(before.renumberAfterPrune()).as("nothing pruned").isEmpty();
        ChainStart.record(store, 0, 100);
        java.nio.file.Files.delete(root.resolve("b/0/" + ObjectName.plain(0, 99, NDJSON.format()).fileName()));
        Follower after = follower(OffsetMode.RENUMBER);
        assertThat(after.resume(150)).as("the count now starts at 100: the 150th record is offset 249").get()
                .extracting(BackupRecord::offset).isEqualTo(249L);
        assertThat(after.renumberAfterPrune()).contains("offsets=renumber places a standby by counting",
                "now starts at offset 100 (mirror-v3 prune removed the objects before it)");
        Follower preserve = follower(OffsetMode.PRESERVE);
        preserve.resume(150);
        assertThat(preserve.renumberAfterPrune()).as("preserve places by the offset itself").isEmpty();
    }

    private static BackupRecord record(long o) {
        return new BackupRecord("t", 0, o, 1000 + o, TimestampType.CREATE_TIME, ("k" + o).getBytes(StandardCharsets.UTF_8),
                ("v" + o).getBytes(StandardCharsets.UTF_8), List.of(new RecordHeader("h", null)));
    }

    private Follower follower(OffsetMode mode) {
        return new Follower(store, NDJSON, "t", 0, mode, 0);
    }

    private static List<Long> targetOffsets(List<Follower.Restored> batch) {
        return batch.stream().map(Follower.Restored::targetOffset).toList();
    }

    @Test
    void preserveResumesAtTheHighWatermarkInsideAnObjectAndReturnsTheRecordBefore() {
        write(0, 9, o -> true);
        write(10, 19, o -> true);
        Follower f = follower(OffsetMode.PRESERVE);
        assertThat(f.resume(14)).contains(record(13));
        assertThat(targetOffsets(f.next())).containsExactly(14L, 15L, 16L, 17L, 18L, 19L);
        assertThat(f.next()).isEmpty();
        write(20, 24, o -> true);
        assertThat(f.next()).extracting(r -> r.record().offset()).containsExactly(20L, 21L, 22L, 23L, 24L);
    }

    /** The sink's writer goes on while the follower follows: a manifest written in between changes nothing it lists. */
    @Test
    void theFollowerFollowsTheSinksWriterAcrossANewManifestAndAfterARestart() {
        ChainWriter writer = new ChainWriter(store, 0, EnvelopeCodecs.forSettings(NDJSON), new FlushPolicy(5, 1 << 20, 60_000),
                Clock.systemUTC(), ChainHead.empty(store.location(0)), 0);
        Follower f = follower(OffsetMode.PRESERVE);
        f.resume(0);
        appendAndFlush(writer, 0, 10);
        assertThat(f.next()).hasSize(5);
        writer.manifests().writeWaiting(); // as when the partition closes: 0-9 recorded
        assertThat(store.listBeside(ManifestName.dir(0))).as("the premise: a manifest").hasSize(1);
        assertThat(f.next()).extracting(r -> r.record().offset()).containsExactly(5L, 6L, 7L, 8L, 9L);
        appendAndFlush(writer, 10, 20);
        writer.manifests().writeWaiting();
        appendAndFlush(writer, 20, 25);
        List<Long> followed = new ArrayList<>();
        for (List<Follower.Restored> batch = f.next(); !batch.isEmpty(); batch = f.next()) {
            batch.forEach(r -> followed.add(r.record().offset()));
        }
        assertThat(followed).hasSize(15).startsWith(10L).endsWith(24L);

        Follower restarted = follower(OffsetMode.PRESERVE);
        assertThat(restarted.resume(22)).contains(record(21));
        assertThat(targetOffsets(restarted.next())).containsExactly(22L, 23L, 24L);
    }

    private static void appendAndFlush(ChainWriter writer, long from, long to) {
        for (long o = from; o < to; o++) {
            writer.append(record(o));
        }
        while (writer.bufferedRecords() > 0) {
            writer.flush(FlushTrigger.RECORDS);
        }
    }

    @Test
    void aTimestampCutHandsOutThePrefixOnlyOnceARecordAfterItIsSeenAndThenNothingAcrossAResume() {
        write(0, 9, o -> true); // stamped 1000 + offset
        Follower f = follower(OffsetMode.PRESERVE).until(new RestoreCut(1015L, Map.of()));
        f.resume(0);
        assertThat(targetOffsets(f.next())).hasSize(10);
        assertThat(f.next()).isEmpty();
        assertThat(f.cutReached()).as("no record after the cut seen yet: the backup may still grow up to it").isFalse();
        write(10, 19, o -> true);
        assertThat(f.next()).extracting(r -> r.record().offset()).containsExactly(10L, 11L, 12L, 13L, 14L, 15L);
        assertThat(f.cutReached()).isTrue();
        assertThat(f.cut().lastOffset()).isEqualTo(15);
        assertThat(f.cut().firstExcludedOffset()).isEqualTo(16);
        write(20, 29, o -> true);
        assertThat(f.next()).isEmpty();

        Follower restarted = follower(OffsetMode.PRESERVE).until(new RestoreCut(1015L, Map.of()));
        assertThat(restarted.resume(16)).contains(record(15));
        assertThat(restarted.next()).isEmpty();
        assertThat(restarted.cutReached()).isTrue();
        assertThat(restarted.next()).isEmpty();
    }

    /**
     * A cut set on a standby that has followed past it (the target's last record is after it) is not reached: the target
     * holds records after it, and resume says so, naming the first of them, rather than report the cut as reached.
     */
    @Test
    void aTargetPastTheCutIsRefusedAtResume() {
        write(0, 9, o -> true); // stamped 1000 + offset
        write(10, 19, o -> true);
        assertThatThrownBy(() -> follower(OffsetMode.PRESERVE).until(new RestoreCut(1012L, Map.of())).resume(16))
                .isInstanceOf(ChainException.class)
                .hasMessageContaining("the target holds records after the cut (offset 13 stamped 1970-01-01T00:00:01.013Z)")
                .hasMessageContaining("until timestamp 1970-01-01T00:00:01.012Z").hasMessageContaining("into a new topic");
        assertThatThrownBy(() -> follower(OffsetMode.PRESERVE).until(new RestoreCut(null, Map.of(0, 9L))).resume(12))
                .hasMessageContaining("the target holds records after the cut (offset 10 stamped 1970-01-01T00:00:01.010Z)");
        write(20, 29, o -> o != 21 && o != 22); // renumber: target offset 22 is backup offset 24
        assertThatThrownBy(() -> follower(OffsetMode.RENUMBER).until(new RestoreCut(null, Map.of(0, 23L))).resume(23))
                .hasMessageContaining("the target holds records after the cut (offset 22 stamped 1970-01-01T00:00:01.024Z,"
                        + " backup offset 24)");

        Follower atTheCut = follower(OffsetMode.PRESERVE).until(new RestoreCut(null, Map.of(0, 12L)));
        assertThat(atTheCut.resume(13)).as("a target that ends at the cut is frozen there").contains(record(12));
        assertThat(atTheCut.next()).isEmpty();
        assertThat(atTheCut.cutReached()).isTrue();
        assertThat(atTheCut.cut().lastOffset()).isEqualTo(12);
    }

    /**
     * With preserve the placing reads only the object holding the target's last record, so a timestamp cut leaves the
     * earlier records to the caller (StandbyCut): by the backup, exact as the cut itself (a record stamped after the cut in
     * an earlier object fails it, one in an object at or after the target's end does not).
     */
    @Test
    void aTimestampCutWithPreserveLeavesTheEarlierRecordsToTheStandbyCutWhichChecksEachOne() {
        List<BackupRecord> early = new ArrayList<>(records(0, 9));
        early.set(5, new BackupRecord("t", 0, 5, 1100L, TimestampType.CREATE_TIME, early.get(5).key(), early.get(5).value(), List.of()));
        store.create(0, ObjectName.plain(0, 9, NDJSON.format()).fileName(), EnvelopeCodecs.forSettings(NDJSON).encode(early));
        write(10, 19, o -> true); // stamped 1010-1019: inside a cut at 1050
        write(20, 29, o -> true);
        Follower f = follower(OffsetMode.PRESERVE).until(new RestoreCut(1050L, Map.of()));
        assertThat(f.resume(20)).as("the placing reads only 10-19").contains(record(19));
        StandbyCut cut = f.standbyCut();
        assertThat(cut.uncheckedBeforeTail()).isTrue();
        assertThat(cut.timestampMs()).isEqualTo(1050L);
        assertThatThrownBy(() -> cut.requireBackupInsideBefore(20)).isInstanceOf(ChainException.class)
                .hasMessageContaining("the target holds records after the cut (offset 5 stamped 1970-01-01T00:00:01.100Z)")
                .hasMessageContaining("before the target's end (high watermark 20)");
        assertThat(cut.targetPast(5, 1100, 20)).hasMessageContaining("(offset 5 stamped 1970-01-01T00:00:01.100Z)");
        assertThatCode(() -> cut.requireBackupInsideBefore(5)).as("the target ends before the late record").doesNotThrowAnyException();
        assertThat(follower(OffsetMode.RENUMBER).until(new RestoreCut(1050L, Map.of())).standbyCut().uncheckedBeforeTail())
                .as("renumber's placing reads every record before the target's end").isFalse();
        assertThat(follower(OffsetMode.PRESERVE).until(new RestoreCut(null, Map.of(0, 12L))).standbyCut().uncheckedBeforeTail())
                .as("an offset cut is exact: offsets rise").isFalse();
    }

    @Test
    void anOffsetCutInsideAnObjectStopsAtItWithRenumber() {
        write(0, 9, o -> o != 4);
        write(10, 19, o -> true);
        Follower f = follower(OffsetMode.RENUMBER).until(new RestoreCut(null, Map.of(0, 12L)));
        f.resume(0);
        assertThat(targetOffsets(f.next())).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
        assertThat(f.next()).extracting(r -> r.record().offset()).containsExactly(10L, 11L, 12L);
        assertThat(f.cutReached()).isTrue();
        assertThat(f.next()).isEmpty();
    }

    @Test
    void renumberCountsRecordsAcrossHolesAndObjects() {
        write(0, 9, o -> o % 2 == 1); // 5 records
        write(10, 19, o -> o % 2 == 1); // 5 records
        Follower f = follower(OffsetMode.RENUMBER);
        assertThat(f.resume(7)).contains(record(13)); // the 7th record (index 6) is offset 13
        List<Follower.Restored> batch = f.next();
        assertThat(targetOffsets(batch)).containsExactly(7L, 8L, 9L);
        assertThat(batch).extracting(r -> r.record().offset()).containsExactly(15L, 17L, 19L);
        assertThat(f.resume(5)).as("at an object boundary").contains(record(9));
        assertThat(targetOffsets(f.next())).containsExactly(5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void renumberKeepsItsPositionAcrossATransientFailureInsteadOfReReadingTheChain() {
        write(0, 9, o -> o % 2 == 1); // the i-th record (from 0) is offset 2i + 1
        write(10, 19, o -> o % 2 == 1);
        write(20, 29, o -> o % 2 == 1);
        CountingStore counting = new CountingStore(store);
        Follower f = new Follower(counting, NDJSON, "t", 0, OffsetMode.RENUMBER, 0);
        assertThat(f.resume(7)).contains(record(13));
        assertThat(targetOffsets(f.next())).containsExactly(7L, 8L, 9L);
        assertThat(targetOffsets(f.next())).containsExactly(10L, 11L, 12L, 13L, 14L);
        write(30, 39, o -> o % 2 == 1);
        counting.failReads = 1;
        assertThatThrownBy(f::next).isInstanceOf(TransientStoreException.class);

        int before = counting.reads;
        assertThat(f.isAt(15)).isTrue();
        assertThat(f.resume(15)).as("the record before the position, for the target's last record").contains(record(29));
        assertThat(counting.reads - before).as("objects read to resume where it was").isZero();
        List<Follower.Restored> batch = f.next();
        assertThat(targetOffsets(batch)).containsExactly(15L, 16L, 17L, 18L, 19L);
        assertThat(batch).extracting(r -> r.record().offset()).containsExactly(31L, 33L, 35L, 37L, 39L);
        assertThat(counting.reads - before).as("only the new object").isEqualTo(1);

        assertThat(f.isAt(12)).isFalse();
        assertThat(f.resume(12)).as("another high watermark: positioned from the chain again").contains(record(23));
        assertThat(counting.reads - before).isEqualTo(1 + 3);
        assertThat(targetOffsets(f.next())).containsExactly(12L, 13L, 14L);
    }

    @Test
    void aResumeThatFailedHalfWayIsDoneAgainInFull() {
        write(0, 9, o -> o % 2 == 1);
        write(10, 19, o -> o % 2 == 1);
        CountingStore counting = new CountingStore(store);
        Follower f = new Follower(counting, NDJSON, "t", 0, OffsetMode.RENUMBER, 0);
        f.resume(0);
        assertThat(f.isAt(0)).isTrue();
        assertThat(f.next()).hasSize(5);
        counting.reads = 0;
        counting.failReads = 2; // the second object's read in next(), then the first object's read in the resume
        assertThatThrownBy(f::next).isInstanceOf(TransientStoreException.class);
        assertThatThrownBy(() -> f.resume(7)).isInstanceOf(TransientStoreException.class);
        assertThat(f.isAt(7)).as("a resume that failed places the follower nowhere").isFalse();
        assertThat(f.resume(7)).contains(record(13));
        assertThat(counting.reads).isEqualTo(2);
        assertThat(targetOffsets(f.next())).containsExactly(7L, 8L, 9L);
    }

    @Test
    void preserveKeepsItsPositionAcrossATransientFailureToo() {
        write(0, 9, o -> true);
        write(10, 19, o -> true);
        CountingStore counting = new CountingStore(store);
        Follower f = new Follower(counting, NDJSON, "t", 0, OffsetMode.PRESERVE, 0);
        assertThat(f.resume(0)).isEmpty();
        assertThat(targetOffsets(f.next())).hasSize(10);
        counting.failReads = 1;
        assertThatThrownBy(f::next).isInstanceOf(TransientStoreException.class);
        int before = counting.reads;
        assertThat(f.resume(10)).contains(record(9));
        assertThat(counting.reads).isEqualTo(before);
        assertThat(f.next()).extracting(r -> r.record().offset()).containsExactly(10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L, 18L, 19L);
    }

    @Test
    void aTargetPastTheBackupIsRefused() {
        write(0, 9, o -> o != 3);
        assertThatThrownBy(() -> follower(OffsetMode.PRESERVE).resume(11)).isInstanceOf(ChainException.class)
                .hasMessageContaining("the target is past the backup").hasMessageContaining("ends at offset 9");
        assertThatThrownBy(() -> follower(OffsetMode.RENUMBER).resume(10)).hasMessageContaining("the backup holds 9 records");
    }

    @Test
    void preserveRefusesATargetWhoseLastRecordIsAtAHole() {
        write(0, 9, o -> o != 3);
        assertThatThrownBy(() -> follower(OffsetMode.PRESERVE).resume(4))
                .hasMessageContaining("the target holds records that are not this backup's");
    }

    @Test
    void preserveStopsBeforeAHoleAndFailsOnTheNextCall() {
        write(0, 9, o -> o != 5);
        Follower f = follower(OffsetMode.PRESERVE);
        assertThat(f.resume(0)).isEmpty();
        assertThat(targetOffsets(f.next())).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThatThrownBy(f::next).isInstanceOf(TargetOffsets.Hole.class).hasMessageContaining("hole at offset 5");
    }

    @Test
    void newObjectsMustContinueTheChain() {
        write(0, 9, o -> true);
        Follower f = follower(OffsetMode.RENUMBER);
        f.resume(10);
        assertThat(f.next()).isEmpty();
        write(15, 19, o -> true);
        assertThatThrownBy(f::next).isInstanceOf(ChainException.Gap.class).hasMessageContaining("offsets 10-14 are in no object");
    }

    @Test
    void anEmptyBackupIsWaitedForThenFollowedFromTheChainStart() {
        Follower f = follower(OffsetMode.PRESERVE);
        assertThat(f.resume(0)).isEmpty();
        assertThat(f.next()).isEmpty();
        assertThat(f.chainSeen()).isFalse();
        write(0, 2, o -> true);
        assertThat(targetOffsets(f.next())).containsExactly(0L, 1L, 2L);
        assertThat(f.chainSeen()).isTrue();
    }

    @Test
    void tellsTheBackupsEndAndItsNewestRecordReadingAheadOnlyWhenBehindAndAtMostOncePerInterval() {
        write(0, 9, o -> true);
        write(10, 19, o -> true);
        write(20, 29, o -> o != 25);
        CountingStore counting = new CountingStore(store);
        Follower f = new Follower(counting, NDJSON, "t", 0, OffsetMode.RENUMBER, 0);
        assertThat(f.resume(0)).isEmpty();
        assertThat(f.backupEnd()).isEqualTo(30);
        assertThat(f.newestTimestampMs(1_000, 30_000)).as("the newest object's last record, read ahead").hasValue(1029);
        assertThat(f.newestTimestampMs(1_000, 30_000)).hasValue(1029);
        assertThat(counting.reads).isEqualTo(1);
        assertThat(f.next()).hasSize(10);
        assertThat(f.next()).hasSize(10);
        assertThat(f.next()).hasSize(9);
        assertThat(f.objectsRead()).isEqualTo(counting.reads).isEqualTo(4);

        write(30, 34, o -> true);
        assertThat(f.next()).hasSize(5);
        assertThat(f.backupEnd()).isEqualTo(35);
        assertThat(f.newestTimestampMs(2_000, 30_000)).as("from the follower's own read of the one new object").hasValue(1034);
        assertThat(f.objectsRead()).isEqualTo(counting.reads).isEqualTo(5);
        assertThat(f.next()).isEmpty();
        assertThat(f.backupEnd()).isEqualTo(35);

        write(35, 39, o -> true);
        write(40, 44, o -> true);
        assertThat(f.next()).hasSize(5);
        assertThat(f.backupEnd()).isEqualTo(45);
        assertThat(f.newestTimestampMs(30_999, 30_000)).as("within the interval: the newest record read").hasValue(1039);
        assertThat(counting.reads).isEqualTo(6);
        assertThat(f.newestTimestampMs(31_000, 30_000)).as("the interval has passed: read ahead").hasValue(1044);
        assertThat(counting.reads).isEqualTo(7);
        assertThat(f.next()).hasSize(5);
        assertThat(f.newestTimestampMs(61_000, 30_000)).as("known: nothing to read").hasValue(1044);
        assertThat(f.objectsRead()).isEqualTo(counting.reads).isEqualTo(8);
    }

    @Test
    void aNewestObjectThatCannotBeReadAheadIsLeftToTheReadInOrder() {
        write(0, 9, o -> true);
        Follower f = follower(OffsetMode.PRESERVE);
        f.resume(10);
        assertThat(f.newestTimestampMs(0, 0)).hasValue(1009);
        write(10, 19, o -> true);
        store.create(0, ObjectName.plain(20, 29, NDJSON.format()).fileName(), "not ndjson".getBytes(StandardCharsets.UTF_8));
        assertThat(targetOffsets(f.next())).hasSize(10).startsWith(10L);
        assertThat(f.backupEnd()).isEqualTo(30);
        assertThat(f.newestTimestampMs(0, 0)).as("the newest record read").hasValue(1019);
        assertThatThrownBy(f::next).as("the object's own read, in order").isInstanceOf(RuntimeException.class);
    }

    @Test
    void anEmptyBackupHasItsEndAtTheChainStart() {
        Follower f = new Follower(store, NDJSON, "t", 0, OffsetMode.PRESERVE, 100);
        f.resume(0);
        assertThat(f.backupEnd()).isEqualTo(100);
        assertThat(f.newestTimestampMs(0, 0)).isEmpty();
    }

    @Test
    void recordMatchComparesKeyValueHeadersAndTimestamp() {
        BackupRecord b = record(5);
        BackupRecord sameWithHeader = new BackupRecord("target", 0, 2, 1005L, TimestampType.CREATE_TIME, b.key(), b.value(),
                List.of(new RecordHeader("h", null), new RecordHeader("orig", "5".getBytes(StandardCharsets.UTF_8))));
        assertThat(RecordMatch.difference(b, "orig", sameWithHeader, true)).isEmpty();
        assertThat(RecordMatch.difference(b, null, sameWithHeader, true)).get().asString().contains("headers differ");
        BackupRecord restamped = new BackupRecord("target", 0, 2, 99L, TimestampType.CREATE_TIME, b.key(), b.value(), b.headers());
        assertThat(RecordMatch.difference(b, null, restamped, true)).get().asString().contains("timestamp differs");
        assertThat(RecordMatch.difference(b, null, restamped, false)).as("LogAppendTime target").isEmpty();
    }

    private static byte[] key(int seed) {
        byte[] k = new byte[KeyRing.KEY_BYTES];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (seed * 31 + i * 7 + 1);
        }
        return k;
    }

    /** Writes records [from, to] as the blob sink does: plain ({@code keyId} null) or encrypted with {@code keyId}. */
    private void writeParquet(KeyRing keys, String keyId, long from, long to) {
        List<BackupRecord> records = new ArrayList<>();
        for (long o = from; o <= to; o++) {
            records.add(record(o));
        }
        EnvelopeSettings parquet = EnvelopeSettings.parquetBytes();
        store.create(0, new ObjectName(from, to, EnvelopeFormat.PARQUET, keyId).fileName(),
                EnvelopeCodecs.forSettings(parquet, new ObjectEncryption(keys, keyId)).encode(records));
    }

    private static List<BackupRecord> drain(Follower f) {
        List<BackupRecord> out = new ArrayList<>();
        for (List<Follower.Restored> batch = f.next(); !batch.isEmpty(); batch = f.next()) {
            batch.forEach(r -> {
                assertThat(r.targetOffset()).as("preserve").isEqualTo(r.record().offset());
                out.add(r.record());
            });
        }
        return out;
    }

    private static List<BackupRecord> records(long from, long to) {
        List<BackupRecord> out = new ArrayList<>();
        for (long o = from; o <= to; o++) {
            out.add(record(o));
        }
        return out;
    }

    @Test
    void followsAChainMixingPlainAndEncryptedObjectsAndListsTheKeyIdsItLacks() {
        KeyRing all = KeyRing.of("keys dir /keys", Map.of("k1", key(1), "k2", key(2), "k3", key(3)));
        KeyRing k1k2 = KeyRing.of("keys dir /keys", Map.of("k1", key(1), "k2", key(2)));
        writeParquet(all, null, 0, 9);
        writeParquet(all, "k1", 10, 19);
        writeParquet(all, "k2", 20, 29);
        EnvelopeSettings parquet = EnvelopeSettings.parquetBytes();

        Follower f = new Follower(store, parquet, k1k2, "t", 0, OffsetMode.PRESERVE, 0);
        assertThat(f.resume(15)).as("resumed inside the k1 object").contains(record(14));
        assertThat(drain(f)).containsExactlyElementsOf(records(15, 29));
        writeParquet(all, null, 30, 34); // encryption turned off again
        writeParquet(all, "k1", 35, 39);
        assertThat(drain(f)).containsExactlyElementsOf(records(30, 39));
        Follower fromStart = new Follower(store, parquet, k1k2, "t", 0, OffsetMode.RENUMBER, 0);
        assertThat(fromStart.resume(0)).isEmpty();
        assertThat(drain(fromStart)).containsExactlyElementsOf(records(0, 39));

        writeParquet(all, "k3", 40, 44);
        assertThatThrownBy(f::next).as("a new object names a key id the keys dir lacks")
                .isInstanceOf(MissingKeysException.class).hasMessageContaining("[k3]").hasMessageContaining("keys dir /keys")
                .hasMessageContaining(ObjectName.pad(40));
        Follower onlyK2 = new Follower(store, parquet, KeyRing.of("keys dir /keys", Map.of("k2", key(2))), "t", 0, OffsetMode.PRESERVE, 0);
        assertThatThrownBy(() -> onlyK2.resume(0)).isInstanceOf(MissingKeysException.class)
                .satisfies(e -> assertThat(((MissingKeysException) e).missing()).containsExactly("k1", "k3"))
                .hasMessageContaining("[k1, k3]").hasMessageContaining(store.location(0));
    }

    /** Waits (up to 10 s) until the store has read {@code reads} objects. */
    private static void awaitReads(CountingStore store, int reads) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (store.reads < reads && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(store.reads).as("objects read").isEqualTo(reads);
    }

    @Test
    void readingAheadReadsTheNextObjectWhileTheRecordsAreSentAndHandsItOutWithoutAnotherRead() throws Exception {
        write(0, 9, o -> true);
        write(10, 19, o -> true);
        write(20, 29, o -> o != 25);
        CountingStore counting = new CountingStore(store);
        Semaphore permits = new Semaphore(1);
        Follower f = new Follower(counting, NDJSON, "t", 0, OffsetMode.RENUMBER, 0).readingAhead(permits);
        f.resume(0);
        assertThat(targetOffsets(f.next())).hasSize(10).startsWith(0L);
        awaitReads(counting, 2); // the second object, read ahead
        assertThat(permits.availablePermits()).as("the read ahead holds the task's permit").isZero();
        assertThat(targetOffsets(f.next())).hasSize(10).startsWith(10L);
        awaitReads(counting, 3);
        assertThat(f.next()).extracting(r -> r.record().offset()).hasSize(9).doesNotContain(25L);
        assertThat(counting.reads).as("each object read once").isEqualTo(3);
        assertThat(f.objectsRead()).isEqualTo(3);
        assertThat(permits.availablePermits()).as("nothing left to read ahead: the permit is back").isEqualTo(1);
        assertThat(f.next()).isEmpty();
        write(30, 34, o -> true);
        assertThat(targetOffsets(f.next())).containsExactly(29L, 30L, 31L, 32L, 33L);
    }

    @Test
    void aReadAheadThatFailedFailsItsTurnAndIsReadAgainInTheNext() throws Exception {
        write(0, 9, o -> true);
        write(10, 19, o -> true);
        CountingStore counting = new CountingStore(store);
        counting.failOnce(ObjectName.plain(10, 19, NDJSON.format()).fileName());
        Semaphore permits = new Semaphore(1);
        Follower f = new Follower(counting, NDJSON, "t", 0, OffsetMode.PRESERVE, 0).readingAhead(permits);
        f.resume(0);
        assertThat(f.next()).hasSize(10);
        assertThatThrownBy(f::next).as("the read ahead's failure, in its turn").isInstanceOf(TransientStoreException.class);
        assertThat(permits.availablePermits()).isEqualTo(1);
        assertThat(f.isAt(10)).as("nothing handed out, nothing lost").isTrue();
        assertThat(targetOffsets(f.next())).hasSize(10).startsWith(10L);
    }

    @Test
    void theFollowersOfATaskReadAheadOnlyAsFarAsTheirSharedPermitsAndAResumeGivesItsBack() throws Exception {
        write(0, 9, o -> true);
        write(10, 19, o -> true);
        FilesystemStore other = new FilesystemStore(root, "b2");
        other.create(0, ObjectName.plain(0, 9, NDJSON.format()).fileName(), EnvelopeCodecs.forSettings(NDJSON).encode(
                java.util.stream.LongStream.rangeClosed(0, 9).mapToObj(FollowerTest::record).toList()));
        other.create(0, ObjectName.plain(10, 19, NDJSON.format()).fileName(), EnvelopeCodecs.forSettings(NDJSON).encode(
                java.util.stream.LongStream.rangeClosed(10, 19).mapToObj(FollowerTest::record).toList()));
        CountingStore first = new CountingStore(store);
        CountingStore second = new CountingStore(other);
        Semaphore permits = new Semaphore(1);
        Follower a = new Follower(first, NDJSON, "t", 0, OffsetMode.PRESERVE, 0).readingAhead(permits);
        Follower b = new Follower(second, NDJSON, "t", 0, OffsetMode.PRESERVE, 0).readingAhead(permits);
        a.resume(0);
        b.resume(0);
        assertThat(a.next()).hasSize(10);
        assertThat(b.next()).hasSize(10);
        awaitReads(first, 2);
        Thread.sleep(100);
        assertThat(second.reads).as("no permit left: the second follower reads only in its turn").isEqualTo(1);
        assertThat(a.resume(5)).as("placed again: the object read ahead is dropped").contains(record(4));
        assertThat(permits.availablePermits()).isEqualTo(1);
        assertThat(targetOffsets(b.next())).hasSize(10).startsWith(10L);
        assertThat(targetOffsets(a.next())).containsExactly(5L, 6L, 7L, 8L, 9L);
    }
}
