package dev.mirrorv3.cache.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a raw request path into percent-decoded segments, as kafka-keyvalue's router does: a {@code %2F} is part of
 * its segment, a {@code +} is literal, a raw {@code /} separates segments.
 */
public final class PathSegments {

    private PathSegments() {
    }

    /**
     * @param rawPath the undecoded path, starting with {@code /}, without query string
     * @return the decoded segments (an empty string for an empty segment), or null if an escape is malformed
     */
    public static List<String> split(String rawPath) {
        List<String> out = new ArrayList<>(6);
        int start = rawPath.startsWith("/") ? 1 : 0;
        while (true) {
            int slash = rawPath.indexOf('/', start);
            String seg = decode(rawPath, start, slash < 0 ? rawPath.length() : slash);
            if (seg == null) {
                return null;
            }
            out.add(seg);
            if (slash < 0) {
                return out;
            }
            start = slash + 1;
        }
    }

    static String decode(String s, int from, int to) {
        int pct = s.indexOf('%', from);
        if (pct < 0 || pct >= to) {
            return s.substring(from, to);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(to - from);
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= to) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else if (c < 0x80) {
                bytes.write(c);
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
