package dev.mirrorv3.quickstart;

import dev.mirrorv3.chain.envelope.BackupRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One partition of the torture suite's final check, without I/O: the records the source holds (read_committed, in
 * offset order) against what the destination holds, as segments (a blob chain's objects with their name ranges, or one
 * segment for a whole destination topic). Counts every record missing, duplicated (each extra copy) or differing (a
 * different record at the offset, or a record at an offset the source does not have), and every gap or overlap between
 * consecutive segments; keeps the first few examples for the message.
 */
public final class TortureComparison {
    /** A part of the destination: a chain object {@code from-to} with its records, or a whole topic. */
    public record Segment(String name, long from, long to, List<BackupRecord> records) {
    }

    private static final int EXAMPLES = 5;

    private long expected;
    private long found;
    private long missing;
    private long duplicated;
    private long differing;
    private long gaps;
    private long overlaps;
    private final List<String> examples = new ArrayList<>();

    /** Compares one partition; {@code chainStart} is where the destination must start (the source's log start). */
    public static TortureComparison of(int partition, List<BackupRecord> source, List<Segment> destination,
                                       long chainStart, boolean checkRanges) {
        TortureComparison c = new TortureComparison();
        c.add(partition, source, destination, chainStart, checkRanges);
        return c;
    }

    /** Adds one partition's comparison to this one (a topic's partitions, then the scenarios' totals). */
    public void add(int partition, List<BackupRecord> source, List<Segment> destination, long chainStart, boolean checkRanges) {
        List<Segment> segments = new ArrayList<>(destination);
        segments.sort(Comparator.comparingLong(Segment::from).thenComparingLong(Segment::to));
        if (checkRanges) {
            long next = chainStart;
            for (Segment s : segments) {
                if (s.from() > next) {
                    gaps++;
                    example("p%d: gap, offsets %d..%d are in no object (before %s)", partition, next, s.from() - 1, s.name());
                } else if (s.from() < next) {
                    overlaps++;
                    example("p%d: overlap, %s starts at %d but offsets up to %d are already in an earlier object",
                            partition, s.name(), s.from(), next - 1);
                }
                next = Math.max(next, s.to() + 1);
            }
        }
        Map<Long, List<BackupRecord>> copies = new TreeMap<>();
        for (Segment s : segments) {
            for (BackupRecord r : s.records()) {
                copies.computeIfAbsent(r.offset(), o -> new ArrayList<>()).add(r);
                found++;
            }
        }
        for (BackupRecord r : source) {
            expected++;
            List<BackupRecord> at = copies.remove(r.offset());
            if (at == null) {
                missing++;
                example("p%d: offset %d missing", partition, r.offset());
                continue;
            }
            if (at.size() > 1) {
                duplicated += at.size() - 1;
                example("p%d: offset %d held %d times", partition, r.offset(), at.size());
            }
            for (BackupRecord copy : at) {
                if (!copy.equals(r)) {
                    differing++;
                    example("p%d: offset %d differs: source %s, destination %s", partition, r.offset(), r, copy);
                }
            }
        }
        for (Map.Entry<Long, List<BackupRecord>> extra : copies.entrySet()) {
            differing += extra.getValue().size();
            example("p%d: offset %d is in the destination but not in the source (aborted or never written)",
                    partition, extra.getKey());
        }
    }

    /** Adds another comparison's counts and examples (the scenarios' totals). */
    public void add(TortureComparison o) {
        expected += o.expected;
        found += o.found;
        missing += o.missing;
        duplicated += o.duplicated;
        differing += o.differing;
        gaps += o.gaps;
        overlaps += o.overlaps;
        o.examples.forEach(e -> example("%s", e));
    }

    /** A problem the comparison itself did not see (a chain that does not validate, an unreadable object). */
    public void problem(String message) {
        differing++;
        example("%s", message);
    }

    private void example(String format, Object... args) {
        if (examples.size() < EXAMPLES) {
            examples.add(String.format(format, args));
        }
    }

    public boolean ok() {
        return missing + duplicated + differing + gaps + overlaps == 0;
    }

    public long expected() {
        return expected;
    }

    public long missing() {
        return missing;
    }

    public long duplicated() {
        return duplicated;
    }

    public long differing() {
        return differing;
    }

    public long gaps() {
        return gaps;
    }

    public long overlaps() {
        return overlaps;
    }

    public List<String> examples() {
        return List.copyOf(examples);
    }

    /** One line: {@code records=… missing=… duplicated=… differing=… gaps=… overlaps=…} (the torture script parses it). */
    public String summary() {
        return String.format("records=%d found=%d missing=%d duplicated=%d differing=%d gaps=%d overlaps=%d",
                expected, found, missing, duplicated, differing, gaps, overlaps);
    }
}
