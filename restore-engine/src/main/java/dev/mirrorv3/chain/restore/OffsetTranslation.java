package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.read.CheckedObject;
import java.util.function.Function;

/**
 * Where a committed offset of the backed-up partition lands after a renumbering restore, which writes the chain's
 * records at 0, 1, 2, ... in order: the new offset of committed offset C is the number of records before C in the
 * chain. That is exactly the next record the group had not read (the record at C, or the first one after a hole at C),
 * so a consumer resumes where it left off; no header or mapping table is needed.
 */
public final class OffsetTranslation {
    private OffsetTranslation() {
    }

    /**
     * @param reread reads an object of the chain again (only the one holding C is read)
     * @return the new offset; {@code vp.records()} for an offset at or past the chain's end
     */
    public static long renumbered(VerifiedPartition vp, long committed, Function<VerifiedObject, CheckedObject> reread) {
        long before = 0;
        for (VerifiedObject o : vp.objects()) {
            if (o.name().to() < committed) {
                before += o.records();
            } else if (o.name().from() < committed) {
                for (BackupRecord r : reread.apply(o).records()) {
                    if (r.offset() < committed) {
                        before++;
                    }
                }
            } else {
                break;
            }
        }
        return before;
    }
}
