package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.envelope.BackupRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@link ChainWriter}'s buffered records: at its head those frozen in the commits in flight or pending (in the order
 * of their objects), then the ones appended since, which the triggers count. Not thread-safe: guarded by the writer's
 * monitor.
 */
final class WriteBuffer {
    private final List<BackupRecord> records = new ArrayList<>();
    private long bytes;
    private int frozenRecords;
    private long frozenBytes;
    /** When the first record outside the frozen ones was appended; -1 if there is none. */
    private long firstOutsideAtMs = -1;

    /** The records of the next object after the frozen ones, frozen now. */
    record Taken(List<BackupRecord> records, long payloadBytes, long firstOutsideAtMs) {
    }

    boolean isEmpty() {
        return records.isEmpty();
    }

    int size() {
        return records.size();
    }

    long bytes() {
        return bytes;
    }

    long lastOffset() {
        return records.get(records.size() - 1).offset();
    }

    void append(BackupRecord record, long nowMs) {
        if (records.size() == frozenRecords) {
            firstOutsideAtMs = nowMs;
        }
        records.add(record);
        bytes += record.payloadBytes();
    }

    /** The size or count trigger that has tripped for the records outside the frozen ones, if any. */
    Optional<FlushTrigger> sizeTrigger(FlushPolicy policy) {
        if (records.size() - frozenRecords >= policy.maxRecords()) {
            return Optional.of(FlushTrigger.RECORDS);
        }
        if (bytes - frozenBytes >= policy.maxBytes()) {
            return Optional.of(FlushTrigger.BYTES);
        }
        return Optional.empty();
    }

    /** When the oldest record outside the frozen ones came; empty if there is none. */
    Optional<Long> firstOutsideAtMs() {
        return records.size() == frozenRecords ? Optional.empty() : Optional.of(firstOutsideAtMs);
    }

    /**
     * Freezes the records after the frozen ones, up to what the size triggers allow in one object (records that came
     * while an earlier commit ran go into later objects, so objects keep the sizes a flush on the task thread gave them).
     * Empty if there is none.
     */
    Optional<Taken> freezeNext(FlushPolicy policy) {
        if (records.size() == frozenRecords) {
            return Optional.empty();
        }
        List<BackupRecord> outside = records.subList(frozenRecords, records.size());
        List<BackupRecord> next = List.copyOf(outside.subList(0, policy.recordsInOneObject(outside)));
        long payload = next.stream().mapToLong(BackupRecord::payloadBytes).sum();
        Taken taken = new Taken(next, payload, firstOutsideAtMs);
        frozenRecords += next.size();
        frozenBytes += payload;
        if (frozenRecords == records.size()) {
            firstOutsideAtMs = -1;
        } // else the rest keeps the oldest record's time: its time trigger may fire early, never late
        return Optional.of(taken);
    }

    /** The head's {@code n} records of {@code payload} bytes are durable: dropped. */
    void durable(int n, long payload) {
        records.subList(0, n).clear();
        bytes -= payload;
        frozenRecords -= n;
        frozenBytes -= payload;
    }

    /**
     * Keeps only the head's {@code n} records of {@code payload} bytes frozen (a commit failed or left): the ones after
     * them count for the triggers again, from {@code firstAtMs} (the time their first cut took; negative: unchanged).
     */
    void thawAfter(int n, long payload, long firstAtMs) {
        frozenRecords = n;
        frozenBytes = payload;
        if (firstAtMs >= 0) {
            firstOutsideAtMs = firstAtMs;
        }
    }

    int frozenRecords() {
        return frozenRecords;
    }

    long frozenBytes() {
        return frozenBytes;
    }

    void clear() {
        records.clear();
        bytes = 0;
        frozenRecords = 0;
        frozenBytes = 0;
        firstOutsideAtMs = -1;
    }
}
