package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.RandomAccess;

/**
 * One object's records held in a few arrays instead of several small objects per record: keys and values in one byte
 * array, offsets and timestamps in arrays of numbers. A verify pass keeps an object this way ({@link KeptObjects}),
 * because the collector copies each live object of the young generation: a kept object of 100,000 records costs it a
 * handful of arrays instead of half a million objects. Each {@link #get} builds the record again, with its own copies of
 * key and value. Every record of an object is of one topic and partition (checked when the object was read).
 * Immutable.
 */
final class PackedRecords extends AbstractList<BackupRecord> implements RandomAccess {
    private static final TimestampType[] TYPES = TimestampType.values();

    private final String topic;
    private final int partition;
    private final long[] offsets;
    private final long[] timestamps;
    private final BitSet noTimestamp;
    private final byte[] types;
    private final byte[] bytes;
    /** Per record: where its key starts in {@link #bytes}, then its value; the lengths, -1 for null. */
    private final int[] keyAt;
    private final int[] keyLength;
    private final int[] valueLength;
    /** The headers of the records that have some, else null. */
    private final List<RecordHeader>[] headers;

    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of lists: Java has no generic array creation
    private PackedRecords(List<BackupRecord> records, int payload) {
        int n = records.size();
        BackupRecord first = records.get(0);
        topic = first.topic();
        partition = first.partition();
        offsets = new long[n];
        timestamps = new long[n];
        noTimestamp = new BitSet(n);
        types = new byte[n];
        bytes = new byte[payload];
        keyAt = new int[n];
        keyLength = new int[n];
        valueLength = new int[n];
        List<RecordHeader>[] withHeaders = null;
        int at = 0;
        for (int i = 0; i < n; i++) {
            BackupRecord r = records.get(i);
            offsets[i] = r.offset();
            if (r.timestampMs() == null) {
                noTimestamp.set(i);
            } else {
                timestamps[i] = r.timestampMs();
            }
            types[i] = (byte) r.timestampType().ordinal();
            keyAt[i] = at;
            keyLength[i] = length(r.key());
            at = copy(r.key(), at);
            valueLength[i] = length(r.value());
            at = copy(r.value(), at);
            if (!r.headers().isEmpty()) {
                withHeaders = withHeaders == null ? new List[n] : withHeaders;
                withHeaders[i] = r.headers();
            }
        }
        headers = withHeaders;
    }

    /** The records packed, or null when their keys and values do not fit one array (over 2 GiB). */
    static PackedRecords of(List<BackupRecord> records) {
        if (records.isEmpty()) {
            return null;
        }
        long payload = 0;
        for (BackupRecord r : records) {
            payload += Math.max(0, length(r.key())) + Math.max(0, length(r.value()));
        }
        return payload > Integer.MAX_VALUE - 16 ? null : new PackedRecords(records, (int) payload);
    }

    /** The heap the arrays take (and the headers, estimated). */
    long heapBytes() {
        long b = bytes.length + offsets.length * (8L + 8 + 1 + 4 + 4 + 4) + noTimestamp.size() / 8 + 6 * 16;
        if (headers != null) {
            b += headers.length * 4L;
            for (List<RecordHeader> hs : headers) {
                if (hs != null) {
                    for (RecordHeader h : hs) {
                        b += KeptObjects.HEADER_OVERHEAD + 2L * h.key().length() + Math.max(0, length(h.value()));
                    }
                }
            }
        }
        return b;
    }

    @Override
    public BackupRecord get(int i) {
        int valueAt = keyAt[i] + Math.max(0, keyLength[i]);
        return new BackupRecord(topic, partition, offsets[i], noTimestamp.get(i) ? null : timestamps[i], TYPES[types[i]],
                slice(keyAt[i], keyLength[i]), slice(valueAt, valueLength[i]), headers == null || headers[i] == null ? List.of()
                : headers[i]);
    }

    @Override
    public int size() {
        return offsets.length;
    }

    private int copy(byte[] b, int at) {
        if (b == null) {
            return at;
        }
        System.arraycopy(b, 0, bytes, at, b.length);
        return at + b.length;
    }

    private byte[] slice(int at, int length) {
        return length < 0 ? null : Arrays.copyOfRange(bytes, at, at + length);
    }

    private static int length(byte[] b) {
        return b == null ? -1 : b.length;
    }
}
