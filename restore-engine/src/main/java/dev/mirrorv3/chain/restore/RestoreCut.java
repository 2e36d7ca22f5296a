package dev.mirrorv3.chain.restore;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a point-in-time restore stops: a timestamp (the longest prefix whose records are all at or before it) and/or an
 * offset per partition (up to and including it). Offsets are preserved or renumbered in order, so a restore is always a
 * prefix of the chain; with both, the shorter prefix wins. Connect-free, shared by the restore CLI and the chain source.
 *
 * @param untilTimestampMs the last timestamp restored (epoch ms), or null
 * @param untilOffsets the last backup offset restored per partition
 */
public record RestoreCut(Long untilTimestampMs, Map<Integer, Long> untilOffsets) {

    public RestoreCut {
        untilOffsets = Map.copyOf(untilOffsets);
    }

    public static RestoreCut none() {
        return new RestoreCut(null, Map.of());
    }

    public boolean isNone() {
        return untilTimestampMs == null && untilOffsets.isEmpty();
    }

    /** The cut of one partition, as a fresh finder fed the partition's records in order. */
    public CutFinder finder(int partition) {
        return new CutFinder(describe(partition), untilTimestampMs, untilOffsets.get(partition));
    }

    /**
     * Whether a consumer-group snapshot describes the groups at or before this cut, so a point-in-time restore never
     * commits a position taken after it. A timestamp cut takes a snapshot taken at or before the timestamp; an offset
     * cut takes one taken while the backup had not passed the cut: its recorded chain next offset is at most
     * {@code cut + 1} on every partition with an offset cut (a partition it has no entry for had not been backed up).
     * With both, both must hold. Without a cut, every snapshot does.
     */
    public boolean admitsGroupSnapshot(long timeMs, Map<Integer, Long> chainNextOffsets) {
        if (untilTimestampMs != null && timeMs > untilTimestampMs) {
            return false;
        }
        return untilOffsets.entrySet().stream().allMatch(e -> chainNextOffsets.getOrDefault(e.getKey(), 0L) <= e.getValue() + 1);
    }

    /** Why {@link #admitsGroupSnapshot} took a snapshot, in words, or null without a cut. */
    public String groupSnapshotRule() {
        String ts = untilTimestampMs == null ? null : "taken at or before the cut " + Instant.ofEpochMilli(untilTimestampMs);
        String off = untilOffsets.isEmpty() ? null : "taken when the backup had not passed the cut (its recorded chain next offset"
                + " at most the until offset + 1 on partitions " + new TreeMap<>(untilOffsets).keySet() + ")";
        if (ts == null && off == null) {
            return null;
        }
        return "the newest " + (ts != null && off != null ? ts + " and " + off : ts != null ? ts : off);
    }

    /** The cut of one partition in words, or null without one. */
    public String describe(int partition) {
        Long offset = untilOffsets.get(partition);
        String ts = untilTimestampMs == null ? null : "until timestamp " + Instant.ofEpochMilli(untilTimestampMs);
        String off = offset == null ? null : "until offset " + offset;
        if (ts != null && off != null) {
            return ts + " and " + off;
        }
        return ts != null ? ts : off;
    }

    /**
     * Parses a timestamp given as epoch milliseconds or ISO-8601 ({@code 2026-11-30T14:02:00Z},
     * {@code 2026-11-30T16:02:00+02:00}).
     *
     * @throws IllegalArgumentException saying what is accepted
     */
    public static long parseTimestamp(String text) {
        String s = text.trim();
        if (s.matches("\\d{1,18}")) {
            return Long.parseLong(s);
        }
        try {
            return OffsetDateTime.parse(s).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is neither epoch milliseconds nor an ISO-8601 time with an offset;"
                    + " use e.g. 2026-11-30T14:02:00Z or 1796047320000");
        }
    }

    /**
     * Parses {@code PARTITION:OFFSET} pairs into a map.
     *
     * @throws IllegalArgumentException naming the pair that is wrong or repeated
     */
    public static Map<Integer, Long> parseOffsets(Iterable<String> pairs) {
        Map<Integer, Long> out = new TreeMap<>();
        for (String pair : pairs) {
            String s = pair.trim();
            if (s.isEmpty()) {
                continue;
            }
            String[] parts = s.split(":");
            int partition;
            long offset;
            try {
                if (parts.length != 2) {
                    throw new NumberFormatException();
                }
                partition = Integer.parseInt(parts[0].trim());
                offset = Long.parseLong(parts[1].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + s + "' is not PARTITION:OFFSET; use e.g. 0:41999");
            }
            if (partition < 0 || offset < 0) {
                throw new IllegalArgumentException("'" + s + "': partition and offset must be at least 0");
            }
            if (out.put(partition, offset) != null) {
                throw new IllegalArgumentException("partition " + partition + " has two offsets (" + s + " and one before it)");
            }
        }
        return out;
    }
}
