package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The resume check of a follow-restore: is the record the target holds the one this backup restores there? Key,
 * value, headers (with the original-offset header a renumbering restore adds) and, unless the target stamps
 * LogAppendTime or the backup record has no timestamp, the timestamp.
 */
public final class RecordMatch {
    private RecordMatch() {
    }

    /**
     * @param expected the backup's record for that target position
     * @param originalOffsetHeader the header restore adds with the backed-up offset, or null
     * @param actual the target's record (topic and partition are the target's)
     * @param compareTimestamp false when the target stamps LogAppendTime
     * @return what differs, empty if it is the backup's record
     */
    public static Optional<String> difference(BackupRecord expected, String originalOffsetHeader, BackupRecord actual,
            boolean compareTimestamp) {
        if (!Arrays.equals(expected.key(), actual.key())) {
            return Optional.of("the key differs");
        }
        if (!Arrays.equals(expected.value(), actual.value())) {
            return Optional.of("the value differs");
        }
        List<RecordHeader> headers = new ArrayList<>(expected.headers());
        if (originalOffsetHeader != null) {
            headers.add(new RecordHeader(originalOffsetHeader, Long.toString(expected.offset()).getBytes(StandardCharsets.UTF_8)));
        }
        if (!headers.equals(actual.headers())) {
            return Optional.of("the headers differ (" + headers.size() + " expected, " + actual.headers().size() + " found)");
        }
        Long ts = expected.timestampMs();
        if (compareTimestamp && ts != null && ts >= 0 && !ts.equals(actual.timestampMs())) {
            return Optional.of("the timestamp differs (" + ts + " in the backup, " + actual.timestampMs() + " in the target)");
        }
        return Optional.empty();
    }
}
