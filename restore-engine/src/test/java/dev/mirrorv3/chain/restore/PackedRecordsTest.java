package dev.mirrorv3.chain.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PackedRecordsTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void handsOutEveryRecordAsItWasNullsEmptiesHeadersAndTimestampsIncluded() {
        List<BackupRecord> records = List.of(
                new BackupRecord("t", 3, 10, 1000L, TimestampType.CREATE_TIME, b("k"), b("value"), List.of()),
                new BackupRecord("t", 3, 11, null, TimestampType.NOT_AVAILABLE, null, null, List.of()),
                new BackupRecord("t", 3, 13, -1L, TimestampType.LOG_APPEND_TIME, new byte[0], new byte[0],
                        List.of(new RecordHeader("h", null), new RecordHeader("é", b("x")))),
                new BackupRecord("t", 3, 14, Long.MIN_VALUE, TimestampType.CREATE_TIME, null, b("tombstone? no"), List.of()));
        PackedRecords packed = PackedRecords.of(records);
        assertThat(packed).containsExactlyElementsOf(records);
        assertThat(packed.get(1).key()).isNull();
        assertThat(packed.get(1).timestampMs()).isNull();
        assertThat(packed.get(2).key()).isNotNull().isEmpty();
        assertThat(packed.get(0).value()).as("each get its own copy").isNotSameAs(packed.get(0).value());
        assertThat(packed.heapBytes()).isGreaterThan("kvaluextombstone? no".length());
    }

    @Test
    void nothingToPack() {
        assertThat(PackedRecords.of(List.of())).isNull();
    }
}
