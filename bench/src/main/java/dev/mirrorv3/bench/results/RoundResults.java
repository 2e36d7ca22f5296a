package dev.mirrorv3.bench.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The RESULT and WARMUP lines of a bench's results file, by run name, in the order they first appear. */
public final class RoundResults {
    private static final Pattern NAME = Pattern.compile("(.+)-([rw])([0-9]+)");
    private final Map<String, List<RoundValue>> timed = new LinkedHashMap<>();
    private final Map<String, List<RoundValue>> warmup = new LinkedHashMap<>();
    private final Map<String, String> units = new LinkedHashMap<>();

    public static RoundResults read(Path file) throws IOException {
        return parse(Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of());
    }

    /** The runs of several files, each file's runs counting its unit (records, requests); a run in two files stops. */
    static RoundResults read(Map<Path, String> files) throws IOException {
        RoundResults all = new RoundResults();
        for (Map.Entry<Path, String> f : files.entrySet()) {
            RoundResults one = read(f.getKey());
            for (String run : one.timed.keySet()) {
                if (all.timed.containsKey(run)) {
                    throw new IllegalArgumentException("run " + run + " is in two results files (" + files.keySet() + ")");
                }
            }
            one.timed.forEach((run, v) -> {
                all.timed.put(run, v);
                all.units.put(run, f.getValue());
            });
            one.warmup.forEach((run, v) -> {
                all.warmup.put(run, v);
                all.units.putIfAbsent(run, f.getValue());
            });
        }
        return all;
    }

    /** What a run counts: records unless its file said otherwise. */
    String unit(String run) {
        return units.getOrDefault(run, "records");
    }

    /** Lines that are not a run's RESULT or WARMUP line are skipped; a run's line whose figures are not numbers stops. */
    static RoundResults parse(List<String> lines) {
        RoundResults r = new RoundResults();
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 5 || !(f[0].equals("RESULT") || f[0].equals("WARMUP"))) {
                continue;
            }
            Matcher m = NAME.matcher(f[1]);
            if (!m.matches() || (f[0].equals("RESULT") != m.group(2).equals("r"))) {
                continue;
            }
            RoundValue v;
            try {
                v = new RoundValue(Integer.parseInt(m.group(3)), Long.parseLong(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[4]),
                        List.copyOf(Arrays.asList(f).subList(5, f.length)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a line of figures (" + e.getMessage() + "): " + line, e);
            }
            (f[0].equals("RESULT") ? r.timed : r.warmup).computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(v);
        }
        return r;
    }

    /** The timed runs: name → its rounds in the order they ran. */
    public Map<String, List<RoundValue>> timed() {
        return timed;
    }

    /** The warm-up rounds: name → its rounds. */
    public Map<String, List<RoundValue>> warmup() {
        return warmup;
    }
}
