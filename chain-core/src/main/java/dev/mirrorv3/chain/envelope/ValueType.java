package dev.mirrorv3.chain.envelope;

/**
 * How a backup stores keys or values ({@code keys.type}, {@code values.type}).
 * In Parquet: {@code bytes} is BINARY, {@code utf8} is STRING, {@code json} is JSON-annotated STRING.
 */
public enum ValueType {
    BYTES,
    UTF8,
    JSON;

    public String configValue() {
        return WireName.of(this);
    }

    public static ValueType fromConfig(String value) {
        return WireName.parse(ValueType.class, value, "type");
    }
}
