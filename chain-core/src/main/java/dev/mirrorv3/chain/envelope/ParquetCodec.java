package dev.mirrorv3.chain.envelope;

import java.util.List;

/** Placeholder until the codec lands. */
public final class ParquetCodec implements EnvelopeCodec {
    private final EnvelopeSettings settings;

    public ParquetCodec(EnvelopeSettings settings) {
        this.settings = settings;
    }

    @Override
    public EnvelopeFormat format() {
        return settings.format();
    }

    @Override
    public byte[] encode(List<BackupRecord> records) {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public List<BackupRecord> decode(byte[] data, String objectDescription) {
        throw new UnsupportedOperationException("not yet");
    }
}
