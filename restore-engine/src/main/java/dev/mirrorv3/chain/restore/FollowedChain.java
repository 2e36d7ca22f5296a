package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ChainValidator;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.RecordTypeCheck;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.read.CheckedObject;
import dev.mirrorv3.chain.store.Store;
import java.util.List;
import java.util.OptionalLong;

/**
 * The store side of a {@link Follower}: lists one partition's chain (from {@code chain.start}, or the objects after the
 * last one it continues), reads and type-checks its objects, tells each listing and read to the follower's
 * {@link BackupEnd} and counts the objects read. Keeps no place in the chain: the follower decides what to list and read.
 */
final class FollowedChain {
    private static final int LIST_MAX = 1000;

    private final Store store;
    private final ChainReader reader;
    private final RecordTypeCheck types;
    private final EnvelopeSettings settings;
    private final String topic;
    private final int partition;
    private final long chainStart;
    private final String location;
    private final BackupEnd backupEnd;
    private boolean seen;
    private long objectsRead;

    FollowedChain(Store store, EnvelopeSettings settings, KeyRing keys, String topic, int partition, long chainStart,
            BackupEnd backupEnd) {
        this.store = store;
        this.settings = settings;
        this.reader = new ChainReader(store, settings, keys);
        this.types = new RecordTypeCheck(settings);
        this.topic = topic;
        this.partition = partition;
        this.chainStart = chainStart;
        this.backupEnd = backupEnd;
        this.location = store.location(partition);
    }

    String location() {
        return location;
    }

    /** The offset the chain starts at ({@code chain.start}). */
    long chainStart() {
        return chainStart;
    }

    /**
     * The chain from {@code chain.start}, validated.
     *
     * @param nextFrom where the backup ends at least when the chain is empty
     */
    Chain listFromStart(long nextFrom) {
        Chain chain = reader.listChain(partition, ChainStart.required(chainStart));
        seen = !chain.isEmpty();
        backupEnd.listed(chain, nextFrom);
        return chain;
    }

    /**
     * What a gap or a missing object at {@code from} is when the chain's recorded start lies past it: mirror-v3 prune removed
     * the objects the follower needs next (docs/chain-source.md, "A standby behind the chain's start"). Otherwise
     * {@code e} itself.
     *
     * @param targetNext the target offset the next record would go to
     */
    RuntimeException prunedPast(RuntimeException e, long from, long targetNext) {
        OptionalLong start = recordedStart();
        if (start.isEmpty() || start.getAsLong() <= from) {
            return e;
        }
        long s = start.getAsLong();
        ChainException behind = new ChainException("backup partition " + partition + " at " + location + " now starts at offset " + s
                + " (its recorded start: mirror-v3 prune removed the objects before it), and this standby's next record is the"
                + " backup's offset " + from + " (target offset " + targetNext + "): offsets " + from + "-" + (s - 1) + " are no"
                + " longer in the backup, so this target cannot continue. Follow the backup into a new, empty topic with"
                + " offsets=renumber (it begins at offset " + s + "), or put the removed objects back from a copy; keep prune's"
                + " retention longer than a standby may lag");
        behind.initCause(e);
        return behind;
    }

    /** The chain's recorded start (a manifest's or a start record's), read from the store now. */
    OptionalLong recordedStart() {
        return ChainStart.recorded(store, partition, reader.listing(partition).newest());
    }

    /** Whether the last listing from {@code chain.start} found an object. */
    boolean seen() {
        return seen;
    }

    /**
     * The objects written after the chain's end {@code nextFrom} (at most {@value #LIST_MAX}), which must continue it, and
     * whose key ids the key ring must hold; empty when none is new.
     */
    List<ObjectName> listAfter(long nextFrom) {
        List<String> names = reader.listing(partition).namesFrom(ObjectName.pad(nextFrom), LIST_MAX);
        if (names.isEmpty()) {
            return List.of();
        }
        Chain chain = ChainValidator.validate(location, names, settings.format(), OptionalLong.empty());
        ObjectName first = chain.objects().get(0);
        if (first.from() != nextFrom) {
            throw new ChainException.Gap(location, nextFrom, first);
        }
        reader.keys().requireKeysFor(location, chain.objects());
        backupEnd.listed(chain, nextFrom);
        return chain.objects();
    }

    /** An object's records, each checked against keys.type/values.type. */
    CheckedObject readChecked(ObjectName name) {
        return took(fetch(name));
    }

    /**
     * Reads an object and checks it against its name, telling no one: thread-safe, for a read ahead of the follower's
     * turn; {@link #took} then takes it in when its turn comes.
     */
    CheckedObject fetch(ObjectName name) {
        return reader.read(partition, name, topic);
    }

    /** An object fetched for the follower, in its turn: counted, told to the {@link BackupEnd}, its records type-checked. */
    CheckedObject took(CheckedObject o) {
        told(o);
        for (BackupRecord r : o.records()) {
            types.check(r);
        }
        return o;
    }

    /** Objects read so far (checked reads and the reads ahead of {@link BackupEnd#newestTimestampMs}). */
    long objectsRead() {
        return objectsRead;
    }

    /** An object's records as stored, counted and told to the {@link BackupEnd}. */
    CheckedObject read(ObjectName name) {
        return told(fetch(name));
    }

    private CheckedObject told(CheckedObject o) {
        objectsRead++;
        backupEnd.read(o.name(), o.records());
        return o;
    }
}
