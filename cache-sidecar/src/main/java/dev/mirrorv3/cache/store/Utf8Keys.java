package dev.mirrorv3.cache.store;

import java.nio.charset.StandardCharsets;

/**
 * Keys are UTF-8 strings (kafka-keyvalue's contract). A Kafka key that is not valid UTF-8 is stored as its decoded
 * string re-encoded (malformed bytes become U+FFFD), exactly as a {@code String}-keyed map held it.
 */
public final class Utf8Keys {

    private Utf8Keys() {
    }

    /** The key as stored: {@code raw} itself when it is valid UTF-8 (the common, all-ASCII case costs one scan). */
    public static byte[] normalize(byte[] raw) {
        for (byte b : raw) {
            if (b < 0) {
                byte[] roundTrip = new String(raw, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
                return java.util.Arrays.equals(raw, roundTrip) ? raw : roundTrip;
            }
        }
        return raw;
    }

    /**
     * The UTF-8 bytes of a key looked up by name, or null when the string has an unpaired surrogate: no stored key
     * can equal it (stored keys are decoded UTF-8), while {@link String#getBytes} would turn it into {@code ?}.
     */
    public static byte[] encode(String key) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= key.length() || !Character.isLowSurrogate(key.charAt(i + 1))) {
                    return null;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return null;
            }
        }
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
