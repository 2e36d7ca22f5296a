package dev.mirrorv3.chain.envelope;

/** Records read one at a time from an object too large to decode into a list (a snapshot). */
public interface RecordStream extends AutoCloseable {

    /** The next record, or {@code null} at the end. */
    BackupRecord next();

    @Override
    void close();
}
