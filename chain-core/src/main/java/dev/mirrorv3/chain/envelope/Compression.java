package dev.mirrorv3.chain.envelope;

/** Parquet compression codecs we write. NDJSON objects are written uncompressed. */
public enum Compression {
    ZSTD,
    SNAPPY,
    UNCOMPRESSED;

    /** As the {@code compression} setting spells it. */
    public String configValue() {
        return WireName.of(this);
    }

    public static Compression fromConfig(String value) {
        return WireName.parse(Compression.class, value, "compression");
    }
}
