package dev.mirrorv3.chain.meta;

import dev.mirrorv3.chain.ObjectName;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of one metadata snapshot: {@code <time>.json}, or encrypted {@code <time>.k-<keyid>.json}; the time is the
 * snapshot's epoch milliseconds, zero-padded to 20 digits, so names sort by time.
 */
public record MetaName(long timeMs, String keyId) implements Comparable<MetaName> {
    private static final Pattern NAME = Pattern.compile("(\\d{20})(?:\\.k-([a-z0-9][a-z0-9-]{0,31}))?\\.json");

    public MetaName {
        if (timeMs < 0) {
            throw new IllegalArgumentException("a snapshot time must not be negative: " + timeMs);
        }
        if (keyId != null && !ObjectName.isValidKeyId(keyId)) {
            throw new IllegalArgumentException("invalid key id '" + keyId + "'");
        }
    }

    public String fileName() {
        return ObjectName.pad(timeMs) + (keyId == null ? "" : ".k-" + keyId) + ".json";
    }

    public boolean encrypted() {
        return keyId != null;
    }

    /** Empty for a name that is not a snapshot's (left alone: a bucket may hold other files there). */
    public static Optional<MetaName> parse(String fileName) {
        Matcher m = NAME.matcher(fileName);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new MetaName(Long.parseLong(m.group(1)), m.group(2)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public int compareTo(MetaName o) {
        int c = Long.compare(timeMs, o.timeMs);
        return c != 0 ? c : fileName().compareTo(o.fileName());
    }

    @Override
    public String toString() {
        return fileName();
    }
}
