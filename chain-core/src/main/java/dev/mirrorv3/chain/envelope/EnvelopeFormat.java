package dev.mirrorv3.chain.envelope;

/** The object format of a chain, which is also the object name's extension. */
public enum EnvelopeFormat {
    PARQUET("parquet"),
    NDJSON("ndjson");

    private final String extension;

    EnvelopeFormat(String extension) {
        this.extension = extension;
    }

    public String extension() {
        return extension;
    }

    public static EnvelopeFormat fromExtension(String ext) {
        for (EnvelopeFormat f : values()) {
            if (f.extension.equals(ext)) {
                return f;
            }
        }
        return null;
    }

    public static EnvelopeFormat fromConfig(String value) {
        for (EnvelopeFormat f : values()) {
            if (f.extension.equalsIgnoreCase(value)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown format '" + value + "': use parquet or ndjson");
    }
}
