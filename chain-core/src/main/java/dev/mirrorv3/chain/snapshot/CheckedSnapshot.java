package dev.mirrorv3.chain.snapshot;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeDecodeException;
import dev.mirrorv3.chain.envelope.RecordStream;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import java.nio.file.Path;

/**
 * One snapshot's records in key order, each checked as it is read against what a snapshot is: the right topic and
 * partition, keys present and strictly increasing by unsigned bytes (sorted, unique), no tombstone (a deleted key is
 * absent), no offset above the name's {@code to}. Closing it removes its local copy.
 */
public final class CheckedSnapshot implements RecordStream {
    private final SnapshotRecordRules rules;
    private final long sizeBytes;
    private final RecordStream records;
    private final Path localCopy;
    private byte[] previousKey;
    private long keys;
    private long maxOffset = -1;

    CheckedSnapshot(SnapshotRecordRules rules, long sizeBytes, RecordStream records, Path localCopy) {
        this.rules = rules;
        this.sizeBytes = sizeBytes;
        this.records = records;
        this.localCopy = localCopy;
    }

    public ObjectName name() {
        return rules.name();
    }

    /** The object's size in the store. */
    public long sizeBytes() {
        return sizeBytes;
    }

    /** The SHA-256 of the object's bytes (its local copy, read once more), lower-case hex: what its manifest recorded. */
    public String sha256() {
        return ManifestCodec.sha256(localCopy);
    }

    /** Keys read so far (all of them once {@link #next()} returned null). */
    public long keys() {
        return keys;
    }

    /** The highest offset read so far; -1 if none. */
    public long maxOffset() {
        return maxOffset;
    }

    @Override
    public BackupRecord next() {
        BackupRecord r;
        try {
            r = records.next();
        } catch (EnvelopeDecodeException e) {
            throw SnapshotReader.unreadable(rules.where(), rules.name(), e);
        }
        if (r == null) {
            return null;
        }
        rules.check(r, previousKey, keys);
        previousKey = r.key();
        keys++;
        maxOffset = Math.max(maxOffset, r.offset());
        return r;
    }

    /** Reads to the end, checking every record; returns the number of keys. */
    public long checkAll() {
        while (next() != null) {
            // each record is checked by next()
        }
        return keys;
    }

    @Override
    public void close() {
        try {
            records.close();
        } finally {
            SnapshotReader.deleteQuietly(localCopy);
        }
    }
}
