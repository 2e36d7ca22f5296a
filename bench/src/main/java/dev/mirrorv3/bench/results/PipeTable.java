package dev.mirrorv3.bench.results;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows of a table file of bench/ (goals.txt, peers.txt): one row per line, fields separated by " | " and trimmed,
 * blank lines and lines starting with "#" left out. A row of another width stops with its line and the fields expected.
 */
final class PipeTable {
    private PipeTable() {
    }

    /**
     * A row and where it is, for the messages of the table's own checks.
     *
     * @param at     "{source} line {n}"
     * @param fields the row's fields, trimmed
     */
    record Row(String at, List<String> fields) {
        String get(int i) {
            return fields.get(i);
        }
    }

    /** @param header the fields' names, e.g. "what | command | run | partitions | peers" */
    static List<Row> rows(List<String> lines, String source, String header) {
        int width = header.split(" \\| ").length;
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(" \\| ", -1);
            String at = source + " line " + (i + 1);
            if (f.length != width) {
                throw new IllegalArgumentException(at + " has " + f.length + " fields, not " + width + " (" + header + "): " + line);
            }
            rows.add(new Row(at, Arrays.stream(f).map(String::trim).toList()));
        }
        return rows;
    }
}
