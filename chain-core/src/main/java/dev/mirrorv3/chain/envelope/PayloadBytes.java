package dev.mirrorv3.chain.envelope;

/**
 * A record's payload bytes as mirror-v3 counts them everywhere (flush.max.bytes, buffer.max.bytes, the bytes series of
 * every connector): key + value + each header's key (its length in chars) and value; null counts 0. One rule for
 * {@link BackupRecord}, a Kafka producer record and a Connect source record alike.
 */
public final class PayloadBytes {
    private long total;

    private PayloadBytes(long total) {
        this.total = total;
    }

    /** Starts the count with a record's key and value. */
    public static PayloadBytes of(byte[] key, byte[] value) {
        return new PayloadBytes(length(key) + length(value));
    }

    /** Adds one header. */
    public PayloadBytes header(String key, byte[] value) {
        total += key.length() + length(value);
        return this;
    }

    public long total() {
        return total;
    }

    private static long length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }
}
