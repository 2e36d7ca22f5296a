package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.ObjectName;

/**
 * What the verify pass learnt of one object: the SHA-256 of its bytes (the produce pass requires the same bytes
 * when it reads the object again), its records and its holes.
 *
 * @param firstHole the first position of the object's range without a record, or -1
 */
public record VerifiedObject(ObjectName name, byte[] sha256, long sizeBytes, int records, long firstHole) {

    public long holes() {
        return name.span() - records;
    }
}
