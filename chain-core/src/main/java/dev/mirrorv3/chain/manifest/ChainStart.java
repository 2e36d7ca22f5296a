package dev.mirrorv3.chain.manifest;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.store.ObjectExistsException;
import dev.mirrorv3.chain.store.Store;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The one rule for where a partition's chain may start (docs/design.md, "Where a chain starts"), which every reader
 * applies: at offset 0, or at or below its recorded start. The recorded start is the greater of the newest manifest's
 * {@code start} and the newest start record, an object {@code _start/<partition>/<20-digit offset>.json} beside the chain
 * created with the objects' no-overwrite commit: {@code mirror-v3 prune} creates one before it deletes anything, and a
 * writer creates one before the first object of a chain that begins elsewhere than 0 (a source whose log starts later).
 * A chain starting below its recorded start is one whose prune was interrupted: what lies before the recorded start may
 * be removed, and a second run removes it. Anything else lost its head to something other than prune, and is refused.
 *
 * <p>A chain with neither a manifest nor a start record is one from before the rule, written by an earlier version; what
 * each reader does with it when it starts after 0 is its {@link BeforeTheRule}.
 */
public final class ChainStart {
    private static final Pattern NAME = Pattern.compile("\\d{20}\\.json");

    private ChainStart() {
    }

    /** What a reader does with a chain from before the rule (no manifest, no start record) that starts after 0. */
    public enum BeforeTheRule {
        /** The blob sink's open: accepts the start as it did before and records it at once (trust on first open). */
        RECORD,
        /** Readers that never write and accepted any start before (decrypt, the blob sink's status row, prune's listing). */
        ACCEPT,
        /** Restore and the chain source: refuse it as before, unless told where the chain starts. */
        REFUSE
    }

    /** The directory beside the chains holding a partition's start records. */
    public static String dir(int partition) {
        return "_start/" + partition;
    }

    /**
     * What a reader's start setting requires: 0 (the default of restore's {@code --chain-start} and the chain source's
     * {@code chain.start}) is the rule (empty); another offset requires the chain to start at or before it.
     */
    public static OptionalLong required(long configured) {
        return configured == 0 ? OptionalLong.empty() : OptionalLong.of(configured);
    }

    /** The newest start record of the partition; empty if it has none. */
    public static OptionalLong recordedByStartRecords(Store store, int partition) {
        List<String> names = store.listBeside(dir(partition));
        for (int i = names.size() - 1; i >= 0; i--) {
            if (NAME.matcher(names.get(i)).matches()) {
                return OptionalLong.of(Long.parseLong(names.get(i).substring(0, 20)));
            }
        }
        return OptionalLong.empty();
    }

    /** The partition's recorded start: the greater of the newest manifest's and the newest start record's. */
    public static OptionalLong recorded(Store store, int partition, Optional<StoredManifest> newest) {
        OptionalLong byRecord = recordedByStartRecords(store, partition);
        OptionalLong byManifest = newest.map(m -> OptionalLong.of(m.manifest().start())).orElse(OptionalLong.empty());
        if (byRecord.isEmpty()) {
            return byManifest;
        }
        return OptionalLong.of(Math.max(byRecord.getAsLong(), byManifest.orElse(0)));
    }

    /**
     * Creates a start record with the objects' no-overwrite commit; one already there (an earlier run's) is this record.
     */
    public static void record(Store store, int partition, long start) {
        String name = ObjectName.pad(start) + ".json";
        byte[] bytes = ("{\"format_version\":1,\"partition\":" + partition + ",\"start\":" + start + "}\n")
                .getBytes(StandardCharsets.UTF_8);
        try {
            store.recommitBeside(dir(partition), name, bytes);
        } catch (ObjectExistsException e) {
            // another content under the same name still records the same start: the name is the record
        }
    }

    /**
     * Applies the rule to a chain whose first object is {@code first}, or, when nothing is recorded (a chain from before
     * the rule), does what {@code beforeTheRule} says.
     *
     * @throws ChainException.WrongChainStart naming the chain, where it starts and where it may start
     */
    public static void check(Store store, int partition, ObjectName first, OptionalLong recorded, BeforeTheRule beforeTheRule) {
        if (first.from() == 0 || recorded.isPresent() && first.from() <= recorded.getAsLong()) {
            return;
        }
        String location = store.location(partition);
        if (recorded.isPresent()) {
            throw new ChainException.WrongChainStart("the chain at " + location + " starts at offset " + first.from() + " ("
                    + first + "), not at 0 nor at its recorded start (" + recorded.getAsLong() + "): objects before it were"
                    + " removed, and not by mirror-v3 prune (which records the new start first); restore them from a copy, or"
                    + " read the chain from where it starts with restore --chain-start " + first.from());
        }
        switch (beforeTheRule) {
            case RECORD -> record(store, partition, first.from());
            case ACCEPT -> {
            }
            case REFUSE -> throw new ChainException.WrongChainStart(location, first, 0);
        }
    }
}
