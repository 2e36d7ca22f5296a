package dev.mirrorv3.chain.prune;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.SnapshotChain;
import dev.mirrorv3.chain.snapshot.SnapshotChoice;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.store.ObjectLockedException;
import dev.mirrorv3.chain.store.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Removes a {@code compaction=log} partition's old snapshots (docs/restore-cli.md, "prune"): every snapshot older than the
 * one a restore {@code --until-timestamp} at the cut takes ({@link SnapshotChoice}: the newest that took no record stamped
 * after the cut). A restore at any later time takes that one or a newer one, so all it can take stays; the newest snapshot
 * always stays (it is the backup and the sink's position), and an idle partition's only snapshot, however old, with it.
 * When no snapshot is at or before the cut, or the choice reaches one that did not record its stamps, nothing goes.
 * Gaps below the newest snapshot are allowed, so no start is recorded and one under a retention is left, reported, and the
 * others go on.
 */
public final class SnapshotPruner {
    private final Store store;
    private final SnapshotReader reader;

    public SnapshotPruner(Store store, SnapshotReader reader) {
        this.store = store;
        this.reader = reader;
    }

    /** @param dryRun only say what would go */
    public PartitionPrune prune(int partition, Instant cut, boolean dryRun) {
        SnapshotChain chain = reader.list(partition);
        List<ObjectName> objects = chain.objects();
        int kept = objects.isEmpty() ? 0 : objects.indexOf(keptAtCut(partition, chain, cut));
        List<PartitionPrune.Removed> removed = new ArrayList<>();
        List<PartitionPrune.Locked> locked = new ArrayList<>();
        long keptBytes = 0;
        for (int i = 0; i < objects.size(); i++) {
            ObjectName o = objects.get(i);
            long size = store.size(partition, o.fileName());
            if (i >= kept) {
                keptBytes += size;
                continue;
            }
            if (!dryRun) {
                try {
                    store.delete(partition, o.fileName());
                } catch (ObjectLockedException e) {
                    locked.add(new PartitionPrune.Locked(o, e.getMessage()));
                    keptBytes += size;
                    continue;
                }
            }
            removed.add(new PartitionPrune.Removed(o, size));
        }
        return new PartitionPrune(partition, OptionalLong.empty(), removed, locked, objects.size() - removed.size(), keptBytes);
    }

    /** The snapshot a restore at the cut takes, or the oldest when it takes none (then nothing goes). */
    private ObjectName keptAtCut(int partition, SnapshotChain chain, Instant cut) {
        try {
            return SnapshotChoice.choose(chain, null, cut.toEpochMilli(), o -> reader.takenStamps(partition, o)).snapshot();
        } catch (ChainException e) {
            return chain.objects().get(0);
        }
    }
}
