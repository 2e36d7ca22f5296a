package dev.mirrorv3.chain.envelope;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import java.util.List;

/**
 * Encodes one object's records and decodes them back. Implementations are thread-safe and
 * stateless between calls; {@link EnvelopeCodecs#forSettings} picks one.
 */
public interface EnvelopeCodec {

    EnvelopeFormat format();

    /**
     * Encodes a non-empty list of records of one partition, in offset order.
     *
     * @throws ValueTypeException if a key or value does not fit its declared type (names topic, partition, offset)
     */
    byte[] encode(List<BackupRecord> records);

    /**
     * As {@link #encode}, into the codec's {@link EncodeMemory}: the bytes stay in its chunks until the caller
     * {@linkplain ObjectBytes#release() releases} them, and are reused for a later object after that. The default holds
     * them in an array of their own.
     *
     * @throws ValueTypeException if a key or value does not fit its declared type (names topic, partition, offset)
     */
    default ObjectBytes encodeObject(List<BackupRecord> records) {
        return ObjectBytes.of(encode(records));
    }

    /**
     * Decodes an object's bytes.
     *
     * @param objectDescription used in error messages (normally the object's path)
     * @throws EnvelopeDecodeException if the bytes are not a readable object of this format
     */
    List<BackupRecord> decode(byte[] data, String objectDescription);

    /**
     * Decodes an object whose name carries a key id ({@code <from>-<to>.k-<keyid>.parquet}), or none ({@code null}).
     *
     * @throws ObjectAuthenticationException if an encrypted object fails authentication (wrong key, modified bytes)
     * @throws EnvelopeDecodeException if the bytes are not a readable object of this format and encryption
     */
    default List<BackupRecord> decode(byte[] data, String keyId, String objectDescription) {
        if (keyId != null) {
            throw new EnvelopeDecodeException("cannot read " + objectDescription + ": only Parquet objects are encrypted");
        }
        return decode(data, objectDescription);
    }

    /** The key id new objects are encrypted with (it becomes part of their names); {@code null} for plain objects. */
    default String writeKeyId() {
        return null;
    }
}
