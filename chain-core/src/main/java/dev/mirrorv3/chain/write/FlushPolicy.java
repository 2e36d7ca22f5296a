package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.envelope.BackupRecord;
import java.util.List;

/** When a partition's buffer becomes one object: whichever trips first. */
public record FlushPolicy(long maxRecords, long maxBytes, long maxTimeMs) {

    public FlushPolicy {
        if (maxRecords < 1 || maxBytes < 1 || maxTimeMs < 1) {
            throw new IllegalArgumentException("flush limits must be positive: " + maxRecords + ", " + maxBytes + ", " + maxTimeMs);
        }
    }

    /**
     * How many of the buffer's first records one object takes: up to and including the first at which the count or the
     * payload bytes reach their limit, or all of them.
     */
    public int recordsInOneObject(List<BackupRecord> buffer) {
        int n = 0;
        long bytes = 0;
        while (n < buffer.size()) {
            bytes += buffer.get(n++).payloadBytes();
            if (n >= maxRecords || bytes >= maxBytes) {
                break;
            }
        }
        return n;
    }
}
