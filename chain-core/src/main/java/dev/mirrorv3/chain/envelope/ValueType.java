package dev.mirrorv3.chain.envelope;

/**
 * How a backup stores keys or values ({@code keys.type}, {@code values.type}).
 * In Parquet: {@code bytes} is BINARY, {@code utf8} is STRING, {@code json} is JSON-annotated STRING.
 */
public enum ValueType {
    BYTES("bytes"),
    UTF8("utf8"),
    JSON("json");

    private final String configValue;

    ValueType(String configValue) {
        this.configValue = configValue;
    }

    public String configValue() {
        return configValue;
    }

    public static ValueType fromConfig(String value) {
        for (ValueType t : values()) {
            if (t.configValue.equalsIgnoreCase(value)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown type '" + value + "': use bytes, utf8 or json");
    }
}
