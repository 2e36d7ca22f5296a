package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.envelope.BackupRecord;

/**
 * Where backup records go in the target partition, shared by the one-shot restore and the follow-restore: with
 * {@code preserve} a record goes to its own offset and every position must hold a record (a Kafka partition cannot be
 * written with a hole); with {@code renumber} the records go to {@code next, next + 1, ...} in their order. Not
 * thread-safe: one per partition.
 */
public final class TargetOffsets {
    private final OffsetMode mode;
    private final String location;
    private long next;

    /**
     * @param location the chain's location, for messages
     * @param next the target offset of the next record (the target's high watermark)
     */
    public TargetOffsets(OffsetMode mode, String location, long next) {
        this.mode = mode;
        this.location = location;
        this.next = next;
    }

    /**
     * The target offset of the next record, which must follow the previous one.
     *
     * @throws Hole with {@code preserve} when the record is not at the next target offset
     */
    public long assign(BackupRecord r) {
        if (mode == OffsetMode.PRESERVE && r.offset() != next) {
            throw new Hole(location, next, r.offset());
        }
        return next++;
    }

    /** The target offset the next record will get. */
    public long next() {
        return next;
    }

    public OffsetMode mode() {
        return mode;
    }

    /** Preserve met a position of the chain without a record. */
    public static final class Hole extends ChainException {
        private static final long serialVersionUID = 1L;
        private final long offset;

        Hole(String location, long hole, long nextRecord) {
            super("hole at offset " + hole + " of " + location + " (no record there; the next record is at offset " + nextRecord
                    + "): a Kafka partition cannot be written with holes, so offsets=preserve cannot restore this backup past offset "
                    + (hole - 1) + "; restore it with offsets=renumber into a new topic");
            this.offset = hole;
        }

        public long offset() {
            return offset;
        }
    }
}
