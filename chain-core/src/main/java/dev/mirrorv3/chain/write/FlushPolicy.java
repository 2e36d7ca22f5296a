package dev.mirrorv3.chain.write;

/** When a partition's buffer becomes one object: whichever trips first. */
public record FlushPolicy(long maxRecords, long maxBytes, long maxTimeMs) {

    public FlushPolicy {
        if (maxRecords < 1 || maxBytes < 1 || maxTimeMs < 1) {
            throw new IllegalArgumentException("flush limits must be positive: " + maxRecords + ", " + maxBytes + ", " + maxTimeMs);
        }
    }
}
