package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import dev.mirrorv3.chain.manifest.ManifestException;
import dev.mirrorv3.chain.manifest.ManifestName;
import dev.mirrorv3.chain.manifest.StoredManifest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A writer's manifests (docs/blob-sink.md, "Chain manifests"). Each object the writer commits is recorded (name, size,
 * SHA-256) and waits for the next manifest, which is written once {@value #MAX_OBJECTS} objects wait, once the oldest has
 * waited {@link #MAX_AGE}, and when the partition closes; at most {@value #MAX_OBJECTS} objects per manifest. Objects found
 * after the newest manifest when the partition was opened (a chain written before manifests, or a task that died between
 * an object and its manifest) go first, covered as one range without reading them: opening a partition never waits for
 * objects to be read back. A manifest is created with the objects' no-overwrite create after checking that the newest
 * manifest is still the one this writer knows; one whose create failed is re-issued with the same bytes until it is
 * known durable.
 *
 * <p>Thread-safety: {@link #committed} may be called from a commit thread; everything else from the one thread that owns
 * the writer (the task thread).
 */
public final class ManifestKeeper {
    private static final Logger log = LoggerFactory.getLogger(ManifestKeeper.class);
    /** Objects per manifest at most, and how many waiting make one due. */
    public static final int MAX_OBJECTS = 1000;
    /** How long the oldest object may wait for its manifest. */
    public static final Duration MAX_AGE = Duration.ofHours(24);

    private final ChainListing listing;
    private final Clock clock;
    private final long start;
    private final ManifestProbe probe;
    private StoredManifest newest;
    /** Objects found after the newest manifest at open, covered as a range (or null). */
    private List<ObjectName> foundRange;
    /** Objects committed since the newest manifest, oldest first; guarded by this. */
    private final List<Waiting> waiting = new ArrayList<>();
    private Frozen frozen;

    private record Waiting(Manifest.Entry entry, long atMs) {
    }

    /** A manifest whose create was issued: re-issued as it is until it is known durable. */
    private record Frozen(StoredManifest manifest, byte[] bytes, int waitingCovered, boolean coversFound, boolean attempted) {
    }

    /**
     * @param head the partition's end as opened: its newest manifest and the objects after it
     * @param startOffset where the chain begins when it holds nothing yet (the source's log start)
     */
    public ManifestKeeper(ChainListing listing, ChainHead head, long startOffset, Clock clock) {
        this.listing = listing;
        this.clock = clock;
        this.newest = head.manifest().orElse(null);
        List<ObjectName> found = head.after();
        this.start = newest != null ? newest.manifest().start() : found.isEmpty() ? startOffset : found.get(0).from();
        this.foundRange = found.isEmpty() ? null : found;
        this.probe = new ManifestProbe(listing);
    }

    /** The newest manifest this writer wrote or found; empty before the first. */
    public synchronized Optional<StoredManifest> newest() {
        return Optional.ofNullable(newest);
    }

    /**
     * A commit became durable: the object waits for the next manifest.
     *
     * @param sha256 the SHA-256 of the object's bytes, lower-case hex ({@link ManifestCodec#sha256})
     */
    public synchronized void committed(ObjectName name, long size, String sha256) {
        waiting.add(new Waiting(new Manifest.Entry(name, size, sha256), clock.millis()));
    }

    /** Whether a manifest is due now (objects found at open, enough or old enough objects waiting, a retry). */
    public synchronized boolean due(long nowMs) {
        return frozen != null || foundRange != null || chunkDue(nowMs);
    }

    /** Whether the objects committed since the newest manifest make one due: 1,000 of them, or the oldest a day old. */
    private boolean chunkDue(long nowMs) {
        return waiting.size() >= MAX_OBJECTS || (!waiting.isEmpty() && nowMs - waiting.get(0).atMs() >= MAX_AGE.toMillis());
    }

    /** Whether any object waits for a manifest (a partition closing writes them). */
    public synchronized boolean anyWaiting() {
        return frozen != null || foundRange != null || !waiting.isEmpty();
    }

    /**
     * Writes every waiting object into manifests.
     *
     * @throws ChainChangedException if another writer created a manifest of this partition meanwhile
     */
    public void writeWaiting() {
        writeDue(Long.MAX_VALUE);
    }

    /**
     * Writes the manifests due at {@code nowMs}: one whose earlier attempt failed, the objects found at open, and the
     * objects committed since only in chunks that are due themselves ({@link #MAX_OBJECTS} of them, or the oldest
     * {@link #MAX_AGE} old); the rest wait for more, so a range written at open is not followed by a small manifest
     * of whatever a running commit had just added.
     *
     * @throws ChainChangedException if another writer created a manifest of this partition meanwhile
     */
    public void writeDue(long nowMs) {
        for (Frozen f = frozen != null ? frozen : next(nowMs); f != null; f = next(nowMs)) {
            if (checkTail(f.manifest().name(), f.attempted())) {
                continue; // another writer's manifest covers some of what f would: the next one is made from the rest
            }
            frozen = new Frozen(f.manifest(), f.bytes(), f.waitingCovered(), f.coversFound(), true);
            listing.create(f.manifest().name(), f.bytes(), f.attempted());
            synchronized (this) {
                waiting.subList(0, f.waitingCovered()).clear();
                newest = f.manifest();
                frozen = null;
                if (f.coversFound()) {
                    foundRange = null;
                }
            }
            log.info("wrote manifest {} ({}, up to {})", listing.manifestLocation(f.manifest().name().fileName()),
                    f.manifest().manifest().recorded() ? f.manifest().manifest().objects().size() + " objects"
                            : "objects found when the partition was opened, covered as a range", f.manifest().manifest().last());
        }
    }

    /** The next manifest due: the objects found at open first, then the objects committed; null when none is due. */
    private Frozen next(long nowMs) {
        Manifest.Link previous = newest == null ? null : newest.link();
        Map<String, String> keyIds = newest == null ? Map.of() : newest.manifest().keyIds();
        if (foundRange != null) {
            return frozen(Manifest.unrecorded(listing.kind(), listing.partition(), start, previous, foundRange, keyIds), 0, true);
        }
        List<Manifest.Entry> chunk;
        synchronized (this) {
            if (!chunkDue(nowMs)) {
                return null;
            }
            chunk = waiting.subList(0, Math.min(MAX_OBJECTS, waiting.size())).stream().map(Waiting::entry).toList();
        }
        return frozen(Manifest.recorded(listing.kind(), listing.partition(), start, previous, chunk, keyIds), chunk.size(), false);
    }

    private Frozen frozen(Manifest m, int waitingCovered, boolean coversFound) {
        byte[] bytes = ManifestCodec.encode(m);
        return new Frozen(new StoredManifest(m.range(), m, ManifestCodec.sha256(bytes)), bytes, waitingCovered, coversFound, false);
    }

    /**
     * The newest manifest is still the one this writer knows, and nothing follows it but {@code ours} if its create was
     * {@code attempted} (it may have landed), or another writer's manifest that this writer takes as the newest
     * ({@link ManifestTakeover}; never while a manifest of its own may have landed). Before an attempt, a manifest under
     * ours' name is another writer's: the closing task's manifest of the very objects this writer found has the same name.
     *
     * @return true when it took another writer's manifest as the newest
     * @throws ChainChangedException naming the manifest that follows the newest and why it cannot be taken
     */
    private boolean checkTail(ManifestName ours, boolean attempted) {
        String newestName = newest == null ? null : newest.name().fileName();
        List<String> names = new ArrayList<>(listing.manifestNamesFrom(newestName == null ? "" : newestName, 3));
        if (attempted) {
            names.remove(ours.fileName()); // a name holding other bytes than ours fails the re-issued create
        }
        if (newestName != null && (names.isEmpty() || !names.get(0).equals(newestName))) {
            throw new ChainChangedException(listing.manifestLocation(newestName) + ", the newest manifest this task wrote or found,"
                    + " is gone" + TailGuard.adviceFor("the chain"));
        }
        int knownNames = newestName == null ? 0 : 1;
        if (names.size() <= knownNames) {
            return false;
        }
        String other = names.get(knownNames);
        String refusal = attempted ? "a manifest of this task's own may have landed before it" : takeOver(other);
        if (refusal == null) {
            return true;
        }
        throw new ChainChangedException(listing.manifestLocation(other) + " was not written by this task;"
                + " the newest manifest it wrote or found is " + (newestName == null ? "none" : newestName) + " (" + refusal + ")"
                + TailGuard.adviceFor("the chain"));
    }

    /** Takes another writer's manifest as the newest when it can ({@link ManifestTakeover}); else returns why not. */
    private String takeOver(String name) {
        OtherManifest read = readOther(name);
        if (read.manifest() == null) {
            return read.refusal();
        }
        StoredManifest other = read.manifest();
        ManifestTakeover takeover;
        synchronized (this) {
            List<ObjectName> found = found();
            takeover = takeoverOf(other, List.of());
            if (!takeover.taken()) {
                return takeover.refusal();
            }
            newest = other;
            foundRange = takeover.foundCovered() == found.size() ? null : List.copyOf(found.subList(takeover.foundCovered(), found.size()));
            waiting.subList(0, takeover.waitingCovered()).clear();
        }
        log.warn("took {}, written by another writer, as the newest manifest of {}: it follows the one this task knew and covers"
                + " {} object(s) this task found or wrote, up to {} (a task instance that closed the partition after this one"
                + " opened it); the chain goes on from there", listing.manifestLocation(name), listing.location(),
                takeover.foundCovered() + takeover.waitingCovered(), other.manifest().last());
        return null;
    }

    /**
     * What a failed tail check means when objects of another writer follow this writer's {@code tail} (null: none): when
     * one manifest follows the newest this writer knows and covers exactly the objects it found at open, those it wrote,
     * and every object after its tail, contiguous ({@link ManifestTakeover}), an old task instance closed the partition
     * after this one opened it and recorded what it wrote: the chain moved on with the same records, and the partition is
     * opened again from its new end ({@link ChainMovedOnException}). Else {@code failure} as it is.
     */
    public ChainChangedException movedOn(ObjectName tail, ChainChangedException failure) {
        String newestName;
        synchronized (this) {
            newestName = newest == null ? null : newest.name().fileName();
        }
        List<String> names = new ArrayList<>(listing.manifestNamesFrom(newestName == null ? "" : newestName, 3));
        names.remove(newestName);
        if (names.size() != 1 || ManifestName.parse(names.get(0)).isEmpty()) {
            return failure;
        }
        List<ObjectName> beyond = contiguousAfter(tail);
        OtherManifest read = beyond.isEmpty() ? null : readOther(names.get(0));
        if (read == null || read.manifest() == null) {
            return failure;
        }
        synchronized (this) {
            ManifestTakeover t = takeoverOf(read.manifest(), beyond);
            if (!t.taken() || t.covered() != found().size() + waiting.size() + beyond.size()) {
                return failure;
            }
        }
        return new ChainMovedOnException(listing.location() + "/" + beyond.get(0) + (beyond.size() > 1 ? " and " + (beyond.size() - 1)
                + " more" : "") + " follow the last object this task wrote or found (" + (tail == null ? "none" : tail) + "): written by"
                + " another writer and recorded by " + listing.manifestLocation(names.get(0)) + ", which continues the hash chain"
                + " (a task instance that closed the partition after this one opened it); the chain moved on with the same"
                + " records, and the partition is opened again from its new end, after " + beyond.get(beyond.size() - 1));
    }

    /** Another writer's manifest as read, or why it cannot be read (then {@code manifest} is null). */
    private record OtherManifest(StoredManifest manifest, String refusal) {
    }

    /** Reads the manifest named {@code name}, found after the newest this writer knows. */
    private OtherManifest readOther(String name) {
        Optional<ManifestName> parsed = ManifestName.parse(name);
        if (parsed.isEmpty()) {
            return new OtherManifest(null, "it is not named as a manifest (<from>-<to>.json, 20-digit offsets)");
        }
        try {
            return new OtherManifest(listing.read(parsed.get()), null);
        } catch (ManifestException e) {
            return new OtherManifest(null, "it cannot be read: " + e.getMessage());
        }
    }

    /** What {@code other} covers of the objects this writer found and wrote, and of {@code beyond}; under this monitor. */
    private ManifestTakeover takeoverOf(StoredManifest other, List<ObjectName> beyond) {
        return ManifestTakeover.of(other.manifest(), newest == null ? null : newest.link(), start, found(),
                waiting.stream().map(Waiting::entry).toList(), beyond);
    }

    /** The objects found at open that no manifest covers yet; under this monitor. */
    private List<ObjectName> found() {
        return foundRange == null ? List.of() : foundRange;
    }

    /** The objects after {@code tail} (null: the whole chain), if each continues the one before; else none. */
    private List<ObjectName> contiguousAfter(ObjectName tail) {
        List<ObjectName> after = new ArrayList<>();
        long next = tail == null ? start : tail.to() + 1;
        for (String n : listing.namesFrom(tail == null ? "" : ObjectName.pad(tail.from()), MAX_OBJECTS + 1)) {
            Optional<ObjectName> o = ObjectName.parse(n);
            if (o.isEmpty() || o.get().equals(tail)) {
                continue;
            }
            if (o.get().from() != next || o.get().to() < o.get().from()) {
                return List.of();
            }
            after.add(o.get());
            next = o.get().to() + 1;
        }
        return after;
    }

    /**
     * The periodic check's manifest side: one step of the probe that the objects of the manifests still exist
     * ({@link ManifestProbe}). Whether another writer added a manifest is checked before each manifest this writer creates
     * (a manifest alone changes nothing a reader takes for the chain; another writer's objects meet the tail checks).
     *
     * @throws ChainChangedException naming the manifest or object that differs
     */
    public void check() {
        StoredManifest n;
        synchronized (this) {
            n = newest;
        }
        if (n != null && listing.kind() == Manifest.Kind.CHAIN) {
            probe.step(n);
        }
    }

    /**
     * The periodic check of a writer (between its commits; docs/design.md): the chain's end, listed from the newest manifest
     * on (as long as the objects since it), is the writer's last object or its pending commit (which may have landed), then
     * {@link #check()}.
     *
     * @param tail the writer's last object (null: none); @param pending its pending commit (null: none)
     * @throws ChainChangedException naming what differs
     */
    public void periodicCheck(EnvelopeFormat format, ObjectName tail, ObjectName pending, TailGuard.Kind kind) {
        ChainHead head;
        try {
            head = listing.head(newest(), format);
        } catch (ChainException e) {
            throw new ChainChangedException(kind.whatToCheck() + " changed under this task: " + e.getMessage());
        }
        Optional<ObjectName> last = head.last();
        if (!last.equals(Optional.ofNullable(tail)) && !(pending != null && last.equals(Optional.of(pending)))) {
            throw new ChainChangedException(last.map(o -> listing.location() + "/" + o + " is " + kind.newest())
                    .orElse(listing.location() + " " + kind.none()) + ", and " + kind.tail() + " is "
                    + (tail == null ? "none" : tail.toString()) + TailGuard.adviceFor(kind.whatToCheck()));
        }
        check();
    }
}
