package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;

/**
 * Whether the records a follow-restore's target already holds lie inside its cut (docs/chain-source.md): a standby that
 * followed past the cut before it was set cannot be frozen there. The placing of a {@link Follower} checks the records
 * it reads; with preserve and a timestamp cut that is only the object holding the target's last record, so the caller
 * checks the rest: by the target's own timestamps (Kafka's time index, exact as {@link CutFinder} is: the prefix ends
 * before the first record stamped after the cut), or, for a target whose timestamps are not the backup's
 * (LogAppendTime), by reading the backup's records before the target's end.
 */
public final class StandbyCut {
    private final RestoreCut cut;
    private final int partition;
    private final OffsetMode mode;
    private final FollowedChain backup;

    /** @param backup the followed chain: where it is and where it starts */
    StandbyCut(RestoreCut cut, int partition, OffsetMode mode, FollowedChain backup) {
        this.cut = cut;
        this.partition = partition;
        this.mode = mode;
        this.backup = backup;
    }

    /** Whether the placing left records the target holds unchecked: a timestamp cut with preserve. */
    public boolean uncheckedBeforeTail() {
        return mode == OffsetMode.PRESERVE && cut.untilTimestampMs() != null;
    }

    /** The cut's timestamp (the last one inside it), or null without one. */
    public Long timestampMs() {
        return cut.untilTimestampMs();
    }

    /** The target holds a record stamped after the cut at {@code targetOffset}, below its high watermark {@code h}. */
    public ChainException targetPast(long targetOffset, long timestampMs, long h) {
        return past(targetOffset, timestampMs, targetOffset, h);
    }

    /**
     * Reads the backup's records at offsets below {@code h} (preserve: the target's offsets), every object from
     * {@code chain.start} up to the one holding {@code h - 1}, and requires each to lie inside the cut.
     *
     * @throws ChainException naming the first record after the cut
     */
    public void requireBackupInsideBefore(long h) {
        CutFinder check = cut.finder(partition);
        for (ObjectName name : backup.listFromStart(backup.chainStart()).objects()) {
            if (name.from() >= h) {
                return;
            }
            for (BackupRecord r : backup.readChecked(name).records()) {
                if (r.offset() >= h) {
                    return;
                }
                if (!check.accept(r)) {
                    throw past(r.offset(), r.timestampMs(), r.offset(), h);
                }
            }
        }
    }

    ChainException past(long targetOffset, Long timestampMs, long backupOffset, long h) {
        Long ts = timestampMs != null && timestampMs >= 0 ? timestampMs : null;
        String location = backup.location();
        return new ChainException("the target holds records after the cut (offset " + targetOffset
                + (ts == null ? "" : " stamped " + java.time.Instant.ofEpochMilli(ts))
                + (targetOffset == backupOffset ? "" : ", backup offset " + backupOffset) + "): " + cut.describe(partition) + " of "
                + location + " is before the target's end (high watermark " + h + "), so the standby already holds what the cut"
                + " leaves out and cannot be frozen there. Restore the backup with the cut into a new topic (this connector with"
                + " another target.topic, or mirror-v3 restore --until-timestamp/--until-offset), or delete and re-create the"
                + " target topic and follow again with the cut");
    }
}
