package dev.mirrorv3.cache.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

/**
 * The compact store against a {@link HashMap} model: random puts, overwrites (also of the same bytes), tombstones of
 * known and unknown keys, values from empty to page-sized, enough garbage for compaction; then readers and listings
 * running while the writer does all that.
 */
class KeyValueStorePropertiesTest {

    /** One record: a key number, and a value length (null: a tombstone) or the key's current value again. */
    record Op(int key, Integer valueLength, boolean sameValue, int seed) {
    }

    static byte[] key(int i) {
        String k = switch (i % 5) {
            case 0 -> "k" + i;
            case 1 -> "ключ-" + i;             // non-ASCII UTF-8
            case 2 -> "x".repeat(40) + i;       // longer than a hash word
            case 3 -> "";                        // only for i == 3: the empty key
            default -> "user-" + i + "-🙂";
        };
        return (i % 5 == 3 && i != 3 ? "e" + i : k).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int length, int seed) {
        byte[] v = new byte[length];
        for (int i = 0; i < length; i++) {
            v[i] = (byte) (seed * 31 + i * 7);
        }
        return v;
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Integer> lengths = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, Arbitraries.just(0)),
                net.jqwik.api.Tuple.of(70, Arbitraries.integers().between(1, 200)),
                net.jqwik.api.Tuple.of(20, Arbitraries.integers().between(200, 6000)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(PageTable.LARGE_RECORD - 64,
                        PageTable.LARGE_RECORD + 64)),
                net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(PageTable.LARGE_RECORD + 1, 300_000)));
        return Arbitraries.integers().between(1, 400).flatMap(keys -> Combinators.combine(
                Arbitraries.integers().between(0, keys - 1),
                lengths.injectNull(0.2),
                Arbitraries.integers().between(0, 9).map(n -> n == 0),
                Arbitraries.integers()).as(Op::new).list().ofMinSize(1).ofMaxSize(1500)
                .withSizeDistribution(RandomDistribution.uniform()));
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    @StatisticsReport(onFailureOnly = true)
    void behavesLikeAHashMap(@ForAll("ops") List<Op> ops) {
        KeyValueStore store = new KeyValueStore();
        Map<String, byte[]> model = new HashMap<>();
        for (Op op : ops) {
            applyBoth(store, model, op);
        }
        // The generated cases must reach multi-page stores and pages of their own, or the property proves little.
        Statistics.label("pages").collect(store.footprint() > 2 * PageTable.PAGE_SIZE ? "several" : "one");
        Statistics.label("records of their own page").collect(ops.stream().anyMatch(o -> o.valueLength() != null
                && o.valueLength() > PageTable.LARGE_RECORD));
        Statistics.label("pages").coverage(c -> c.check("several").percentage(p -> p >= 20));
        Statistics.label("records of their own page").coverage(c -> c.check(true).percentage(p -> p >= 20));
        assertSameAs(store, model, ops);
    }

    /**
     * The records applied as the consumer applies them, in groups whose slots are prefetched first (a group may hold
     * a key twice, and the index may grow between the prefetch and an apply), mixed with records applied alone.
     */
    @Property(tries = 150, edgeCases = EdgeCasesMode.NONE)
    void groupedAppliesBehaveLikeAHashMap(@ForAll("ops") List<Op> ops,
                                          @ForAll @IntRange(min = 1, max = 40) int groupSize) {
        KeyValueStore store = new KeyValueStore();
        Map<String, byte[]> model = new HashMap<>();
        KeyGroup group = new KeyGroup(groupSize);
        for (int from = 0; from < ops.size(); from += groupSize) {
            List<Op> chunk = ops.subList(from, Math.min(ops.size(), from + groupSize));
            if (chunk.get(0).seed() % 4 == 0) {
                chunk.forEach(op -> applyBoth(store, model, op, null, 0));
                continue;
            }
            group.clear();
            chunk.forEach(op -> group.add(key(op.key())));
            assertThat(group.size()).isEqualTo(chunk.size());
            store.prefetch(group);
            for (int i = 0; i < chunk.size(); i++) {
                applyBoth(store, model, chunk.get(i), group, i);
            }
        }
        assertSameAs(store, model, ops);
    }

    @Example
    void aGroupRefusesMoreKeysThanItHoldsAndAppliesNoNullKey() {
        KeyValueStore store = new KeyValueStore();
        KeyGroup group = new KeyGroup(2);
        group.add(null);
        group.add(key(1));
        assertThat(group.size()).isEqualTo(2);
        assertThatThrownBy(() -> group.add(key(2)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("holds 2 keys");
        store.prefetch(group); // a null key is skipped
        assertThatThrownBy(() -> store.apply(group, 0, ByteBuffer.allocate(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key 0 of the group is null");
        assertThat(store.apply(group, 1, ByteBuffer.wrap(value(3, 1)))).isEqualTo(KeyValueStore.Change.ADDED);
        assertThat(store.get(key(1))).isEqualTo(value(3, 1));
        group.clear();
        assertThat(group.size()).isZero();
        assertThatThrownBy(() -> group.key(0))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    /** Many overwrites of large values: compaction runs, and the store still equals the model. */
    @Property(tries = 40, edgeCases = EdgeCasesMode.NONE)
    void compactionKeepsEveryLiveRecord(@ForAll("heavyOverwrites") List<Op> ops) {
        KeyValueStore store = new KeyValueStore();
        Map<String, byte[]> model = new HashMap<>();
        for (Op op : ops) {
            applyBoth(store, model, op);
        }
        assertThat(store.compactedPages()).as("compaction ran").isPositive();
        assertSameAs(store, model, ops);
    }

    @Provide
    Arbitrary<List<Op>> heavyOverwrites() {
        return Combinators.combine(Arbitraries.integers().between(0, 59),
                // records of 1/512 to 1/29 of a page: each page holds about as many records as there are keys, so
                // overwrites leave pages partly live (garbage only compaction reclaims) rather than wholly dead
                Arbitraries.integers().between(PageTable.PAGE_SIZE / 512, PageTable.PAGE_SIZE / 29)
                        .injectNull(0.1),
                Arbitraries.just(false), Arbitraries.integers()).as(Op::new).list().ofMinSize(1500).ofMaxSize(2500);
    }

    private static void applyBoth(KeyValueStore store, Map<String, byte[]> model, Op op) {
        applyBoth(store, model, op, null, 0);
    }

    /** Applies {@code op} to both, to the store through {@code group}'s key {@code i} when a group is given. */
    private static void applyBoth(KeyValueStore store, Map<String, byte[]> model, Op op, KeyGroup group,
                                  int i) {
        byte[] k = key(op.key());
        String ks = new String(k, StandardCharsets.UTF_8);
        byte[] old = model.get(ks);
        byte[] v = op.valueLength() == null ? null
                : op.sameValue() && old != null ? old.clone() : value(op.valueLength(), op.seed());
        KeyValueStore.Change expected = v == null ? (old == null ? KeyValueStore.Change.ABSENT
                : KeyValueStore.Change.DELETED)
                : old == null ? KeyValueStore.Change.ADDED
                : Arrays.equals(old, v) ? KeyValueStore.Change.UNCHANGED : KeyValueStore.Change.CHANGED;
        KeyValueStore.Change actual = group == null ? store.apply(k, v)
                : store.apply(group, i, v == null ? null : ByteBuffer.wrap(v));
        assertThat(actual).as("%s", op).isEqualTo(expected);
        if (v == null) {
            model.remove(ks);
        } else {
            model.put(ks, v);
        }
    }

    private static void assertSameAs(KeyValueStore store, Map<String, byte[]> model, List<Op> ops) {
        assertThat(store.size()).isEqualTo(model.size());
        long payload = 0;
        for (Map.Entry<String, byte[]> e : model.entrySet()) {
            payload += e.getKey().getBytes(StandardCharsets.UTF_8).length + e.getValue().length;
        }
        assertThat(store.bytes()).isEqualTo(payload);
        for (Op op : ops) {
            String ks = new String(key(op.key()), StandardCharsets.UTF_8);
            assertThat(store.get(ks)).as("get %s", ks).isEqualTo(model.get(ks));
        }
        Map<String, byte[]> listed = new HashMap<>();
        Iterator<Map.Entry<String, byte[]>> it = store.entries();
        while (it.hasNext()) {
            Map.Entry<String, byte[]> e = it.next();
            assertThat(listed.put(e.getKey(), e.getValue())).as("listed twice: %s", e.getKey()).isNull();
        }
        assertThat(listed.keySet()).isEqualTo(model.keySet());
        listed.forEach((k, v) -> assertThat(v).isEqualTo(model.get(k)));
        // The footprint is the payload plus bounded overhead: record headers, garbage of about a quarter at most
        // (compaction), page tails, the open page, and an index of at most 2.7 slots per key ever held.
        long everHeld = ops.stream().map(Op::key).distinct().count();
        long bound = (long) ((payload + 10L * store.size()) * 1.4) + 4L * (PageTable.PAGE_SIZE
                + PageTable.PAGE_OVERHEAD) + 32 * everHeld + 1024;
        assertThat(store.footprint()).isLessThanOrEqualTo(bound);
    }

    /**
     * Readers and listings while the writer applies random records: a get returns null or a value written for that
     * key; keys never deleted are always found and listed exactly once per listing, with a value written for them.
     */
    @Property(tries = 25, edgeCases = EdgeCasesMode.NONE)
    void readersAndListingsDuringWrites(@ForAll("concurrentOps") List<Op> ops) throws Exception {
        KeyValueStore store = new KeyValueStore();
        int stable = 50;
        int keySpace = 400;
        AtomicIntegerArray version = new AtomicIntegerArray(keySpace);
        for (int i = 0; i < stable; i++) {
            store.apply(key(i), versioned(i, 0, 10));
        }
        AtomicBoolean done = new AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            int seed = r;
            Thread t = new Thread(() -> {
                int n = seed;
                while (!done.get() && problems.isEmpty()) {
                    int k = Math.floorMod(n * 7919 + 13, keySpace);
                    n++;
                    byte[] v = store.get(key(k));
                    check(k, v, version, problems, k < stable);
                    if (n % 50 == 0) {
                        Set<String> seen = new HashSet<>();
                        StoreCursor c = store.cursor();
                        while (c.next()) {
                            String key = c.key();
                            int id = idOf(key);
                            if (id < stable && !seen.add(key)) {
                                problems.add("listed twice: " + key);
                            }
                            check(id, c.value(), version, problems, false);
                        }
                        for (int i = 0; i < stable; i++) {
                            if (!seen.contains(new String(key(i), StandardCharsets.UTF_8))) {
                                problems.add("a listing missed the never-deleted key " + i);
                            }
                        }
                        listings.incrementAndGet();
                    }
                }
            });
            t.start();
            readers.add(t);
        }
        try {
            // Write until each reader has listed the store a few times while writes went on (bounded passes).
            for (int pass = 0; pass < 100 && (pass < 2 || listings.get() < 8); pass++) {
                for (Op op : ops) {
                    int k = op.key() % keySpace;
                    Integer length = k < stable && op.valueLength() == null ? Integer.valueOf(1) : op.valueLength();
                    if (length == null) {
                        store.apply(key(k), (byte[]) null);
                    } else {
                        int v = version.incrementAndGet(k);
                        store.apply(key(k), versioned(k, v, length));
                    }
                }
            }
        } finally {
            done.set(true);
            for (Thread t : readers) {
                t.join();
            }
        }
        assertThat(problems).isEmpty();
        assertThat(store.compactedPages()).as("compaction ran under the readers").isPositive();
    }

    @Provide
    Arbitrary<List<Op>> concurrentOps() {
        return Combinators.combine(Arbitraries.integers().between(0, 399),
                // up to 1/87 of a page: pages partly live, so compaction runs under the readers
                Arbitraries.integers().between(1, PageTable.PAGE_SIZE / 87).injectNull(0.25),
                Arbitraries.just(false), Arbitraries.integers()).as(Op::new).list().ofMinSize(2000).ofMaxSize(6000);
    }

    private static byte[] versioned(int key, int version, int length) {
        byte[] head = (key + "|" + version + "|").getBytes(StandardCharsets.UTF_8);
        byte[] v = Arrays.copyOf(head, Math.max(length, head.length));
        Arrays.fill(v, head.length, v.length, (byte) ('a' + key % 26));
        return v;
    }

    private static void check(int k, byte[] v, AtomicIntegerArray version, ConcurrentLinkedQueue<String> problems,
                              boolean mustExist) {
        if (v == null) {
            if (mustExist) {
                problems.add("never-deleted key " + k + " not found");
            }
            return;
        }
        String s = new String(v, StandardCharsets.ISO_8859_1);
        String[] parts = s.split("\\|", 3);
        if (parts.length < 3 || Integer.parseInt(parts[0]) != k) {
            problems.add("key " + k + " read a value written for another key: " + s.substring(0, Math.min(40,
                    s.length())));
            return;
        }
        int ver = Integer.parseInt(parts[1]);
        if (ver > version.get(k)) {
            problems.add("key " + k + " read version " + ver + " before it was written");
        }
        for (int i = s.indexOf('|', parts[0].length() + 1) + 1; i < v.length; i++) {
            if (v[i] != (byte) ('a' + k % 26)) {
                problems.add("key " + k + " read a torn value");
                return;
            }
        }
    }

    private static final Map<String, Integer> IDS = new HashMap<>();

    static {
        for (int i = 0; i < 400; i++) {
            IDS.put(new String(key(i), StandardCharsets.UTF_8), i);
        }
    }

    private static int idOf(String key) {
        Integer id = IDS.get(key);
        if (id == null) {
            throw new AssertionError("unknown key " + key);
        }
        return id;
    }
}
