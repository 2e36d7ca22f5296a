package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.bytes.ObjectBytes;

/**
 * An object whose commit was issued but is not known durable: re-issued as it is, the same bytes, until it is. It holds
 * its bytes, unreleased, for as long as it is pending, so that no other object encoded meanwhile (another partition's,
 * the next one of this chain) is written into their chunks: a re-issue, and a store's comparison of what landed with
 * them, read exactly what the first attempt sent. {@link ChainWriter} releases them once the object is durable.
 */
record PendingCommit(ObjectName name, ObjectBytes bytes, int records, long payloadBytes) {
}
