package dev.mirrorv3.cache;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Key → latest value of one cache. One writer (the cache's consumer thread), any number of readers; iteration is
 * weakly consistent (never fails, never repeats a key, sees every key present for the whole iteration).
 *
 * <p>Memory accounting: {@link #bytes()} is the sum of the keys' UTF-8 lengths and the values' lengths, the payload
 * the cache holds, without JVM object overhead (measured in bench/).
 */
public final class KeyValueStore {

    /** What a record did to the map, which decides whether it is notified. */
    public enum Change {
        /** A new key. */
        ADDED,
        /** A different value for a known key. */
        CHANGED,
        /** The same bytes again: not notified. */
        UNCHANGED,
        /** A tombstone of a known key: the key is removed. */
        DELETED,
        /** A tombstone of an unknown key: nothing happens, not notified. */
        ABSENT
    }

    private volatile ConcurrentHashMap<String, byte[]> map = new ConcurrentHashMap<>();
    private volatile long bytes;

    /**
     * Sizes the map for about {@code expectedKeys} (at most 1M, so a long topic with few keys costs at most ~8 MB of
     * table) before the first record, to avoid rehashing while bootstrapping.
     */
    void presize(long expectedKeys) {
        if (map.isEmpty()) {
            map = new ConcurrentHashMap<>((int) Math.min(Math.max(expectedKeys, 16), 1 << 20));
        }
    }

    public byte[] get(String key) {
        return map.get(key);
    }

    /**
     * Applies one record (single writer only).
     *
     * @param keyBytes the key's serialized length, for accounting
     * @param value    the value, null for a tombstone
     */
    public Change apply(String key, int keyBytes, byte[] value) {
        if (value == null) {
            byte[] old = map.remove(key);
            if (old == null) {
                return Change.ABSENT;
            }
            bytes = bytes - keyBytes - old.length;
            return Change.DELETED;
        }
        byte[] old = map.put(key, value);
        if (old == null) {
            bytes = bytes + keyBytes + value.length;
            return Change.ADDED;
        }
        bytes = bytes + value.length - old.length;
        return Arrays.equals(old, value) ? Change.UNCHANGED : Change.CHANGED;
    }

    public int size() {
        return map.size();
    }

    /** Sum of key (UTF-8) and value lengths held. */
    public long bytes() {
        return bytes;
    }

    /** A weakly consistent iterator over the entries, safe against concurrent updates. */
    public Iterator<Map.Entry<String, byte[]>> entries() {
        return map.entrySet().iterator();
    }
}
