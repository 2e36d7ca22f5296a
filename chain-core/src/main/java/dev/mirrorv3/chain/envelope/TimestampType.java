package dev.mirrorv3.chain.envelope;

/** Kafka's timestamp type, spelled as mirror-v3 stores it in the {@code timestamp_type} column. */
public enum TimestampType {
    CREATE_TIME("create_time"),
    LOG_APPEND_TIME("log_append_time"),
    NOT_AVAILABLE("not_available");

    private final String stored;

    TimestampType(String stored) {
        this.stored = stored;
    }

    public String stored() {
        return stored;
    }

    /** mirror-v3 decodes unknown values as {@code not_available}; so do we. */
    public static TimestampType fromStored(String value) {
        for (TimestampType t : values()) {
            if (t.stored.equals(value)) {
                return t;
            }
        }
        return NOT_AVAILABLE;
    }
}
