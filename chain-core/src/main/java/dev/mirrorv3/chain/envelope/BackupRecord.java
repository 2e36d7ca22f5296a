package dev.mirrorv3.chain.envelope;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One Kafka record as a backup holds it: mirror-v3's envelope columns
 * {@code topic, partition, offset, timestamp_ms, timestamp_type, key, value, headers}.
 * Key, value and header values are the record's exact bytes; null stays null, empty stays empty.
 */
public record BackupRecord(
        String topic,
        int partition,
        long offset,
        Long timestampMs,
        TimestampType timestampType,
        byte[] key,
        byte[] value,
        List<RecordHeader> headers) {

    public BackupRecord {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(timestampType, "timestampType");
        headers = headers == null ? List.of() : List.copyOf(headers);
    }

    /** Bytes that count towards {@code flush.max.bytes}: {@link PayloadBytes}. */
    public long payloadBytes() {
        PayloadBytes n = PayloadBytes.of(key, value);
        for (RecordHeader h : headers) {
            n.header(h.key(), h.value());
        }
        return n.total();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BackupRecord r
                && topic.equals(r.topic)
                && partition == r.partition
                && offset == r.offset
                && Objects.equals(timestampMs, r.timestampMs)
                && timestampType == r.timestampType
                && Arrays.equals(key, r.key)
                && Arrays.equals(value, r.value)
                && headers.equals(r.headers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, offset, timestampMs, timestampType, headers)
                + 31 * Arrays.hashCode(key) + 17 * Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "BackupRecord[" + topic + "/" + partition + "@" + offset + ", ts=" + timestampMs + " " + timestampType
                + ", key=" + (key == null ? "null" : key.length + "B")
                + ", value=" + (value == null ? "null" : value.length + "B")
                + ", headers=" + headers + "]";
    }
}
