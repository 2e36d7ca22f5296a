package dev.mirrorv3.quickstart;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the cache sidecar must serve and notify for a topic, from the topic's records (read_committed, each partition in
 * offset order), by the rules of cache-sidecar/README.md: "Cache semantics" (key → latest value, a null value deletes,
 * a null key is skipped) and "Notifications (kkv-v1)" (a new or changed value, or the tombstone of a known key, is a
 * change; an identical value or the tombstone of an unknown key is not).
 *
 * <p>A change of key k at offset o of partition p counts as notified when some notification batch names k with
 * {@code offsets[p] ≥ o}: the sidecar applies a poll before it notifies it, so a client that reads k after that batch
 * reads a value at least as new as o (changes of one key may be merged into one notification).
 */
final class CacheExpectation {
    /** One change the sidecar must notify. */
    record Change(String key, int partition, long offset) {
    }

    /** One received kkv-v1 batch: the keys it names and, per partition, the offset of the last record it covers. */
    record Batch(Set<String> keys, Map<Integer, Long> offsets) {
    }

    /** A record of the topic, as far as the cache is concerned. */
    record Entry(int partition, long offset, byte[] key, byte[] value) {
    }

    private final Map<String, byte[]> latest = new TreeMap<>();
    private final Set<String> everSeen = new LinkedHashSet<>();
    private final List<Change> changes = new ArrayList<>();
    private final Map<Integer, Long> lastOffsets = new TreeMap<>();

    /** @param partitions each partition's records in offset order (taken in partition order, whatever the map's) */
    CacheExpectation(Map<Integer, List<Entry>> partitions) {
        for (Map.Entry<Integer, List<Entry>> e : new TreeMap<>(partitions).entrySet()) {
            for (Entry r : e.getValue()) {
                lastOffsets.put(r.partition(), r.offset());
                if (r.key() == null) {
                    continue;
                }
                String k = new String(r.key(), StandardCharsets.UTF_8);
                everSeen.add(k);
                byte[] before = latest.get(k);
                if (r.value() == null) {
                    if (before != null) {
                        latest.remove(k);
                        changes.add(new Change(k, r.partition(), r.offset()));
                    }
                } else if (before == null || !Arrays.equals(before, r.value())) {
                    latest.put(k, r.value());
                    changes.add(new Change(k, r.partition(), r.offset()));
                }
            }
        }
    }

    /** Each key's latest value; a deleted key is absent. */
    Map<String, byte[]> latest() {
        return latest;
    }

    /** Every key the topic ever held (the deleted ones must answer 404). */
    Set<String> everSeen() {
        return everSeen;
    }

    List<Change> changes() {
        return changes;
    }

    /** Per partition, the offset of its last record (the cache has caught up once it has consumed it). */
    Map<Integer, Long> lastOffsets() {
        return lastOffsets;
    }

    /** The changes no batch covers. */
    List<Change> unnotified(List<Batch> batches) {
        Map<String, Map<Integer, Long>> covered = new HashMap<>();
        for (Batch b : batches) {
            for (String k : b.keys()) {
                Map<Integer, Long> perPartition = covered.computeIfAbsent(k, x -> new HashMap<>());
                b.offsets().forEach((p, o) -> perPartition.merge(p, o, Math::max));
            }
        }
        return changes.stream()
                .filter(c -> covered.getOrDefault(c.key(), Map.of()).getOrDefault(c.partition(), -1L) < c.offset())
                .toList();
    }
}
