package dev.mirrorv3.bench.results;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The benches' summaries and runs files (bench/lib.sh calls it; not meant to be run by hand):
 * <ul>
 *   <li>{@code summary --goals F --results F [--request-results F] [--order "runs"] [--ratio SPEC]... [--check SPEC]...
 *       [record options]}: prints the medians, spreads, ratios and figures judged against bench/goals.txt and, with
 *       {@code --record FILE}, appends the run to that runs file; exits 3 when a ratio or figure is withheld or not a result, else 0;</li>
 *   <li>{@code failed --status N --failure TEXT [same options]}: records a run that stopped before its summary, with
 *       what it measured;</li>
 *   <li>{@code pool --goals F --ratio SPEC FILE...}: the ratio pooled over every run recorded in the files.</li>
 * </ul>
 * A ratio is {@code <goal id or ->|<numerator run>|<denominator run>|<label>}, a figure {@code <goal id>|<value or
 * ->|<label>[|<why it is not a result>]}; BENCH_MAX_SPREAD (percent, default 30) is the spread rule.
 */
public final class BenchReport {
    private static final Set<String> OPTIONS = Set.of("goals", "results", "request-results", "order", "ratio", "check", "unit-long",
            "record", "bench", "command", "id", "started", "commit", "load-start", "rounds", "warmup-rounds", "setting", "note", "status",
            "failure");

    private BenchReport() {
    }

    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
        }
    }

    static int run(String[] args) throws IOException {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: BenchReport summary|failed|pool [options] (see its javadoc)");
        }
        Args a = new Args(args, 1, OPTIONS);
        Goals goals = Goals.read(Path.of(a.required("goals")));
        Summary.Rules rules = rules();
        List<Specs.Ratio> ratios = a.all("ratio").stream().map(Specs.Ratio::parse).toList();
        switch (args[0]) {
            case "pool" -> {
                int status = 0;
                for (Specs.Ratio spec : ratios) {
                    Pool.Printed p = Pool.pool(spec, a.rest().stream().map(Path::of).toList(), goals, rules, a.one("unit-long", "records"));
                    p.lines().forEach(System.out::println);
                    status = Math.max(status, p.status());
                }
                return status;
            }
            case "summary", "failed" -> {
                Map<Path, String> files = new LinkedHashMap<>();
                a.all("results").forEach(f -> files.put(Path.of(f), "records"));
                a.all("request-results").forEach(f -> files.put(Path.of(f), "requests"));
                if (files.isEmpty()) {
                    throw new IllegalArgumentException("--results or --request-results is required");
                }
                RoundResults results = RoundResults.read(files);
                List<String> order = Arrays.stream(a.one("order", "").split("\\s+")).filter(s -> !s.isEmpty()).toList();
                Summary s = Summary.of(results, order, ratios, a.all("check").stream().map(Specs.Check::parse).toList(), goals, rules);
                boolean failed = args[0].equals("failed");
                if (!failed) {
                    SummaryText.lines(s, rules).forEach(System.out::println);
                }
                int status = failed ? a.integer("status", 1) : s.status();
                if (a.one("record", null) != null) {
                    Path file = Path.of(a.required("record"));
                    RunsFile.append(file, record(a, results, s, rules, status));
                    System.out.println("  recorded in " + file + (failed ? " (a run that stopped: " + a.one("failure", "") + ")" : ""));
                }
                return status;
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[0] + ": summary, failed or pool");
        }
    }

    /** BENCH_MAX_SPREAD, percent (default 30). */
    static Summary.Rules rules() {
        String v = System.getenv().getOrDefault("BENCH_MAX_SPREAD", "30");
        try {
            return new Summary.Rules(Double.parseDouble(v), Summary.Rules.MIN_ROUNDS);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("BENCH_MAX_SPREAD takes a number of percent, not '" + v + "'", e);
        }
    }

    private static RunRecord record(Args a, RoundResults results, Summary s, Summary.Rules rules, int status) {
        List<RunFigure> warmup = new ArrayList<>();
        results.warmup().forEach((name, rounds) -> warmup.add(Summary.run(name, results.unit(name), rounds)));
        Map<String, String> settings = new LinkedHashMap<>();
        for (String kv : a.all("setting")) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--setting takes name=value, not '" + kv + "'");
            }
            settings.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return new RunRecord(RunRecord.SCHEMA, a.required("bench"), a.required("command"), a.required("id"), a.required("started"),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), a.required("commit"), MachineInfo.current(),
                MachineInfo.parseLoad(a.one("load-start", "")), MachineInfo.load(), a.integer("rounds", 0), a.integer("warmup-rounds", 0),
                rules, settings, s.runs(), warmup, s.ratios(), s.checks(), a.all("note"), status, a.one("failure", null));
    }
}
