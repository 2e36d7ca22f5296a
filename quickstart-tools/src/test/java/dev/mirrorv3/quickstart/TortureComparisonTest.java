package dev.mirrorv3.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.quickstart.TortureComparison.Segment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The torture suite's comparison must be able to fail: doctored chains, each with one kind of damage. */
class TortureComparisonTest {
    private final List<BackupRecord> src = source();

    /** Offsets 0..9 of partition 0 with a hole at 4 (an aborted record) and a null key and value at 7. */
    private static List<BackupRecord> source() {
        List<BackupRecord> out = new ArrayList<>();
        for (long o = 0; o < 10; o++) {
            if (o != 4) {
                out.add(record(o, o == 7 ? null : "v" + o));
            }
        }
        return out;
    }

    private static BackupRecord record(long offset, String value) {
        return new BackupRecord("t", 0, offset, 1000 + offset, TimestampType.CREATE_TIME, offset == 7 ? null : bytes("k" + offset),
                value == null ? null : bytes(value), List.of(new RecordHeader("h", offset % 2 == 0 ? null : bytes("x"))));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Segment segment(long from, long to, List<BackupRecord> all) {
        return new Segment(from + "-" + to, from, to, all.stream().filter(r -> r.offset() >= from && r.offset() <= to).toList());
    }

    /** The source's partition 0 compared with a chain of these segments, ranges checked. */
    private TortureComparison compared(Segment... chain) {
        return TortureComparison.of(0, src, List.of(chain), 0, true);
    }

    @Test
    void aChainHoldingExactlyTheSourceIsOk() {
        TortureComparison c = compared(segment(0, 5, src), segment(6, 9, src));
        assertThat(c.ok()).as(c.summary() + " " + c.examples()).isTrue();
        assertThat(c.expected()).isEqualTo(9);
    }

    @Test
    void aMissingRecordIsReported() {
        List<BackupRecord> doctored = new ArrayList<>(src);
        doctored.removeIf(r -> r.offset() == 8);
        TortureComparison c = compared(segment(0, 5, doctored), segment(6, 9, doctored));
        assertThat(c.ok()).isFalse();
        assertThat(c.missing()).isEqualTo(1);
        assertThat(c.examples()).containsExactly("p0: offset 8 missing");
    }

    @Test
    void aDuplicateFromAnOverlappingObjectIsReported() {
        TortureComparison c = compared(segment(0, 5, src), segment(5, 9, src));
        assertThat(c.duplicated()).isEqualTo(1);
        assertThat(c.overlaps()).isEqualTo(1);
        assertThat(c.missing()).isZero();
        assertThat(c.ok()).isFalse();
    }

    @Test
    void aGapBetweenObjectsAndTheRecordsInItAreReported() {
        TortureComparison c = compared(segment(0, 2, src), segment(6, 9, src));
        assertThat(c.gaps()).isEqualTo(1);
        assertThat(c.missing()).isEqualTo(2); // offsets 3 and 5 (4 is a hole in the source as well)
        assertThat(c.examples()).contains("p0: gap, offsets 3..5 are in no object (before 6-9)");
    }

    @Test
    void aChainThatDoesNotStartAtTheLogStartHasAGap() {
        TortureComparison c = compared(segment(3, 9, src));
        assertThat(c.gaps()).isEqualTo(1);
        assertThat(c.missing()).isEqualTo(3);
    }

    @Test
    void aDifferingRecordAndARecordTheSourceDoesNotHaveAreReported() {
        List<BackupRecord> doctored = new ArrayList<>(src);
        doctored.replaceAll(r -> r.offset() == 2 ? record(2, "tampered") : r);
        doctored.add(record(4, "aborted")); // an aborted record that must have stayed a hole
        TortureComparison c = compared(segment(0, 9, doctored));
        assertThat(c.differing()).isEqualTo(2);
        assertThat(c.missing()).isZero();
        assertThat(c.ok()).isFalse();
    }

    @Test
    void aTopicCopyIsComparedWithoutRangesAndTotalsAddUp() {
        TortureComparison total = new TortureComparison();
        total.add(TortureComparison.of(0, src, List.of(new Segment("copy", 0, Long.MAX_VALUE, src)), 0, false));
        total.add(TortureComparison.of(1, src, List.of(new Segment("copy", 0, Long.MAX_VALUE, src.subList(0, 5))), 0, false));
        assertThat(total.expected()).isEqualTo(18);
        assertThat(total.missing()).isEqualTo(4);
        assertThat(total.gaps()).isZero();
        assertThat(total.summary()).isEqualTo("records=18 found=14 missing=4 duplicated=0 differing=0 gaps=0 overlaps=0");
    }
}
