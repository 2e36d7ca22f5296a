package dev.mirrorv3.chain.read;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import java.util.List;

/**
 * An object read back and checked against its name, with the SHA-256 of the bytes read (restore compares the
 * bytes of a re-read with the verify pass).
 */
public record CheckedObject(ObjectName name, List<BackupRecord> records, byte[] sha256, long sizeBytes) {

    /** Positions of the object's range without a record (compaction, transaction markers, aborted records). */
    public long holes() {
        return name.span() - records.size();
    }
}
