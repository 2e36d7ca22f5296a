package dev.mirrorv3.bench.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bench's figures from its rounds: per run the medians and their spread; per ratio the ratio of each round both runs
 * ran in, the ratio of the medians and the spread of the per-round ratios. A ratio whose per-round values spread more
 * than {@code maxSpread} percent is withheld, one of fewer than {@code minRounds} paired rounds is not a result; only a
 * result is judged against its goal (bench/goals.txt).
 *
 * @param runs   every timed run, in display order
 * @param ratios the ratios asked for
 * @param checks the other figures asked for
 */
public record Summary(List<RunFigure> runs, List<RatioFigure> ratios, List<CheckFigure> checks) {
    private static final Pattern SIZE = Pattern.compile(".*-([0-9]+)B");

    /** The rules a ratio is judged by: BENCH_MAX_SPREAD and the rounds a spread needs. */
    public record Rules(double maxSpreadPercent, int minRounds) {
        public static final int MIN_ROUNDS = 3;
    }

    static Summary of(RoundResults results, List<String> order, List<Specs.Ratio> ratios, List<Specs.Check> checks, Goals goals,
                      Rules rules) {
        Map<String, RunFigure> runs = new LinkedHashMap<>();
        for (String name : order) {
            if (results.timed().containsKey(name)) {
                runs.put(name, run(name, results.unit(name), results.timed().get(name)));
            }
        }
        results.timed().forEach((name, rounds) -> runs.computeIfAbsent(name, n -> run(n, results.unit(n), rounds)));
        List<RatioFigure> rs = new ArrayList<>();
        for (Specs.Ratio spec : ratios) {
            rs.add(ratio(spec, runs, goals, rules));
        }
        List<CheckFigure> cs = new ArrayList<>();
        for (Specs.Check spec : checks) {
            cs.add(check(spec, goals));
        }
        return new Summary(List.copyOf(runs.values()), rs, cs);
    }

    /** 0 when every ratio and figure is a result, 3 when one is withheld, not a result or missing. */
    public int status() {
        boolean all = ratios.stream().allMatch(r -> r.status() == Status.RESULT)
                && checks.stream().allMatch(c -> c.status() == Status.RESULT);
        return all ? 0 : 3;
    }

    static RunFigure run(String name, String unit, List<RoundValue> rounds) {
        List<Double> rates = rounds.stream().map(RoundValue::rate).toList();
        List<Double> seconds = rounds.stream().map(RoundValue::seconds).toList();
        double rate = Stats.median(rates);
        int size = valueBytes(name);
        return new RunFigure(name, unit, rounds.get(rounds.size() - 1).records(), size, List.copyOf(rounds), rate, Stats.median(seconds),
                rounds.size() > 1 ? Stats.spreadPercent(rates) : null, size > 0 ? rate * size / 1e6 : null);
    }

    /** The value size a run's name ends with ({@code blob-8p-1024B}: 1024), 0 when it names none. */
    static int valueBytes(String run) {
        Matcher m = SIZE.matcher(run);
        return m.matches() ? Integer.parseInt(m.group(1)) : 0;
    }

    private static RatioFigure ratio(Specs.Ratio spec, Map<String, RunFigure> runs, Goals goals, Rules rules) {
        Goal goal = spec.goal() == null ? null : goals.get(spec.goal());
        String goalText = goal == null ? null : goal.ascii();
        RunFigure num = runs.get(spec.numerator());
        RunFigure den = runs.get(spec.denominator());
        if (num == null || den == null || den.medianRate() <= 0) {
            return new RatioFigure(spec.label(), spec.goal(), goalText, spec.numerator(), spec.denominator(), List.of(), null, null,
                    Status.MISSING, null);
        }
        Map<Integer, Double> denominators = new LinkedHashMap<>();
        den.rounds().forEach(v -> denominators.put(v.round(), v.rate()));
        List<Double> perRound = new ArrayList<>();
        for (RoundValue v : num.rounds()) {
            Double d = denominators.get(v.round());
            if (d != null && d > 0) {
                perRound.add(v.rate() / d);
            }
        }
        double ratio = num.medianRate() / den.medianRate();
        Double spread = perRound.size() > 1 ? Stats.spreadPercent(perRound) : null;
        Status status = perRound.size() < rules.minRounds() ? Status.NOT_A_RESULT
                : spread > rules.maxSpreadPercent() ? Status.WITHHELD : Status.RESULT;
        String verdict = status == Status.RESULT && goal != null ? goal.verdict(ratio) : null;
        return new RatioFigure(spec.label(), spec.goal(), goalText, spec.numerator(), spec.denominator(), List.copyOf(perRound), ratio,
                spread, status, verdict);
    }

    private static CheckFigure check(Specs.Check spec, Goals goals) {
        Goal goal = goals.get(spec.goal());
        Status status = spec.reason() == null ? Status.RESULT : Status.NOT_A_RESULT;
        String verdict = status == Status.RESULT ? goal.verdict(spec.value()) : null;
        return new CheckFigure(spec.label(), goal.id(), goal.ascii(), spec.value(), goal.unit(), status, spec.reason(), verdict);
    }
}
