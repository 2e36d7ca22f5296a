package dev.mirrorv3.bench.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * bench/peers.txt: which recorded figures docs/performance.md shows as throughput (records/s, MB/s per worker and per
 * partition) beside what the peers publish for the same job. {@link ResultsPages#peerTable} renders it.
 */
public final class PeerTable {
    /** The table, seen from the bench module's directory (surefire's working directory). */
    public static final Path FILE = Path.of("peers.txt");
    private final List<Row> rows;

    private PeerTable(List<Row> rows) {
        this.rows = rows;
    }

    /**
     * One line of the table.
     *
     * @param what       what the figure is
     * @param command    the bench command whose newest recorded run gives it
     * @param run        the run's name, {@code {p}} standing for the partitions
     * @param partitions the partition counts
     * @param peers      what the peers publish ("-": nothing)
     */
    public record Row(String what, String command, String run, List<Integer> partitions, String peers) {
        String runName(int partitions) {
            return run.replace("{p}", Integer.toString(partitions));
        }
    }

    public static PeerTable read(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
    }

    /** The rows of these lines; a line that is not a row stops with its number and what is wrong. */
    static PeerTable parse(List<String> lines, String source) {
        List<Row> rows = new ArrayList<>();
        for (PipeTable.Row f : PipeTable.rows(lines, source, "what | command | run | partitions | peers")) {
            if (!f.get(2).contains("{p}")) {
                throw new IllegalArgumentException(f.at() + ": the run name '" + f.get(2) + "' has no {p} for the partitions");
            }
            List<Integer> partitions;
            try {
                partitions = Arrays.stream(f.get(3).split(" +")).map(Integer::valueOf).toList();
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(f.at() + ": the partitions '" + f.get(3) + "' are not whole numbers separated by"
                        + " spaces", e);
            }
            rows.add(new Row(f.get(0), f.get(1), f.get(2), partitions, f.get(4)));
        }
        return new PeerTable(rows);
    }

    public List<Row> rows() {
        return rows;
    }
}
