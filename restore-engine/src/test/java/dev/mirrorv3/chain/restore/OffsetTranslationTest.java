package dev.mirrorv3.chain.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.read.CheckedObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OffsetTranslationTest {

    private static BackupRecord record(long offset) {
        return new BackupRecord("t", 0, offset, 1L, TimestampType.CREATE_TIME, new byte[] {1}, new byte[] {(byte) offset}, List.of());
    }

    @Test
    void everyCommittedOffsetLandsOnTheFirstRecordTheGroupHadNotRead() {
        // A compacted chain: holes inside objects, at object boundaries and at the start.
        long[][] objects = {{2, 4, 2, 4}, {5, 9, 7, 9}, {10, 14, 10, 11, 12, 13, 14}, {15, 19, 19}};
        List<VerifiedObject> verified = new ArrayList<>();
        Map<ObjectName, CheckedObject> contents = new HashMap<>();
        List<Long> chainOrder = new ArrayList<>();
        long total = 0;
        for (long[] o : objects) {
            ObjectName name = ObjectName.plain(o[0], o[1], EnvelopeFormat.PARQUET);
            List<BackupRecord> records = new ArrayList<>();
            for (int i = 2; i < o.length; i++) {
                records.add(record(o[i]));
                chainOrder.add(o[i]);
            }
            contents.put(name, new CheckedObject(name, records, new byte[32], 1));
            verified.add(new VerifiedObject(name, new byte[32], 1, records.size(), -1));
            total += records.size();
        }
        VerifiedPartition vp = new VerifiedPartition("loc", "t", 0, verified, 3,
                new RecordStats(total, -1, 1, Long.MIN_VALUE, 10, 2, 0), null);
        List<ObjectName> reread = new ArrayList<>();
        for (long committed = 0; committed <= 22; committed++) {
            long c = committed;
            long renumbered = OffsetTranslation.renumbered(vp, committed, o -> {
                reread.add(o.name());
                return contents.get(o.name());
            });
            // The restored topic holds chainOrder at 0, 1, 2, ...: the consumer resumes at `renumbered`, and reads
            // exactly the records at or after the committed offset, the ones it had not read.
            List<Long> readAfterRestore = chainOrder.subList((int) renumbered, chainOrder.size());
            assertThat(readAfterRestore).as("committed %d", committed)
                    .isEqualTo(chainOrder.stream().filter(off -> off >= c).toList());
        }
        assertThat(OffsetTranslation.renumbered(vp, 100, o -> contents.get(o.name()))).isEqualTo(total);
        assertThat(reread).as("only objects holding the committed offset inside their range are read")
                .allSatisfy(n -> assertThat(n.from()).isLessThan(n.to()));
    }
}
