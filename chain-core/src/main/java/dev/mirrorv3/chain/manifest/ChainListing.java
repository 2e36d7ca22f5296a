package dev.mirrorv3.chain.manifest;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ChainValidator;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.SnapshotChain;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.manifest.ChainStart.BeforeTheRule;
import dev.mirrorv3.chain.store.ObjectMissingException;
import dev.mirrorv3.chain.store.OpeningListing;
import dev.mirrorv3.chain.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way a partition's chain is listed (docs/design.md, "Manifests"): every reader and writer of objects and
 * manifests goes through it. A writer opens the chain from its newest manifest and lists only the objects after the last
 * one it covers ({@link #head}: one listing of the manifests, one read, one short listing of objects, whatever the
 * chain's length); a reader that needs every object lists them all ({@link #chain}, {@link #snapshots}) and, to check
 * them, reads the manifests ({@link ManifestTrail}).
 */
public final class ChainListing {
    private static final Logger log = LoggerFactory.getLogger(ChainListing.class);

    private final Store store;
    private final int partition;
    private final Manifest.Kind kind;
    private final String location;
    private final String dir;

    public ChainListing(Store store, int partition, Manifest.Kind kind) {
        this.store = store;
        this.partition = partition;
        this.kind = kind;
        this.location = store.location(partition);
        this.dir = ManifestName.dir(partition);
    }

    public Store store() {
        return store;
    }

    public int partition() {
        return partition;
    }

    public Manifest.Kind kind() {
        return kind;
    }

    /** The partition's location, for messages. */
    public String location() {
        return location;
    }

    /** Where a manifest of this partition is, for messages. */
    public String manifestLocation(String name) {
        return store.besideLocation(dir) + "/" + name;
    }

    /** Every name in the partition's directory: a full listing, as long as the chain. */
    public List<String> names() {
        return store.list(partition);
    }

    /** At most {@code max} names from {@code startAt} on: one request for a short tail, whatever the chain's length. */
    public List<String> namesFrom(String startAt, int max) {
        return store.listFrom(partition, startAt, max);
    }

    /** As {@link #chain(EnvelopeFormat, OptionalLong, BeforeTheRule)} for restore and the chain source: REFUSE. */
    public Chain chain(EnvelopeFormat format, OptionalLong requiredStart) {
        return chain(format, requiredStart, BeforeTheRule.REFUSE);
    }

    /**
     * Every object, validated as a chain (a full listing).
     *
     * @param requiredStart where the chain must start (or before), as restore's {@code --chain-start} asks; empty: the
     *     chain must start where {@link ChainStart} allows (0 or its recorded start)
     * @param beforeTheRule what to do with a chain from before the rule that starts after 0
     */
    public Chain chain(EnvelopeFormat format, OptionalLong requiredStart, BeforeTheRule beforeTheRule) {
        Chain chain = ChainValidator.validate(location, names(), format, requiredStart);
        if (requiredStart.isEmpty()) {
            chain.first().ifPresent(first -> checkStart(first, Optional.empty(), true, beforeTheRule));
        }
        return chain;
    }

    /** Every snapshot, validated as a series (a full listing). */
    public SnapshotChain snapshots() {
        return SnapshotChain.validate(location, names());
    }

    /** As {@link #head(EnvelopeFormat, BeforeTheRule)} for the blob sink's open: RECORD. */
    public ChainHead head(EnvelopeFormat format) {
        return head(format, BeforeTheRule.RECORD);
    }

    /**
     * The chain's end: the newest manifest and the objects after its last one, validated. Without manifests, every
     * object (a chain written before manifests is listed whole once; its writer then gives it one).
     *
     * @param beforeTheRule what to do with a chain from before the rule that starts after 0 (the sink's open records its
     *     start, its status row accepts it)
     * @throws ManifestException if the newest manifest's last object is gone
     */
    public ChainHead head(EnvelopeFormat format, BeforeTheRule beforeTheRule) {
        return withStartChecked(head(newest(), format), beforeTheRule, Optional.empty());
    }

    /**
     * The head, once {@link ChainStart}'s rule accepted where the chain starts (a chain; a snapshot series has no rule);
     * the chain's first name is read from the store unless the head's listing saw it ({@code firstListed}).
     */
    private ChainHead withStartChecked(ChainHead head, BeforeTheRule beforeTheRule, Optional<String> firstListed) {
        if (kind == Manifest.Kind.CHAIN) {
            Optional<ObjectName> first = head.manifest().isEmpty() ? head.after().stream().findFirst()
                    : (firstListed.isPresent() ? firstListed : namesFrom("", 1).stream().findFirst()).flatMap(ObjectName::parse);
            first.ifPresent(f -> checkStart(f, head.manifest(), false, beforeTheRule));
        }
        return head;
    }

    /**
     * Applies {@link ChainStart}'s rule to the chain's first object, with the newest manifest if the caller read it
     * ({@code readNewest}: read it here).
     */
    private void checkStart(ObjectName first, Optional<StoredManifest> newest, boolean readNewest, BeforeTheRule beforeTheRule) {
        if (first.from() == 0) {
            return; // the rule's first case needs no request
        }
        ChainStart.check(store, partition, first, ChainStart.recorded(store, partition, readNewest ? newest() : newest),
                beforeTheRule);
    }

    /**
     * As {@link #head(EnvelopeFormat)}, from a newest manifest the caller knows (a writer's periodic check: the one it
     * wrote or found).
     */
    public ChainHead head(Optional<StoredManifest> newest, EnvelopeFormat format) {
        return head(newest, format, startAt -> namesFrom(startAt, Integer.MAX_VALUE));
    }

    /**
     * As {@link #head(EnvelopeFormat)}, for the writer about to continue the chain: the temporary files an earlier writer
     * left are removed in the same request that lists the objects after the newest manifest (on a filesystem each is a read
     * of the whole directory, as long as the chain: an open reads it once).
     */
    public ChainHead writersHead(EnvelopeFormat format) {
        AtomicReference<Optional<String>> first = new AtomicReference<>(Optional.empty());
        ChainHead head = head(newest(), format, startAt -> {
            OpeningListing listed = store.removeTemporaryFilesAndListFrom(partition, startAt, Integer.MAX_VALUE);
            if (listed.temporaryFilesRemoved() > 0) {
                log.info("removed {} temporary file(s) left by an earlier writer in {}", listed.temporaryFilesRemoved(), location);
            }
            first.set(listed.first());
            return listed.names();
        });
        return withStartChecked(head, BeforeTheRule.RECORD, first.get());
    }

    private ChainHead head(Optional<StoredManifest> newest, EnvelopeFormat format, Function<String, List<String>> namesFrom) {
        if (newest.isEmpty()) {
            return new ChainHead(location, newest, validate(namesFrom.apply(""), format));
        }
        ObjectName last = newest.get().manifest().last();
        List<ObjectName> listed = validate(namesFrom.apply(ObjectName.pad(last.from())), format);
        if (!listed.isEmpty() && listed.get(0).equals(last)) {
            return new ChainHead(location, newest, listed.subList(1, listed.size()));
        }
        if (kind == Manifest.Kind.SNAPSHOTS && !listed.isEmpty() && listed.get(0).from() > last.to()) {
            return new ChainHead(location, newest, listed); // an older snapshot removed: the series allows gaps below its newest
        }
        throw new ManifestException(location + "/" + last + " is the last object that the newest manifest "
                + manifestLocation(newest.get().name().fileName()) + " records, and it is gone (the chain now "
                + (listed.isEmpty() ? "holds nothing from there on" : "continues with " + listed.get(0)) + "): restore the object"
                + " from a copy; to start the backup over, move the partition's directory and its manifests ("
                + store.besideLocation(dir) + ") away");
    }

    private List<ObjectName> validate(List<String> names, EnvelopeFormat format) {
        return kind == Manifest.Kind.CHAIN
                ? ChainValidator.validate(location, names, format, OptionalLong.empty()).objects()
                : SnapshotChain.validate(location, names).objects();
    }

    /**
     * The names of the partition's manifests, in order (a listing of its manifests' directory).
     *
     * @throws ManifestException naming a file there that is not a manifest
     */
    public List<ManifestName> manifestNames() {
        List<ManifestName> names = new ArrayList<>();
        for (String n : store.listBeside(dir)) {
            names.add(ManifestName.parse(n).orElseThrow(() -> new ManifestException(manifestLocation(n) + " is not a manifest"
                    + " (<from>-<to>.json, 20-digit offsets): move it out of the manifests' directory")));
        }
        return names;
    }

    /** At most {@code max} manifest names from {@code startAt} on (the newest is still the newest: one request). */
    public List<String> manifestNamesFrom(String startAt, int max) {
        return store.listBesideFrom(dir, startAt, max);
    }

    /** The newest manifest; empty when the partition has none. */
    public Optional<StoredManifest> newest() {
        List<ManifestName> names = manifestNames();
        return names.isEmpty() ? Optional.empty() : Optional.of(read(names.get(names.size() - 1)));
    }

    /**
     * Reads one manifest and checks that it is this partition's, of this kind, and covers what its name says.
     *
     * @throws ManifestException if it is gone or is not such a manifest
     */
    public StoredManifest read(ManifestName name) {
        String where = manifestLocation(name.fileName());
        byte[] bytes;
        try {
            bytes = store.readBeside(dir, name.fileName());
        } catch (ObjectMissingException e) {
            throw new ManifestException(where + " is gone");
        }
        Manifest m = ManifestCodec.decode(bytes, where);
        if (m.partition() != partition || m.kind() != kind || !m.range().equals(name)) {
            throw new ManifestException(where + " is not this partition's manifest: it says partition " + m.partition() + ", "
                    + m.kind().label() + ", offsets " + m.range().from() + "-" + m.range().to() + ": it was changed or moved here"
                    + " after it was written; restore it from a copy");
        }
        return new StoredManifest(name, m, ManifestCodec.sha256(bytes));
    }

    /**
     * Creates a manifest with the objects' no-overwrite commit; {@code reissue}: a name holding exactly these bytes is
     * this commit, landed in an earlier attempt.
     */
    public void create(ManifestName name, byte[] bytes, boolean reissue) {
        if (reissue) {
            store.recommitBeside(dir, name.fileName(), bytes);
        } else {
            store.createBeside(dir, name.fileName(), bytes);
        }
    }
}
