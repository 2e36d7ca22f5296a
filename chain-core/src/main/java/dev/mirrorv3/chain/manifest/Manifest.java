package dev.mirrorv3.chain.manifest;

import dev.mirrorv3.chain.ObjectName;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One manifest of a partition's chain (docs/blob-sink.md, "Chain manifests"): the contiguous range of objects it covers,
 * each one's size and SHA-256, the chain's recorded start, the key ids the chain's objects use up to its end, and the name
 * and SHA-256 of the manifest before it (none for the first), so that the manifests form a hash chain.
 *
 * <p>A range whose objects were written before manifests existed (or by a writer that wrote none) is covered without
 * recording each object ({@link #recorded()} false): only its last object is named, the listing is their record.
 *
 * @param kind a chain of history, or a series of snapshots (compaction=log), whose objects may leave gaps
 * @param start where the chain begins: the first offset a reader must find an object for
 * @param objects each object of the range, in order; empty when the range's objects are not recorded
 * @param last the range's last object
 * @param keyIds every key id the chain's objects use up to {@link #last}, each with an object that uses it
 */
public record Manifest(Kind kind, int partition, long start, ManifestName range, Link previous, List<Entry> objects,
                       ObjectName last, Map<String, String> keyIds) {
    public static final int FORMAT_VERSION = 1;

    /** What the manifests cover: a chain (contiguous) or a compacted topic's snapshots. */
    public enum Kind {
        CHAIN("chain"), SNAPSHOTS("snapshots");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        public static Optional<Kind> of(String label) {
            for (Kind k : values()) {
                if (k.label.equals(label)) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }
    }

    /** The manifest before this one: its file name and the SHA-256 (lower-case hex) of its bytes. */
    public record Link(String name, String sha256) {
        public Link {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(sha256, "sha256");
        }
    }

    /** One object as written: its name, size in bytes and SHA-256 (lower-case hex). */
    public record Entry(ObjectName name, long size, String sha256) {
        public Entry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(sha256, "sha256");
            if (size < 0) {
                throw new IllegalArgumentException("negative size " + size + " of " + name);
            }
        }
    }

    public Manifest {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(last, "last");
        objects = List.copyOf(objects);
        keyIds = Map.copyOf(keyIds);
        if (partition < 0 || start < 0) {
            throw new IllegalArgumentException("negative partition or start: " + partition + ", " + start);
        }
        if (last.to() != range.to() || last.from() < range.from()) {
            throw new IllegalArgumentException("its last object " + last + " does not end its range " + range.from() + "-" + range.to());
        }
        if (!objects.isEmpty()) {
            requireInOrder(kind, range, objects, last);
        }
        if (last.encrypted() && !keyIds.containsKey(last.keyId())) {
            throw new IllegalArgumentException("its last object " + last + " uses key id " + last.keyId() + ", which it does not list");
        }
    }

    private static void requireInOrder(Kind kind, ManifestName range, List<Entry> objects, ObjectName last) {
        if (objects.get(0).name().from() != range.from() || !objects.get(objects.size() - 1).name().equals(last)) {
            throw new IllegalArgumentException("its objects do not span its range " + range.from() + "-" + range.to());
        }
        for (int i = 1; i < objects.size(); i++) {
            ObjectName prev = objects.get(i - 1).name();
            ObjectName next = objects.get(i).name();
            boolean continues = kind == Kind.CHAIN ? next.from() == prev.to() + 1 : next.from() > prev.to();
            if (!continues || next.to() < next.from()) {
                throw new IllegalArgumentException(next + " does not continue " + prev);
            }
        }
    }

    /** A manifest of objects this writer knows the bytes of. */
    public static Manifest recorded(Kind kind, int partition, long start, Link previous, List<Entry> objects,
            Map<String, String> keyIdsBefore) {
        ObjectName first = objects.get(0).name();
        ObjectName last = objects.get(objects.size() - 1).name();
        Map<String, String> keyIds = new TreeMap<>(keyIdsBefore);
        objects.forEach(e -> addKeyId(keyIds, e.name()));
        return new Manifest(kind, partition, start, new ManifestName(first.from(), last.to()), previous, objects, last, keyIds);
    }

    /**
     * A manifest of a range written before manifests (or by a writer that wrote none): its objects as listed, only the
     * last one named.
     */
    public static Manifest unrecorded(Kind kind, int partition, long start, Link previous, List<ObjectName> listed,
            Map<String, String> keyIdsBefore) {
        Map<String, String> keyIds = new TreeMap<>(keyIdsBefore);
        listed.forEach(o -> addKeyId(keyIds, o));
        ObjectName last = listed.get(listed.size() - 1);
        return new Manifest(kind, partition, start, new ManifestName(listed.get(0).from(), last.to()), previous, List.of(), last,
                keyIds);
    }

    private static void addKeyId(Map<String, String> keyIds, ObjectName o) {
        if (o.encrypted()) {
            keyIds.putIfAbsent(o.keyId(), o.fileName());
        }
    }

    /** Whether each object of the range is recorded with its size and SHA-256. */
    public boolean recorded() {
        return !objects.isEmpty();
    }
}
