package dev.mirrorv3.chain.prune;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.manifest.ChainStart.BeforeTheRule;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.ObjectLockedException;
import dev.mirrorv3.chain.store.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Removes whole objects from the head of a partition's chain (docs/restore-cli.md, "prune"), oldest first: an object goes
 * when its newest record's timestamp is before the cut, and everything before it went too; the chain's newest object
 * always stays. The new start is recorded before anything is deleted ({@link ChainStart#record}), so a run killed at any
 * point leaves a chain that every reader accepts (it starts at or below its recorded start), and a second run removes
 * what lies below the recorded start whatever its cut. An object under an Object Lock retention stops the partition's
 * removal there (removing the objects after it would leave a gap): it and the objects after it stay, and it is reported.
 * Each object's retention is asked before the start is recorded ({@link Store#retention}), so that the start recorded is
 * where what stays begins; one locked between that question and its delete is left all the same (the start then lies
 * above it, which every reader accepts).
 */
public record ChainPruner(Store store, ChainReader reader, String topic) {
    /**
     * @param cut objects whose newest record is older than this go
     * @param dryRun only say what would go
     */
    public PartitionPrune prune(int partition, Instant cut, boolean dryRun) {
        // the one start rule: a chain shortened by hand is refused; one from before the rule gets a start record if pruned
        Chain chain = reader.listChain(partition, OptionalLong.empty(), BeforeTheRule.ACCEPT);
        List<ObjectName> objects = chain.objects();
        OptionalLong recorded = ChainStart.recorded(store, partition, reader.listing(partition).newest());
        List<ObjectName> going = new ArrayList<>();
        for (int i = 0; i < objects.size() - 1; i++) { // never the newest object
            ObjectName o = objects.get(i);
            boolean belowRecorded = recorded.isPresent() && o.to() < recorded.getAsLong(); // an interrupted run's
            if (!belowRecorded && newestTimestamp(partition, o) >= cut.toEpochMilli()) {
                break;
            }
            going.add(o);
        }
        List<PartitionPrune.Removed> removed = new ArrayList<>();
        List<PartitionPrune.Locked> locked = new ArrayList<>();
        for (int i = 0; i < going.size(); i++) { // the start is recorded where what stays begins: at a locked object
            Optional<ObjectLockedException> retention = store.retention(partition, going.get(i).fileName());
            if (retention.isPresent()) {
                locked.add(new PartitionPrune.Locked(going.get(i), retention.get().getMessage()));
                going = going.subList(0, i);
                break;
            }
        }
        OptionalLong newStart = going.isEmpty() ? OptionalLong.empty() : OptionalLong.of(objects.get(going.size()).from());
        if (!dryRun && newStart.isPresent()) {
            ChainStart.record(store, partition, newStart.getAsLong()); // first: every reader accepts the chain from here on
        }
        for (ObjectName o : going) {
            long size = store.size(partition, o.fileName());
            if (!dryRun) {
                try {
                    store.delete(partition, o.fileName());
                } catch (ObjectLockedException e) { // locked since it was asked: the start recorded lies above what stays
                    locked.add(new PartitionPrune.Locked(o, e.getMessage()));
                    break;
                }
            }
            removed.add(new PartitionPrune.Removed(o, size));
        }
        long keptBytes = 0;
        for (ObjectName o : objects.subList(removed.size(), objects.size())) {
            keptBytes += store.size(partition, o.fileName());
        }
        return new PartitionPrune(partition, newStart, removed, locked, objects.size() - removed.size(), keptBytes);
    }

    private long newestTimestamp(int partition, ObjectName o) {
        return reader.read(partition, o, topic).records().stream()
                .mapToLong(r -> r.timestampMs() == null ? Long.MAX_VALUE : r.timestampMs()).max()
                .orElse(Long.MAX_VALUE);
    }
}
