package dev.mirrorv3.chain.envelope;

/** Parquet compression codecs we write. NDJSON objects are written uncompressed. */
public enum Compression {
    ZSTD("zstd"),
    SNAPPY("snappy"),
    UNCOMPRESSED("uncompressed");

    private final String configValue;

    Compression(String configValue) {
        this.configValue = configValue;
    }

    public String configValue() {
        return configValue;
    }

    public static Compression fromConfig(String value) {
        for (Compression c : values()) {
            if (c.configValue.equalsIgnoreCase(value)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown compression '" + value + "': use zstd, snappy or uncompressed");
    }
}
