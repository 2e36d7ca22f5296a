package dev.mirrorv3.chain.envelope;

import dev.mirrorv3.chain.crypto.ObjectEncryption;

/** Picks the codec for a chain's settings. */
public final class EnvelopeCodecs {
    private EnvelopeCodecs() {
    }

    public static EnvelopeCodec forSettings(EnvelopeSettings settings) {
        return forSettings(settings, ObjectEncryption.none());
    }

    /**
     * @param encryption keys to read encrypted objects with, and the key new objects are written with (Parquet only)
     * @throws IllegalArgumentException for NDJSON with a key to write with
     */
    public static EnvelopeCodec forSettings(EnvelopeSettings settings, ObjectEncryption encryption) {
        return forSettings(settings, encryption, EncodeMemory.unpooled());
    }

    /**
     * @param memory what objects are encoded in ({@link EnvelopeCodec#encodeObject}): a pool shared by the writers of a
     *     task's destination, or nothing kept between objects
     * @throws IllegalArgumentException for NDJSON with a key to write with
     */
    public static EnvelopeCodec forSettings(EnvelopeSettings settings, ObjectEncryption encryption, EncodeMemory memory) {
        return switch (settings.format()) {
            case PARQUET -> new ParquetCodec(settings, encryption, memory);
            case NDJSON -> {
                if (encryption.encryptsNewObjects()) {
                    throw new IllegalArgumentException("NDJSON objects cannot be encrypted: encryption=parquet needs format=parquet");
                }
                yield new NdjsonCodec(settings, memory);
            }
        };
    }
}
