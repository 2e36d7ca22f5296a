package dev.mirrorv3.bench.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs recorded in runs files, for pooling: a JSON runs file (bench/results/&lt;bench&gt;.jsonl) or the text one the
 * cache sidecar bench wrote before it (lines {@code RUN <id> ...}, its RESULT lines, {@code END <id> exit <status>}).
 */
final class RecordedRuns {
    private RecordedRuns() {
    }

    /**
     * One recorded run.
     *
     * @param title  how the pooled summary names it
     * @param ending its exit status, or that it has none
     * @param rates  run name → round → rate
     */
    record Recorded(String title, String ending, Map<String, Map<Integer, Double>> rates) {
    }

    static List<Recorded> read(Path file) throws IOException {
        String first = Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).findFirst().orElse("");
        return first.startsWith("{") ? fromJson(file) : fromText(file);
    }

    private static List<Recorded> fromJson(Path file) throws IOException {
        List<Recorded> out = new ArrayList<>();
        for (RunRecord r : RunsFile.read(file)) {
            Map<String, Map<Integer, Double>> rates = new HashMap<>();
            for (RunFigure run : r.runs()) {
                Map<Integer, Double> byRound = new LinkedHashMap<>();
                run.rounds().forEach(v -> byRound.put(v.round(), v.rate()));
                rates.put(run.name(), byRound);
            }
            out.add(new Recorded(r.id() + " " + r.started() + " commit " + r.commit() + " " + r.command(),
                    r.failure() == null ? "exit " + r.exitStatus() : "exit " + r.exitStatus() + " (" + r.failure() + ")", rates));
        }
        return out;
    }

    private static List<Recorded> fromText(Path file) throws IOException {
        List<Recorded> out = new ArrayList<>();
        String title = null;
        String ending = null;
        List<String> results = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.startsWith("RUN ")) {
                add(out, title, ending, results);
                title = line;
                ending = null;
                results = new ArrayList<>();
            } else if (line.startsWith("END ") && title != null) {
                ending = line.substring(line.lastIndexOf(' ', line.lastIndexOf(' ') - 1) + 1);
            } else if (title != null) {
                results.add(line);
            }
        }
        add(out, title, ending, results);
        return out;
    }

    private static void add(List<Recorded> out, String title, String ending, List<String> results) {
        if (title == null) {
            return;
        }
        Map<String, Map<Integer, Double>> rates = new HashMap<>();
        RoundResults.parse(results).timed().forEach((run, rounds) -> {
            Map<Integer, Double> byRound = new LinkedHashMap<>();
            rounds.forEach(v -> byRound.put(v.round(), v.rate()));
            rates.put(run, byRound);
        });
        out.add(new Recorded(title, ending == null ? "no END line (killed?)" : ending, rates));
    }
}
