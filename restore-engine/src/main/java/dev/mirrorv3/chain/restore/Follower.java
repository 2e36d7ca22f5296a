package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.read.CheckedObject;
import dev.mirrorv3.chain.store.ObjectMissingException;
import dev.mirrorv3.chain.store.Store;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Semaphore;

/**
 * Follows one partition's growing chain for a follow-restore (docs/chain-source.md), Connect-free. Stateless across restarts:
 * {@link #resume} places it at the target's high watermark h (preserve: the backup record with offset h; renumber:
 * the h-th record of the chain, reading the objects before it once) and returns the backup's record at h − 1 for the
 * resume check. {@link #next} then hands out one checked object's records at a time, each with its target offset
 * (with {@link #readingAhead}, the next listed object is read meanwhile); after the last listed object it lists the
 * objects after it (names only), which must continue the chain. With
 * preserve, a hole ends the batch before it and fails the following call, so the records before it are restored.
 * A call that fails (an unreachable store) changes nothing, so a later {@link #resume} at the target offset it was
 * placed at keeps its place and reads nothing: after a transient failure the follower does not re-read the chain.
 * For monitoring it tells the backup's end and newest record as of its last listing ({@link #backupEnd},
 * {@link #newestTimestampMs}).
 * Not thread-safe: one per partition.
 */
public final class Follower {
    private final FollowedChain backup;
    private final int partition;
    private final OffsetMode mode;
    private final long chainStart;
    private final String location;
    private final Deque<ObjectName> listed = new ArrayDeque<>();
    private List<BackupRecord> pending = List.of();
    private TargetOffsets offsets;
    private boolean placed;
    private BackupRecord previous;
    private long nextFrom;
    /** Where the last {@link #resume} found the chain starting: renumber counts the target's records from there. */
    private long countedFrom;
    private ChainException deferred;
    private final BackupEnd backupEnd = new BackupEnd();
    private RestoreCut cut = RestoreCut.none();
    private CutFinder finder = CutFinder.none();
    private NextObjectRead nextRead = new NextObjectRead(new Semaphore(0)); // no permit: reads nothing ahead

    /** A backup record and the target offset it is produced at. */
    public record Restored(BackupRecord record, long targetOffset) {
    }

    public Follower(Store store, EnvelopeSettings settings, String topic, int partition, OffsetMode mode, long chainStart) {
        this(store, settings, KeyRing.empty(), topic, partition, mode, chainStart);
    }

    /** A follower that reads encrypted objects with {@code keys} (each with the key id its name carries). */
    public Follower(Store store, EnvelopeSettings settings, KeyRing keys, String topic, int partition, OffsetMode mode, long chainStart) {
        this.backup = new FollowedChain(store, settings, keys, topic, partition, chainStart, backupEnd);
        this.partition = partition;
        this.mode = mode;
        this.chainStart = chainStart;
        this.location = backup.location();
    }

    public String location() {
        return location;
    }

    /**
     * Follows only up to a cut (a standby frozen at a point): {@link #next} hands out the prefix and then nothing, without
     * listing the backup again; {@link #cutReached()} says when it got there.
     */
    public Follower until(RestoreCut cut) {
        this.cut = cut;
        this.finder = cut.finder(partition);
        return this;
    }

    /**
     * Reads the next listed object ahead, while the records {@link #next} handed out are being sent, so that its reading and
     * decoding overlap with the sending: holding one more object in memory, with one of {@code permits}, which the
     * followers of a task share to bound what they hold ahead together.
     */
    public Follower readingAhead(Semaphore permits) {
        this.nextRead = new NextObjectRead(permits);
        return this;
    }

    /**
     * Drops the object read ahead, if any, giving its permit back: the follower is not asked for records for a while (its
     * partition failed), and the other followers sharing the permits should not wait for it. The next {@link #next}
     * reads the object in its turn.
     */
    public void dropReadAhead() {
        nextRead.drop();
    }

    /** Whether every record up to the cut has been handed out (never without a cut). */
    public boolean cutReached() {
        return finder.reached();
    }

    /** The cut's finder: what was handed out before it and the first record after it. */
    public CutFinder cut() {
        return finder;
    }

    /**
     * Places the follower at the target's high watermark. When it is placed at h already (nothing handed out since
     * has been lost, and nothing else was written), it keeps its place and reads nothing; otherwise it lists the chain from
     * {@code chain.start} and finds h there (renumber: reading every object before it).
     *
     * @param h the target partition's high watermark
     * @return the backup's record at target offset h − 1 (the one the target's last record must equal); empty if h = 0
     * @throws ChainException if the target is past the backup, or the chain is not valid from {@code chain.start}
     */
    public Optional<BackupRecord> resume(long h) {
        if (isAt(h)) {
            return Optional.ofNullable(previous);
        }
        placed = false;
        finder = cut.finder(partition); // the records from h on are looked at again
        nextRead.drop();
        listed.clear();
        pending = List.of();
        deferred = null;
        offsets = new TargetOffsets(mode, location, h);
        Chain chain = backup.listFromStart(chainStart);
        nextFrom = chain.first().map(ObjectName::from).orElse(chainStart);
        countedFrom = nextFrom;
        if (h == 0) {
            listed.addAll(chain.objects());
            return placed(null);
        }
        if (chain.isEmpty()) {
            throw pastBackup(h, "the backup holds no objects yet");
        }
        return placed(mode == OffsetMode.PRESERVE ? resumePreserve(chain, h) : resumeRenumber(chain, h));
    }

    /**
     * Whether the follower is placed at target offset h: a {@link #resume} there succeeded, and every record handed out
     * since is below h. Then {@code resume(h)} reads nothing.
     */
    public boolean isAt(long h) {
        return placed && offsets.next() == h;
    }

    private Optional<BackupRecord> placed(BackupRecord before) {
        previous = before;
        placed = true;
        return Optional.ofNullable(before);
    }

    private BackupRecord resumePreserve(Chain chain, long h) {
        long last = h - 1;
        if (last >= chain.nextOffset().getAsLong()) {
            throw pastBackup(h, "the backup ends at offset " + (chain.nextOffset().getAsLong() - 1));
        }
        if (last < nextFrom) {
            throw backup.prunedPast(new ChainException("the target's last record (offset " + last + ") cannot be checked: the"
                    + " backup at " + location + " starts at offset " + nextFrom + " (chain.start " + chainStart + "); follow such a"
                    + " backup into a new topic"), h, h);
        }
        for (ObjectName name : chain.objects()) {
            if (name.to() < last) {
                continue;
            }
            CheckedObject o = backup.readChecked(name);
            BackupRecord atLast = null;
            List<BackupRecord> after = new ArrayList<>();
            for (BackupRecord r : o.records()) {
                if (r.offset() <= last) {
                    requireInsideCut(r, r.offset());
                }
                if (r.offset() == last) {
                    atLast = r;
                } else if (r.offset() > last) {
                    after.add(r);
                }
            }
            if (atLast == null) {
                throw new ChainException("the target holds records that are not this backup's: it holds a record at offset " + last
                        + ", and " + location + "/" + name + " has no record there (a hole)");
            }
            pending = after;
            nextFrom = name.to() + 1;
            queueAfter(chain, name);
            return atLast;
        }
        throw new IllegalStateException("offset " + last + " is below the chain's end and in no object of " + location);
    }

    private BackupRecord resumeRenumber(Chain chain, long h) {
        long count = 0;
        BackupRecord lastSeen = null;
        for (ObjectName name : chain.objects()) {
            CheckedObject o = backup.readChecked(name);
            List<BackupRecord> records = o.records();
            if (count + records.size() >= h) {
                int index = (int) (h - count); // records of this object before the position
                for (int i = 0; i < index; i++) {
                    requireInsideCut(records.get(i), count + i);
                }
                BackupRecord before = index > 0 ? records.get(index - 1) : lastSeen;
                pending = List.copyOf(records.subList(index, records.size()));
                nextFrom = name.to() + 1;
                queueAfter(chain, name);
                return before;
            }
            for (int i = 0; i < records.size(); i++) {
                requireInsideCut(records.get(i), count + i);
            }
            count += records.size();
            lastSeen = records.get(records.size() - 1);
        }
        throw pastBackup(h, "the backup holds " + count + " records");
    }

    /**
     * A record the target holds (read while placing the follower) must lie inside the cut: a standby that followed past it
     * before the cut was set cannot be frozen there, and reporting the cut as reached would hide the records after it.
     * Checked on the records the placing reads anyway: with preserve the object that holds the target's last record (an
     * offset cut is exact, as offsets rise; a timestamp cut sees that object's records, and the caller checks the rest
     * through {@link #standbyCut()}), with renumber every record.
     */
    private void requireInsideCut(BackupRecord r, long targetOffset) {
        if (!finder.accept(r)) {
            throw standbyCut().past(targetOffset, r.timestampMs(), r.offset(), offsets.next());
        }
    }

    /**
     * What to add to a failed check of the target's last record after {@link #resume}: with renumber the position is a
     * count of records from where the chain starts, and when mirror-v3 prune moved that start, a target that counted from
     * before it cannot be placed again (its last record then differs from the one counted). Empty otherwise.
     */
    public String renumberAfterPrune() {
        if (mode != OffsetMode.RENUMBER || countedFrom <= chainStart) {
            return "";
        }
        OptionalLong start = backup.recordedStart();
        if (start.isEmpty() || start.getAsLong() < countedFrom) {
            return "";
        }
        return ". offsets=renumber places a standby by counting its records from where the chain starts, and the chain at "
                + location + " now starts at offset " + countedFrom + " (mirror-v3 prune removed the objects before it): a"
                + " standby that counted from before it cannot find its place again; follow the backup into a new, empty"
                + " topic (it begins at offset " + countedFrom + ")";
    }

    /** The check of the records the target holds against the cut, beyond those the placing reads. */
    public StandbyCut standbyCut() {
        return new StandbyCut(cut, partition, mode, backup);
    }

    private void queueAfter(Chain chain, ObjectName name) {
        for (ObjectName n : chain.objects()) {
            if (n.from() > name.to()) {
                listed.add(n);
            }
        }
    }

    private ChainException pastBackup(long h, String why) {
        return new ChainException("the target is past the backup: it holds " + h + " records (high watermark " + h + "), and " + why
                + " at " + location + " (offsets=" + mode.cliName() + "); the target holds records that are not this backup's, or the"
                + " backup lost objects: follow into a new, empty topic");
    }

    /**
     * The records of the next object (or what is left of the current one), each with its target offset; empty when no
     * new object has been written since the last listing (call again after the poll interval).
     *
     * @throws ChainException on a gap, a foreign or changed object, a hole with preserve (after the records before it), new
     *     objects encrypted with key ids the key ring lacks ({@link dev.mirrorv3.chain.crypto.MissingKeysException})
     * @throws dev.mirrorv3.chain.envelope.ValueTypeException if a record does not fit keys.type/values.type
     */
    public List<Restored> next() {
        if (offsets == null) {
            throw new IllegalStateException("resume(h) first");
        }
        if (deferred != null) {
            throw deferred;
        }
        if (finder.reached()) {
            pending = List.of();
            nextRead.drop();
            return List.of(); // at the cut: nothing more, and no need to list
        }
        if (pending.isEmpty()) {
            try {
                if (listed.isEmpty()) {
                    listNew();
                }
                if (listed.isEmpty()) {
                    return List.of();
                }
                pending = backup.took(nextRead.take(listed.peek(), backup::fetch)).records();
            } catch (ChainException.Gap | ObjectMissingException e) { // gone: removed by prune, or lost
                throw backup.prunedPast(e, nextFrom, offsets.next());
            }
            ObjectName name = listed.poll();
            nextFrom = name.to() + 1;
            if (!listed.isEmpty()) {
                nextRead.start(listed.peek(), backup::fetch);
            }
        }
        List<Restored> out = new ArrayList<>(pending.size());
        try {
            for (BackupRecord r : pending) {
                if (!finder.accept(r)) {
                    break;
                }
                out.add(new Restored(r, offsets.assign(r)));
            }
        } catch (TargetOffsets.Hole hole) {
            if (out.isEmpty()) {
                throw hole;
            }
            deferred = hole;
        }
        pending = List.of();
        if (!out.isEmpty()) {
            previous = out.get(out.size() - 1).record();
        }
        return out;
    }

    /** Whether the backup has held an object since {@link #resume} (false: the directory or prefix is still empty). */
    public boolean chainSeen() {
        return backup.seen();
    }

    /** The target offset of the next record. */
    public long nextTargetOffset() {
        return offsets.next();
    }

    /** The chain offset the next object must start at. */
    public long nextChainOffset() {
        return nextFrom;
    }

    private void listNew() {
        if (!backup.seen()) {
            listed.addAll(backup.listFromStart(nextFrom).objects());
        } else {
            listed.addAll(backup.listAfter(nextFrom));
        }
    }

    /** The offset after the newest object of the last listing: the backup's end as the follower last saw it. */
    public long backupEnd() {
        return backupEnd.end();
    }

    /** Objects read from the store (checked reads, the reads of a resume and the reads ahead of {@link #newestTimestampMs}). */
    public long objectsRead() {
        return backup.objectsRead();
    }

    /**
     * The timestamp of the backup's newest record as of the last listing (the last record of the newest object listed).
     * The follower knows it once it has read that object; until then it reads the object here, ahead of its turn, at most
     * once per {@code readAheadIntervalMs}, and meanwhile answers with the newest record it has read. So a follower that
     * keeps up reads nothing extra, and one that is behind at most one object per interval. Empty if no object was read
     * or the record has no timestamp. A read ahead that fails changes nothing: the follow reads the object in its turn
     * and reports the failure then.
     */
    public OptionalLong newestTimestampMs(long nowMs, long readAheadIntervalMs) {
        return backupEnd.newestTimestampMs(nowMs, readAheadIntervalMs, backup::read);
    }
}
