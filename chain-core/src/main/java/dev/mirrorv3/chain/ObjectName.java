package dev.mirrorv3.chain;

import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of one backup object: {@code <from>-<to>.<ext>} or, encrypted,
 * {@code <from>-<to>.k-<keyid>.parquet}; both offsets decimal, zero-padded to 20 digits, range inclusive.
 * The parser is strict: one spelling per object, so two names can never denote the same range.
 */
public record ObjectName(long from, long to, EnvelopeFormat format, String keyId) implements Comparable<ObjectName> {

    public static final int OFFSET_DIGITS = 20;
    private static final Pattern KEY_ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");
    private static final Pattern NAME = Pattern.compile(
            "(\\d{20})-(\\d{20})(?:\\.k-([a-z0-9][a-z0-9-]{0,31}))?\\.([a-z]+)");

    public ObjectName {
        Objects.requireNonNull(format, "format");
        if (from < 0 || to < 0) {
            throw new IllegalArgumentException("offsets must not be negative: " + from + "-" + to);
        }
        if (keyId != null && (format != EnvelopeFormat.PARQUET || !KEY_ID.matcher(keyId).matches())) {
            throw new IllegalArgumentException("invalid key id '" + keyId + "' for " + format);
        }
    }

    public static ObjectName plain(long from, long to, EnvelopeFormat format) {
        return new ObjectName(from, to, format, null);
    }

    public static boolean isValidKeyId(String keyId) {
        return keyId != null && KEY_ID.matcher(keyId).matches();
    }

    /** The file or object name, e.g. {@code 00000000000000000100-00000000000000000199.parquet}. */
    public String fileName() {
        StringBuilder sb = new StringBuilder(64).append(pad(from)).append('-').append(pad(to));
        if (keyId != null) {
            sb.append(".k-").append(keyId);
        }
        return sb.append('.').append(format.extension()).toString();
    }

    public boolean encrypted() {
        return keyId != null;
    }

    /** Positions of the chain this object covers, holes included. */
    public long span() {
        return to - from + 1;
    }

    /** The 20-digit zero-padded spelling of an offset; names sort lexicographically in offset order. */
    public static String pad(long offset) {
        String s = Long.toString(offset);
        return "0".repeat(OFFSET_DIGITS - s.length()) + s;
    }

    /** Parses a name in any of our formats; empty if it is not one of ours (a foreign name). */
    public static Optional<ObjectName> parse(String fileName) {
        Matcher m = NAME.matcher(fileName);
        if (!m.matches()) {
            return Optional.empty();
        }
        EnvelopeFormat format = EnvelopeFormat.fromExtension(m.group(4));
        if (format == null || (m.group(3) != null && format != EnvelopeFormat.PARQUET)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ObjectName(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), format, m.group(3)));
        } catch (NumberFormatException e) {
            return Optional.empty(); // above Long.MAX_VALUE: not a Kafka offset, so not ours
        }
    }

    @Override
    public int compareTo(ObjectName o) {
        int c = Long.compare(from, o.from);
        return c != 0 ? c : Long.compare(to, o.to);
    }

    @Override
    public String toString() {
        return fileName();
    }
}
