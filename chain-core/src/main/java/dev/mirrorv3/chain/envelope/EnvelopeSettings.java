package dev.mirrorv3.chain.envelope;

import java.util.Objects;

/** What a chain's objects are written with: format, compression (Parquet only) and the key/value types. */
public record EnvelopeSettings(EnvelopeFormat format, Compression compression, ValueType keysType, ValueType valuesType) {

    public EnvelopeSettings {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(compression, "compression");
        Objects.requireNonNull(keysType, "keysType");
        Objects.requireNonNull(valuesType, "valuesType");
    }

    public static EnvelopeSettings parquetBytes() {
        return new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.ZSTD, ValueType.BYTES, ValueType.BYTES);
    }
}
