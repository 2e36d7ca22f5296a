package dev.mirrorv3.chain.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.store.FilesystemStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
}
