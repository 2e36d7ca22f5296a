package dev.mirrorv3.chain.manifest;

import dev.mirrorv3.chain.ObjectName;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of one manifest of a partition's chain: the offsets it covers, spelled as objects are,
 * {@code <from>-<to>.json} (20-digit zero-padded, inclusive), in {@code _manifest/<partition>/} beside the partition
 * directories. Names sort as the ranges they cover, so a listing of the directory is in chain order and its last name
 * is the newest manifest.
 */
public record ManifestName(long from, long to) implements Comparable<ManifestName> {
    /** The directory beside the partition directories that holds each partition's manifests. */
    public static final String ROOT = "_manifest";
    private static final Pattern NAME = Pattern.compile("(\\d{20})-(\\d{20})\\.json");

    public ManifestName {
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("not a manifest's range: " + from + "-" + to);
        }
    }

    /** The directory of a partition's manifests, e.g. {@code _manifest/3}. */
    public static String dir(int partition) {
        return ROOT + "/" + partition;
    }

    public String fileName() {
        return ObjectName.pad(from) + "-" + ObjectName.pad(to) + ".json";
    }

    /** Parses a manifest's file name; empty if it is not one. */
    public static Optional<ManifestName> parse(String fileName) {
        Matcher m = NAME.matcher(fileName);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            long from = Long.parseLong(m.group(1));
            long to = Long.parseLong(m.group(2));
            return to < from ? Optional.empty() : Optional.of(new ManifestName(from, to));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public int compareTo(ManifestName o) {
        int c = Long.compare(from, o.from);
        return c != 0 ? c : Long.compare(to, o.to);
    }

    @Override
    public String toString() {
        return fileName();
    }
}
