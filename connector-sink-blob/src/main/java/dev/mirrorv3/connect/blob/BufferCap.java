package dev.mirrorv3.connect.blob;

import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The task-wide buffer cap, buffer.max.bytes, as a policy: what frees room for a record before it is appended. The
 * payload bytes all writers hold count, buffers being encoded and committed included. A record always fits an empty
 * task buffer (one larger than the cap is written on its own). No state and no I/O: {@link PartitionWriters} acts on
 * what it decides.
 */
final class BufferCap {
    /** What to do next: append the record, write the buffer of {@code toFree}, or wait for the running commits. */
    record Room<K>(boolean fits, Optional<K> toFree) {
        boolean await() {
            return !fits && toFree.isEmpty();
        }
    }

    private final long maxBytes;

    BufferCap(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * @param buffered payload bytes all writers hold now
     * @param runningBytes payload bytes of the commits running now: what their success will free
     * @param idleBuffers the buffered bytes of each buffer no commit writes and no retry waits for (asked only when the
     *                    record does not fit)
     * @return fits; else the largest idle buffer, unless the running commits free enough or none is idle: then a wait
     */
    <K> Room<K> room(long buffered, long recordBytes, long runningBytes, Supplier<Map<K, Long>> idleBuffers) {
        if (buffered <= 0 || buffered + recordBytes <= maxBytes) {
            return new Room<>(true, Optional.empty());
        }
        if (runningBytes >= buffered + recordBytes - maxBytes) {
            return new Room<>(false, Optional.empty());
        }
        return new Room<>(false, idleBuffers.get().entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey));
    }
}
