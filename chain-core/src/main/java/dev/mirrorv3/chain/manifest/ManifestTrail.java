package dev.mirrorv3.chain.manifest;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every manifest of a partition, checked as a hash chain (the tamper evidence of docs/blob-sink.md, "Chain manifests"):
 * from the newest back, each names the one before it by name and SHA-256, and continues its range. A manifest that no
 * later one links to is a stray: another writer's (a zombie task that wrote one after the live task moved on), reported
 * but not taken for the chain. Then the objects: {@link #checkListing} (each recorded object still there, nothing else
 * in a recorded range) and {@link #checkObject} (each object's bytes are the ones recorded).
 */
public final class ManifestTrail {
    private final ChainListing listing;
    private final List<StoredManifest> chain;
    private final List<StoredManifest> strays;
    private final Map<ObjectName, Recorded> recorded = new HashMap<>();
    /** The manifests by the first offset they cover. */
    private final TreeMap<Long, StoredManifest> byFrom = new TreeMap<>();

    /** An object as a manifest recorded it. */
    public record Recorded(StoredManifest manifest, Manifest.Entry entry) {
    }

    private ManifestTrail(ChainListing listing, List<StoredManifest> chain, List<StoredManifest> strays) {
        this.listing = listing;
        this.chain = List.copyOf(chain);
        this.strays = List.copyOf(strays);
        for (StoredManifest m : this.chain) {
            m.manifest().objects().forEach(e -> recorded.put(e.name(), new Recorded(m, e)));
            byFrom.put(m.manifest().range().from(), m);
        }
    }

    /**
     * Reads every manifest of the partition and follows the hash chain from the newest back.
     *
     * @throws ManifestException naming a manifest that is gone, changed or does not continue the one before it
     */
    public static ManifestTrail read(ChainListing listing) {
        return read(listing, 1);
    }

    /**
     * As {@link #read(ChainListing)}, reading up to {@code parallel} manifests at once (a verify pass); the hash chain is
     * followed once all are read, and a read's failure is the one reading them in order would meet first.
     *
     * @throws ManifestException naming a manifest that is gone, changed or does not continue the one before it
     */
    public static ManifestTrail read(ChainListing listing, int parallel) {
        Map<ManifestName, StoredManifest> all = new LinkedHashMap<>();
        ManifestReads.read(listing, listing.manifestNames(), parallel).forEach(m -> all.put(m.name(), m));
        if (all.isEmpty()) {
            return new ManifestTrail(listing, List.of(), List.of());
        }
        List<StoredManifest> linked = new ArrayList<>();
        StoredManifest current = new ArrayList<>(all.values()).get(all.size() - 1);
        linked.add(current);
        while (current.manifest().previous() != null) {
            current = previous(listing, all, current);
            linked.add(current);
        }
        Collections.reverse(linked);
        Set<ManifestName> onChain = new HashSet<>();
        linked.forEach(m -> onChain.add(m.name()));
        List<StoredManifest> strays = all.values().stream().filter(m -> !onChain.contains(m.name())).toList();
        return new ManifestTrail(listing, linked, strays);
    }

    private static StoredManifest previous(ChainListing listing, Map<ManifestName, StoredManifest> all, StoredManifest m) {
        Manifest.Link link = m.manifest().previous();
        String here = listing.manifestLocation(m.name().fileName());
        StoredManifest prev = ManifestName.parse(link.name()).map(all::get).orElse(null);
        if (prev == null) {
            throw new ManifestException(here + " records " + link.name() + " as the manifest before it, and "
                    + listing.manifestLocation(link.name()) + " is gone: restore it from a copy");
        }
        String there = listing.manifestLocation(prev.name().fileName());
        if (!prev.sha256().equals(link.sha256())) {
            throw new ManifestException(there + " was changed after it was written: its SHA-256 is " + prev.sha256() + ", and "
                    + here + ", the manifest after it, recorded " + link.sha256() + "; restore it from a copy");
        }
        long prevEnd = prev.manifest().range().to();
        long from = m.manifest().range().from();
        boolean continues = m.manifest().kind() == Manifest.Kind.CHAIN ? from == prevEnd + 1 : from > prevEnd;
        if (!continues) {
            throw new ManifestException(here + " does not continue " + there + ": that one ends at offset " + prevEnd
                    + ", and this one starts at " + from + "; restore the manifests from a copy");
        }
        return prev;
    }

    public boolean isEmpty() {
        return chain.isEmpty();
    }

    /** The manifests of the hash chain, oldest first. */
    public List<StoredManifest> manifests() {
        return chain;
    }

    /** Manifests that no later one links to: another writer's (a zombie task's), never taken for the chain. */
    public List<StoredManifest> strays() {
        return strays;
    }

    public Optional<StoredManifest> newest() {
        return chain.isEmpty() ? Optional.empty() : Optional.of(chain.get(chain.size() - 1));
    }

    /** How an object was recorded; empty if no manifest records it (written before manifests, or after the newest). */
    public Optional<Recorded> recorded(ObjectName name) {
        return Optional.ofNullable(recorded.get(name));
    }

    /**
     * Checks the chain's objects as listed against the manifests: each object a manifest records is there (objects
     * before the listing's first object excepted: a head removed on purpose, which the chain's start check judges), and
     * a recorded range holds nothing else.
     *
     * @throws ManifestException naming the partition, the object and the manifest
     */
    public void checkListing(Chain listed) {
        if (chain.isEmpty() || listed.isEmpty()) {
            return;
        }
        long head = listed.objects().get(0).from();
        Set<ObjectName> present = new HashSet<>(listed.objects());
        for (StoredManifest m : chain) {
            for (Manifest.Entry e : m.manifest().objects()) {
                if (e.name().to() >= head && !present.contains(e.name())) {
                    throw new ManifestException(listing.location() + "/" + e.name() + " is gone, and the manifest "
                            + listing.manifestLocation(m.name().fileName()) + " records it (" + e.size() + " bytes, SHA-256 "
                            + e.sha256() + "): restore it from a copy");
                }
            }
        }
        for (ObjectName o : listed.objects()) {
            Optional<StoredManifest> covering = covering(o.from());
            if (covering.isPresent() && covering.get().manifest().recorded() && !recorded.containsKey(o)) {
                StoredManifest m = covering.get();
                throw new ManifestException(listing.location() + "/" + o + " is not an object the manifest "
                        + listing.manifestLocation(m.name().fileName()) + " records for offsets " + m.manifest().range().from() + "-"
                        + m.manifest().range().to() + " (it records " + m.manifest().objects().size() + " objects from "
                        + m.manifest().objects().get(0).name() + "): the objects were replaced after they were written; restore"
                        + " the recorded ones from a copy");
            }
        }
    }

    /**
     * Checks an object's bytes against its entry, if a manifest records it.
     *
     * @param sha256 the SHA-256 of the object's bytes as read
     * @throws ManifestException naming the partition, the object and the manifest when they differ
     */
    public void checkObject(ObjectName name, byte[] sha256, long size) {
        checkObject(name, ManifestCodec.hex(sha256), size);
    }

    /** As {@link #checkObject(ObjectName, byte[], long)}, with the SHA-256 in lower-case hex. */
    public void checkObject(ObjectName name, String actual, long size) {
        Recorded r = recorded.get(name);
        if (r == null) {
            return;
        }
        if (!actual.equals(r.entry().sha256()) || size != r.entry().size()) {
            throw new ManifestException(listing.location() + "/" + name + " was changed after it was written: its SHA-256 is "
                    + actual + " (" + size + " bytes), and the manifest " + listing.manifestLocation(r.manifest().name().fileName())
                    + " recorded " + r.entry().sha256() + " (" + r.entry().size() + " bytes); the object was replaced under its"
                    + " own name: restore it from a copy");
        }
    }

    private Optional<StoredManifest> covering(long offset) {
        Map.Entry<Long, StoredManifest> e = byFrom.floorEntry(offset);
        return e == null || e.getValue().manifest().range().to() < offset ? Optional.empty() : Optional.of(e.getValue());
    }

    /** One line for a verify's summary: what the manifests cover and what was checked. */
    public String summary() {
        if (chain.isEmpty()) {
            return "none (objects not checked against recorded SHA-256s)";
        }
        StoredManifest newest = chain.get(chain.size() - 1);
        String s = chain.size() + ", hash chain intact, " + recorded.size() + " objects with a recorded SHA-256, up to offset "
                + newest.manifest().range().to();
        if (!strays.isEmpty()) {
            s += "; not on the hash chain (another writer's, e.g. a zombie task's): "
                    + String.join(", ", strays.stream().map(m -> m.name().fileName()).toList());
        }
        return s;
    }
}
