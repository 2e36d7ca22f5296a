package dev.mirrorv3.cache;

/** Minimal JSON string escaping for hand-built hot-path strings. */
public final class Json {

    /**
     * What stands in a JSON string for each character up to the backslash (the control characters, the quote and the
     * backslash need escaping); null: the character itself. A table: the hot path neither branches per case nor formats.
     */
    private static final String[] ESCAPES = new String['\\' + 1];

    static {
        for (char c = 0; c < 0x20; c++) {
            ESCAPES[c] = String.format("\\u%04x", (int) c);
        }
        ESCAPES['"'] = "\\\"";
        ESCAPES['\\'] = "\\\\";
        ESCAPES['\n'] = "\\n";
        ESCAPES['\r'] = "\\r";
        ESCAPES['\t'] = "\\t";
    }

    private Json() {
    }

    public static StringBuilder appendString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String escape = c < ESCAPES.length ? ESCAPES[c] : null;
            if (escape == null) {
                sb.append(c);
            } else {
                sb.append(escape);
            }
        }
        return sb.append('"');
    }
}
