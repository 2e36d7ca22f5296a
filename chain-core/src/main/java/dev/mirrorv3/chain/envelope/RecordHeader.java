package dev.mirrorv3.chain.envelope;

import java.util.Arrays;
import java.util.Objects;

/** One Kafka record header: a non-null string key and a value that may be null. */
public record RecordHeader(String key, byte[] value) {

    public RecordHeader {
        Objects.requireNonNull(key, "header key");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecordHeader h && key.equals(h.key) && Arrays.equals(value, h.value);
    }

    @Override
    public int hashCode() {
        return 31 * key.hashCode() + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "RecordHeader[" + key + "=" + (value == null ? "null" : value.length + " bytes") + "]";
    }
}
