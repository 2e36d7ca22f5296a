package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * What a {@link Follower} knows of its backup's end, for monitoring: the offset after the newest object of its last
 * listing and the timestamp of the newest record it has read, with the read ahead of the newest object that keeps the
 * timestamp current for a follower that is behind. Not thread-safe: one per follower.
 */
final class BackupEnd {
    private long end;
    private ObjectName newest;
    private long newestKnownTo = -1;
    private Long newestTimestamp;
    private long nextReadAheadMs = Long.MIN_VALUE;

    /** A listing found {@code chain}; an empty one says the backup ends at least at {@code nextFrom}. */
    void listed(Chain chain, long nextFrom) {
        if (chain.isEmpty()) {
            end = Math.max(end, nextFrom);
            return;
        }
        newest = chain.last().orElseThrow();
        end = newest.to() + 1;
    }

    /** The follower read object {@code name}: its last record may be the newest backed-up record seen so far. */
    void read(ObjectName name, List<BackupRecord> records) {
        if (name.to() > newestKnownTo) {
            newestKnownTo = name.to();
            newestTimestamp = lastTimestamp(records);
        }
    }

    long end() {
        return end;
    }

    /** {@link Follower#newestTimestampMs}: {@code read} reads an object through the follower (and comes back to {@link #read}). */
    OptionalLong newestTimestampMs(long nowMs, long readAheadIntervalMs, Consumer<ObjectName> read) {
        if (newest != null && newest.to() > newestKnownTo && nowMs >= nextReadAheadMs) {
            nextReadAheadMs = nowMs + readAheadIntervalMs;
            try {
                read.accept(newest);
            } catch (RuntimeException e) {
                // Left to the read in order: the records before the object are restored first.
            }
        }
        return newestTimestamp == null ? OptionalLong.empty() : OptionalLong.of(newestTimestamp);
    }

    private static Long lastTimestamp(List<BackupRecord> records) {
        Long ts = records.isEmpty() ? null : records.get(records.size() - 1).timestampMs();
        return ts == null || ts < 0 ? null : ts;
    }
}
