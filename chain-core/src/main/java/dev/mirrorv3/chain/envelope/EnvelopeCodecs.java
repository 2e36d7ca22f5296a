package dev.mirrorv3.chain.envelope;

/** Picks the codec for a chain's settings. */
public final class EnvelopeCodecs {
    private EnvelopeCodecs() {
    }

    public static EnvelopeCodec forSettings(EnvelopeSettings settings) {
        return switch (settings.format()) {
            case PARQUET -> new ParquetCodec(settings);
            case NDJSON -> new NdjsonCodec(settings);
        };
    }
}
