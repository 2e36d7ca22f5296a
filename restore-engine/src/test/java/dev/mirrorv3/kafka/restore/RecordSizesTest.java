package dev.mirrorv3.kafka.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

/** Our batch-of-one size against Kafka's own record batch encoding (its internal classes, tests only). */
class RecordSizesTest {

    @Test
    void batchOfOneMatchesKafkasEncoding() {
        byte[][] payloads = {null, new byte[0], new byte[1], new byte[63], new byte[64], new byte[100], new byte[8191], new byte[8192],
                new byte[1_000_000]};
        for (byte[] key : payloads) {
            for (byte[] value : payloads) {
                for (List<RecordHeader> headers : List.of(List.<RecordHeader>of(),
                        List.of(new RecordHeader("h", null), new RecordHeader("h", new byte[200]), new RecordHeader("é", new byte[0])))) {
                    BackupRecord r = new BackupRecord("t", 0, 123_456_789L, 1_700_000_000_000L, TimestampType.CREATE_TIME, key,
                            value, headers);
                    Header[] kafkaHeaders = headers.stream()
                            .map(h -> (Header) new org.apache.kafka.common.header.internals.RecordHeader(h.key(), h.value()))
                            .toArray(Header[]::new);
                    int expected = MemoryRecords.withRecords(Compression.NONE,
                            new SimpleRecord(1_700_000_000_000L, key, value, kafkaHeaders)).sizeInBytes();
                    assertThat(RecordSizes.batchOfOne(r)).as("key %s value %s headers %s", len(key), len(value), headers.size())
                            .isEqualTo(expected);
                }
            }
        }
    }

    private static String len(byte[] b) {
        return b == null ? "null" : Integer.toString(b.length);
    }
}
