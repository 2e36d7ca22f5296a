package dev.mirrorv3.chain.snapshot;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.read.ObjectCheckException;
import java.util.Arrays;

/**
 * What each record of one snapshot must be: of the backup's topic and partition, with a key, not a tombstone (a deleted
 * key is absent), no offset above the name's {@code to}, and its key above the one before by unsigned bytes (sorted,
 * unique).
 *
 * @param where the object's location, for messages
 */
record SnapshotRecordRules(String where, ObjectName name, String topic, int partition) {
    /**
     * @param previousKey the key of the record read before, null for the first
     * @param keys the keys read before this record
     * @throws ObjectCheckException naming the record's offset and the rule it breaks
     */
    void check(BackupRecord r, byte[] previousKey, long keys) {
        if (!r.topic().equals(topic) || r.partition() != partition) {
            throw new ObjectCheckException(where + ": record at offset " + r.offset() + " is from " + r.topic() + "/" + r.partition()
                    + ", and this backup is of " + topic + "/" + partition);
        }
        if (r.key() == null) {
            throw new ObjectCheckException(where + ": record at offset " + r.offset() + " has no key; a snapshot holds one record"
                    + " per key");
        }
        if (r.value() == null) {
            throw new ObjectCheckException(where + ": record at offset " + r.offset() + " is a tombstone (null value); a snapshot"
                    + " leaves deleted keys out");
        }
        if (r.offset() > name.to()) {
            throw new ObjectCheckException(where + ": record at offset " + r.offset() + " lies after the snapshot's end " + name.to()
                    + " (its name)");
        }
        if (previousKey != null) {
            int c = Arrays.compareUnsigned(previousKey, r.key());
            if (c >= 0) {
                throw new ObjectCheckException(where + ": keys are not " + (c == 0 ? "unique" : "sorted by their bytes")
                        + " (record at offset " + r.offset() + ", key number " + (keys + 1) + ")");
            }
        }
    }
}
