package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import java.nio.charset.StandardCharsets;

/**
 * Sizes of records in Kafka's record-batch format (magic v2, uncompressed), computed from the public wire format so
 * that restore can refuse a record the target topic cannot take before sending anything.
 */
public final class RecordSizes {
    /** The v2 record batch header. */
    public static final int BATCH_OVERHEAD = 61;

    private RecordSizes() {
    }

    /** Bytes of a batch holding only this record: what the broker compares with {@code max.message.bytes}. */
    public static long batchOfOne(BackupRecord r) {
        int body = 1 // attributes
                + 1 // timestamp delta 0 (varlong)
                + 1 // offset delta 0 (varint)
                + lengthPrefixed(r.key())
                + lengthPrefixed(r.value())
                + varintSize(r.headers().size());
        for (RecordHeader h : r.headers()) {
            byte[] k = h.key().getBytes(StandardCharsets.UTF_8);
            body += varintSize(k.length) + k.length + lengthPrefixed(h.value());
        }
        return BATCH_OVERHEAD + varintSize(body) + (long) body;
    }

    /**
     * The least the records take in a partition's log, from their sizes as batches of one ({@link #batchOfOne}) summed:
     * batched, each record sheds its own batch header and the batches share at least one.
     */
    public static long inLog(long batchOfOneBytes, long records) {
        return records == 0 ? 0 : batchOfOneBytes - (records - 1) * BATCH_OVERHEAD;
    }

    private static int lengthPrefixed(byte[] b) {
        return b == null ? varintSize(-1) : varintSize(b.length) + b.length;
    }

    /** Size of a zig-zag varint. */
    static int varintSize(int value) {
        int v = (value << 1) ^ (value >> 31);
        int bytes = 1;
        while ((v & 0xffffff80) != 0L) {
            bytes++;
            v >>>= 7;
        }
        return bytes;
    }
}
