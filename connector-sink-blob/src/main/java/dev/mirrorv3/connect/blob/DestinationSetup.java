package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.EncodeMemory;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.kafka.LogOffsets;
import java.time.Clock;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What both positioners ({@link ChainPositioner}, {@link SnapshotPositioner}) read a partition's destination and its source
 * with, and what the writers they open are built from: the task's stores, format, encryption and flush policy.
 *
 * @param storeForTopic the store holding a topic's backup
 * @param sourceOffsets the source's log start and high watermarks, for the position rule
 * @param identity which source topic a backup holds, checked before anything is written and before each commit
 * @param encryption the task's encryption, its keys dir read again when a chain names a key id it lacks
 * @param encodeMemory what the destination's chains encode their objects in, reused from one object to the next
 * @param codecs the codec a chain encodes with, from the one its settings give (a tee's destinations share encodings)
 */
record DestinationSetup(Function<String, Store> storeForTopic, EnvelopeSettings envelope, KeysDirWatch encryption,
                      FlushPolicy flushPolicy, LogOffsets sourceOffsets, IdentityChecks identity, Clock clock,
                      EncodeMemory encodeMemory, UnaryOperator<EnvelopeCodec> codecs) {
}
