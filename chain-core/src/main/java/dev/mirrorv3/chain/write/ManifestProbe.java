package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestException;
import dev.mirrorv3.chain.manifest.ManifestName;
import dev.mirrorv3.chain.manifest.StoredManifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The periodic check's probe that the objects a chain's manifests record still exist, a little at a time: each step reads
 * one manifest (its SHA-256 must be the one the manifest after it recorded) and lists the objects it covers, at most
 * {@value ManifestKeeper#MAX_OBJECTS} names in one request, then moves to the manifest before it; after the first one it
 * starts again at the newest. So every object of the chain is looked at within (number of manifests, plus a step per
 * {@value ManifestKeeper#MAX_OBJECTS} objects written before manifests) × {@code chain.check.interval.ms}, at a constant
 * cost per check. Objects removed from the chain's head on purpose (nothing before them is left) are not missing.
 */
final class ManifestProbe {
    private final ChainListing listing;
    /** The manifest the next step looks at, the SHA-256 it must have, and where in its range to go on; null: the newest. */
    private Position next;

    private record Position(ManifestName name, String sha256, long resumeAt) {
    }

    ManifestProbe(ChainListing listing) {
        this.listing = listing;
    }

    /**
     * One step.
     *
     * @param newest the writer's newest manifest, where the probe starts over
     * @throws ChainChangedException naming a manifest changed or gone, or an object gone or not the recorded one
     */
    void step(StoredManifest newest) {
        Position p = next != null ? next : new Position(newest.name(), newest.sha256(), -1);
        StoredManifest m;
        try {
            m = listing.read(p.name());
        } catch (ManifestException e) {
            throw new ChainChangedException("the manifests changed under this task: " + e.getMessage());
        }
        if (!m.sha256().equals(p.sha256())) {
            throw new ChainChangedException(where(m) + " was changed after it was written: its SHA-256 is " + m.sha256()
                    + ", and the manifest after it (or this task, which wrote or read it) recorded " + p.sha256()
                    + TailGuard.adviceFor("the chain"));
        }
        long from = p.resumeAt() < 0 ? m.manifest().range().from() : p.resumeAt();
        long done = m.manifest().recorded() ? probeRecorded(m) : probeRange(m, from);
        if (done < m.manifest().range().to()) {
            next = new Position(m.name(), m.sha256(), done + 1);
            return;
        }
        Manifest.Link previous = m.manifest().previous();
        next = previous == null ? null : ManifestName.parse(previous.name()).map(n -> new Position(n, previous.sha256(), -1)).orElse(null);
    }

    /** Lists the objects a manifest records: they must be exactly those (or their last ones, after a head removed). */
    private long probeRecorded(StoredManifest m) {
        List<Manifest.Entry> entries = m.manifest().objects();
        List<String> recorded = entries.stream().map(e -> e.name().fileName()).toList();
        List<String> listed = inRange(listing.namesFrom(ObjectName.pad(m.manifest().range().from()), entries.size()), m);
        if (listed.equals(recorded)) {
            return m.manifest().range().to();
        }
        int firstListed = listed.isEmpty() ? recorded.size() : recorded.indexOf(listed.get(0));
        int kept = 0;
        if (firstListed > 0 && chainStartsAtOrAfter(firstListed < recorded.size() ? entries.get(firstListed).name().from()
                : m.manifest().range().to() + 1)) {
            kept = firstListed; // the chain's head was removed on purpose up to here
        }
        List<String> expected = recorded.subList(kept, recorded.size());
        if (listed.equals(expected)) {
            return m.manifest().range().to();
        }
        for (String name : expected) {
            if (!listed.contains(name)) {
                throw gone(m, name);
            }
        }
        String foreign = listed.stream().filter(n -> !expected.contains(n)).findFirst().orElse(listed.get(0));
        throw new ChainChangedException(listing.location() + "/" + foreign + " is not an object that the manifest " + where(m)
                + " records for offsets " + m.manifest().range().from() + "-" + m.manifest().range().to()
                + TailGuard.adviceFor("the chain"));
    }

    /**
     * Lists the next objects of a range written before manifests (at most {@value ManifestKeeper#MAX_OBJECTS}): they must
     * continue each other from {@code from}; returns the last offset they cover.
     */
    private long probeRange(StoredManifest m, long from) {
        List<ObjectName> objects = new ArrayList<>();
        for (String n : inRange(listing.namesFrom(ObjectName.pad(from), ManifestKeeper.MAX_OBJECTS), m)) {
            objects.add(ObjectName.parse(n).orElseThrow(() -> new ChainChangedException(listing.location() + "/" + n
                    + " is not a backup object" + TailGuard.adviceFor("the chain"))));
        }
        long expected = from;
        if (!objects.isEmpty() && objects.get(0).from() > from && chainStartsAtOrAfter(objects.get(0).from())) {
            expected = objects.get(0).from(); // the chain's head was removed on purpose up to here
        } else if (objects.isEmpty() && chainStartsAtOrAfter(m.manifest().range().to() + 1)) {
            return m.manifest().range().to();
        }
        for (ObjectName o : objects) {
            if (o.from() != expected) {
                throw new ChainChangedException(listing.location() + ": offsets " + expected + "-" + (o.from() - 1) + " of "
                        + where(m) + " are in no object (next object is " + o + ")" + TailGuard.adviceFor("the chain"));
            }
            expected = o.to() + 1;
        }
        if (objects.size() < ManifestKeeper.MAX_OBJECTS && expected <= m.manifest().range().to()) {
            throw gone(m, m.manifest().last().fileName());
        }
        return expected - 1;
    }

    /** The names that lie inside the manifest's range (a listing runs on into the next manifest's objects). */
    private static List<String> inRange(List<String> names, StoredManifest m) {
        return names.stream().filter(n -> ObjectName.parse(n).map(o -> o.from() <= m.manifest().range().to()).orElse(true)).toList();
    }

    /** Whether the chain's first object starts at or after {@code offset}: nothing before it is left. */
    private boolean chainStartsAtOrAfter(long offset) {
        Optional<ObjectName> first = listing.namesFrom("", 1).stream().findFirst().flatMap(ObjectName::parse);
        return first.isEmpty() || first.get().from() >= offset;
    }

    private ChainChangedException gone(StoredManifest m, String name) {
        return new ChainChangedException(listing.location() + "/" + name + " is gone, and the manifest " + where(m) + " records it"
                + TailGuard.adviceFor("the chain"));
    }

    private String where(StoredManifest m) {
        return listing.manifestLocation(m.name().fileName());
    }
}
