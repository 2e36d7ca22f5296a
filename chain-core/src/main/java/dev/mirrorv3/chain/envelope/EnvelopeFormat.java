package dev.mirrorv3.chain.envelope;

/** The object format of a chain, which is also the object name's extension. */
public enum EnvelopeFormat {
    PARQUET,
    NDJSON;

    public String extension() {
        return WireName.of(this);
    }

    public static EnvelopeFormat fromExtension(String ext) {
        return WireName.exact(EnvelopeFormat.class, ext).orElse(null);
    }

    public static EnvelopeFormat fromConfig(String value) {
        return WireName.parse(EnvelopeFormat.class, value, "format");
    }
}
