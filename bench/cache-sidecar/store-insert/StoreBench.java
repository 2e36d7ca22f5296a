import dev.mirrorv3.cache.store.KeyGroup;
import dev.mirrorv3.cache.store.KeyValueStore;
import dev.mirrorv3.cache.store.Utf8Keys;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bootstrap's inserts alone: KEYS distinct keys (key-0 ...) with 100-byte values into a fresh, presized store,
 * as the sidecar's applier does them. Each round times both ways, taking turns in first place: each record applied
 * alone (the baseline) and records in groups whose index slots are prefetched first (KeyGroup, the
 * applier's way). Prints each round's milliseconds, the medians and the ratio baseline / grouped.
 * Arguments: keys rounds groupSize.
 */
public final class StoreBench {

    public static void main(String[] args) {
        int keys = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int groupSize = Integer.parseInt(args[2]);
        byte[][] raw = new byte[keys][];
        for (int i = 0; i < keys; i++) {
            raw[i] = ("key-" + i).getBytes(StandardCharsets.UTF_8);
        }
        ByteBuffer value = ByteBuffer.wrap(new byte[100]);
        long[] alone = new long[rounds];
        long[] grouped = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            for (int turn = 0; turn < 2; turn++) {
                boolean group = (r + turn) % 2 == 1;
                System.gc();
                KeyValueStore store = new KeyValueStore();
                store.presize(keys);
                long t0 = System.nanoTime();
                if (group) {
                    insertGrouped(store, raw, value, groupSize);
                } else {
                    insertAlone(store, raw, value);
                }
                long ms = (System.nanoTime() - t0) / 1_000_000;
                if (store.size() != keys) {
                    throw new IllegalStateException("the store holds " + store.size() + " keys, not " + keys);
                }
                (group ? grouped : alone)[r] = ms;
                System.out.printf("round %d %-22s %5d ms%n", r + 1, group ? "grouped (" + groupSize + ")" : "alone",
                        ms);
            }
        }
        double a = median(alone);
        double g = median(grouped);
        System.out.printf("RESULT %d inserts: alone %.0f ms, grouped by %d %.0f ms (medians of %d rounds): "
                + "grouped is %.2fx as fast%n", keys, a, groupSize, g, rounds, a / g);
    }

    private static void insertAlone(KeyValueStore store, byte[][] raw, ByteBuffer value) {
        for (byte[] k : raw) {
            store.apply(Utf8Keys.normalize(k), value);
        }
    }

    private static void insertGrouped(KeyValueStore store, byte[][] raw, ByteBuffer value, int size) {
        KeyGroup group = new KeyGroup(size);
        for (int from = 0; from < raw.length; from += size) {
            int to = Math.min(raw.length, from + size);
            group.clear();
            for (int i = from; i < to; i++) {
                group.add(Utf8Keys.normalize(raw[i]));
            }
            store.prefetch(group);
            for (int i = 0; i < to - from; i++) {
                store.apply(group, i, value);
            }
        }
    }

    private static double median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }
}
