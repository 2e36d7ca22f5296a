package dev.mirrorv3.chain.envelope;

/** Kafka's timestamp type, spelled as mirror-v3 stores it in the {@code timestamp_type} column. */
public enum TimestampType {
    CREATE_TIME,
    LOG_APPEND_TIME,
    NOT_AVAILABLE;

    public String stored() {
        return WireName.of(this);
    }

    /** mirror-v3 decodes unknown values as {@code not_available}; so do we. */
    public static TimestampType fromStored(String value) {
        return WireName.exact(TimestampType.class, value).orElse(NOT_AVAILABLE);
    }
}
