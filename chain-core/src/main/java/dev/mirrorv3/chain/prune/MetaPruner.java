package dev.mirrorv3.chain.prune;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.store.ObjectLockedException;
import dev.mirrorv3.chain.store.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Removes a backup's old topic-metadata and consumer-group snapshots under {@code _meta/} by the chains' cut
 * (docs/restore-cli.md, "prune"): a snapshot's time is its name's, and of each kind everything older than the one a
 * restore at the cut takes goes. That one stays, so a point-in-time restore at any time from the cut on takes what it took
 * before the run: one at the cut or later is kept anyway, and for an earlier time it takes that same snapshot. Topic
 * snapshots: the newest at or before the cut (restore reads the newest; the one at the cut is the topic as the kept window
 * starts). Group snapshots: the one {@link MetaSnapshots#groupsOfBackup} takes at the cut (the newest at or before it of
 * the backup's topic id); when it takes none, none goes. The newest of each kind always stays. Snapshots stand alone, so
 * one under an Object Lock retention is left and reported and the others go on.
 */
public final class MetaPruner {
    private final Store store;
    private final MetaSnapshots meta;

    public MetaPruner(Store store, ObjectEncryption encryption) {
        this.store = store;
        this.meta = new MetaSnapshots(store, encryption);
    }

    /** @param dryRun only say what would go */
    public MetaPrune prune(Instant cut, boolean dryRun) {
        long cutMs = cut.toEpochMilli();
        List<MetaName> topics = meta.topicNames();
        Optional<MetaName> topicKept = topics.stream().filter(n -> n.timeMs() <= cutMs).reduce((a, b) -> b);
        List<MetaName> groups = meta.groupNames();
        Optional<MetaName> groupsKept = groups.stream().anyMatch(n -> n.timeMs() <= cutMs)
                ? meta.groupsOfBackup(t -> t <= cutMs, g -> true).chosen().map(MetaSnapshots.Stored::name)
                : Optional.empty();
        List<MetaPrune.Removed> removed = new ArrayList<>();
        List<MetaPrune.Locked> locked = new ArrayList<>();
        remove(MetaSnapshots.TOPIC_DIR, below(topics, topicKept), dryRun, removed, locked);
        remove(MetaSnapshots.GROUPS_DIR, below(groups, groupsKept), dryRun, removed, locked);
        return new MetaPrune(removed, locked, topics.size() + groups.size() - removed.size());
    }

    /** The names older than the one kept at the cut; none when none is kept there. */
    private static List<MetaName> below(List<MetaName> names, Optional<MetaName> kept) {
        return kept.map(k -> names.stream().filter(n -> n.compareTo(k) < 0).toList()).orElse(List.of());
    }

    private void remove(String dir, List<MetaName> going, boolean dryRun, List<MetaPrune.Removed> removed,
            List<MetaPrune.Locked> locked) {
        for (MetaName n : going) {
            long bytes = store.readBeside(dir, n.fileName()).length; // a snapshot is small: a read is its size
            if (!dryRun) {
                try {
                    store.deleteBeside(dir, n.fileName());
                } catch (ObjectLockedException e) {
                    locked.add(new MetaPrune.Locked(dir, n, e.getMessage()));
                    continue;
                }
            }
            removed.add(new MetaPrune.Removed(dir, n, bytes));
        }
    }

    /** For messages: where a kind's snapshots live. */
    public String location(String dir) {
        return meta.location(dir);
    }
}
