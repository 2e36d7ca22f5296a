package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordTypeCheck;
import dev.mirrorv3.chain.read.CheckedObject;
import java.util.function.ToLongFunction;

/**
 * One partition's verify pass, object after object ({@link BackupVerifier}): checks each record's types, takes the records
 * up to the cut into the digest and the {@link RecordStats}, and finds each object's first hole.
 */
final class VerifyPass {
    private final CutFinder cut;
    private final RecordTypeCheck types;
    private final ToLongFunction<BackupRecord> recordSize;
    private final RecordDigest digest = new RecordDigest();
    private RecordStats stats = RecordStats.none();

    VerifyPass(CutFinder cut, RecordTypeCheck types, ToLongFunction<BackupRecord> recordSize) {
        this.cut = cut;
        this.types = types;
        this.recordSize = recordSize;
    }

    /** The object's records up to the cut, or null when the cut leaves none of them. */
    VerifiedObject add(ObjectName name, CheckedObject o) {
        long expected = name.from();
        long firstHole = -1;
        int restored = 0;
        for (BackupRecord r : o.records()) {
            if (!cut.accept(r)) {
                break;
            }
            restored++;
            digest.add(r);
            if (firstHole < 0 && r.offset() != expected) {
                firstHole = expected;
            }
            expected = r.offset() + 1;
            types.check(r);
            stats = stats.plus(r, recordSize.applyAsLong(r));
        }
        return restored == 0 ? null : new VerifiedObject(name, o.sha256(), o.sizeBytes(), restored, firstHole);
    }

    RecordStats stats() {
        return stats;
    }

    PartitionCut partitionCut() {
        return PartitionCut.of(cut, digest);
    }
}
