package dev.mirrorv3.chain.envelope;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The first check of a Parquet object before parquet-mr reads it: its magic bytes say whether it is a Parquet file, plain
 * or encrypted, and whether that is what its name says, with a clearer message than parquet-mr's.
 */
final class ParquetFraming {
    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ENCRYPTED_MAGIC = "PARE".getBytes(StandardCharsets.US_ASCII);
    /** The shortest Parquet file: its magic, a footer length and its magic again. */
    private static final int MIN_LENGTH = 12;

    private ParquetFraming() {
    }

    /** As {@link #check(byte[], String, String)} for an object in a local file, of which only both ends are read. */
    static void check(Path file, String keyId, String objectDescription) {
        byte[] framing;
        try (FileChannel ch = FileChannel.open(file)) {
            long length = ch.size();
            framing = new byte[(int) Math.min(length, MIN_LENGTH)];
            if (length >= MIN_LENGTH) {
                ch.read(ByteBuffer.wrap(framing, 0, 4), 0);
                ch.read(ByteBuffer.wrap(framing, MIN_LENGTH - 4, 4), length - 4); // the middle is never looked at
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        check(framing, keyId, objectDescription);
    }

    /**
     * Checks the magic at both ends of an object: plain (PAR1) when its name carries no key id, encrypted (PARE) when it
     * does, long enough to be a Parquet file at all.
     *
     * @throws EnvelopeDecodeException naming {@code objectDescription} and what is wrong
     */
    static void check(byte[] data, String keyId, String objectDescription) {
        String problem = null;
        if (data.length < MIN_LENGTH) {
            problem = "it is " + data.length + " bytes long, too short for a Parquet file";
        } else {
            boolean plainHead = Arrays.equals(data, 0, 4, MAGIC, 0, 4);
            boolean plainTail = Arrays.equals(data, data.length - 4, data.length, MAGIC, 0, 4);
            boolean encryptedHead = Arrays.equals(data, 0, 4, ENCRYPTED_MAGIC, 0, 4);
            boolean encryptedTail = Arrays.equals(data, data.length - 4, data.length, ENCRYPTED_MAGIC, 0, 4);
            if (keyId == null) {
                if (encryptedHead || encryptedTail) {
                    problem = "it has an encrypted footer (PARE), and its name carries no key id (<from>-<to>.k-<key id>.parquet):"
                            + " renamed or not written by this product";
                } else if (!plainHead) {
                    problem = "it does not start with the Parquet magic PAR1";
                } else if (!plainTail) {
                    problem = "it does not end with the Parquet magic PAR1 (truncated?)";
                }
            } else if (plainHead && plainTail) {
                problem = "its name says it is encrypted with key id " + keyId + ", and it is a plain Parquet file (PAR1):"
                        + " renamed or not written by this product";
            } else if (!encryptedHead) {
                problem = "it does not start with the magic PARE of an encrypted Parquet file";
            } else if (!encryptedTail) {
                problem = "it does not end with the magic PARE of an encrypted Parquet file (truncated?)";
            }
        }
        if (problem != null) {
            throw new EnvelopeDecodeException("cannot read Parquet object " + objectDescription + ": " + problem);
        }
    }
}
