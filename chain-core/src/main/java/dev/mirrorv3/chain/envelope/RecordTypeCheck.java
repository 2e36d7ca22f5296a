package dev.mirrorv3.chain.envelope;

/**
 * Checks records against a chain's {@code keys.type}/{@code values.type} (strict UTF-8, one JSON text), as the
 * codecs do when they encode. Restore checks every record with it before producing. Not thread-safe: one per thread.
 */
public final class RecordTypeCheck {
    private final ValueTypeGuard guard;

    public RecordTypeCheck(EnvelopeSettings settings) {
        this.guard = new ValueTypeGuard(settings.keysType(), settings.valuesType());
    }

    /** @throws ValueTypeException naming topic, partition, offset and the setting */
    public void check(BackupRecord record) {
        guard.check(record);
    }
}
