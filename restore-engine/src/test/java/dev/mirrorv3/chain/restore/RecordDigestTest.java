package dev.mirrorv3.chain.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RecordDigestTest {

    /** The digest's definition fed field by field, as the reports of earlier versions computed it. */
    private static String fieldByField(List<BackupRecord> records) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (BackupRecord r : records) {
            bytes(sha, r.key());
            bytes(sha, r.value());
            number(sha, r.headers().size());
            for (RecordHeader h : r.headers()) {
                bytes(sha, h.key().getBytes(StandardCharsets.UTF_8));
                bytes(sha, h.value());
            }
            number(sha, r.timestampMs() == null ? -1 : r.timestampMs());
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static void bytes(MessageDigest sha, byte[] b) {
        if (b == null) {
            number(sha, -1);
            return;
        }
        number(sha, b.length);
        sha.update(b);
    }

    private static void number(MessageDigest sha, long v) {
        sha.update(ByteBuffer.allocate(Long.BYTES).putLong(v).array());
    }

    @Test
    void isTheSameDigestWhateverTheRecordSizes() throws Exception {
        SplittableRandom random = new SplittableRandom(7);
        List<BackupRecord> records = new ArrayList<>();
        int[] sizes = {0, 1, 7, 100, 8183, 8184, 8192, 8193, 20_000, 100};
        for (int i = 0; i < 200; i++) {
            byte[] value = new byte[sizes[i % sizes.length]];
            random.nextBytes(value);
            byte[] key = i % 3 == 0 ? null : ("k" + i).getBytes(StandardCharsets.UTF_8);
            List<RecordHeader> headers = i % 4 == 0 ? List.of() : List.of(new RecordHeader("h" + i, i % 8 == 1 ? null : value));
            records.add(new BackupRecord("t", 0, i, i % 5 == 0 ? null : 1000L + i, TimestampType.CREATE_TIME, key, i % 9 == 0 ? null
                    : value, headers));
        }
        RecordDigest digest = new RecordDigest();
        records.forEach(digest::add);
        assertThat(digest.hex()).isEqualTo(fieldByField(records));
        assertThat(new RecordDigest().hex()).as("no record").isEqualTo(fieldByField(List.of()));
    }
}
