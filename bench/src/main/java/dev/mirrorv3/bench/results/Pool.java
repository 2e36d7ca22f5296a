package dev.mirrorv3.bench.results;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One ratio pooled over every run recorded in runs files, none left out: the ratio of each round of each run, their
 * median, quartiles and range, and each run's own ratio of medians. The spread rule holds for the pool as for one run:
 * per-round ratios that spread more than BENCH_MAX_SPREAD are withheld, fewer than the rounds a spread needs are not a
 * result; only a result is judged against the goal.
 */
final class Pool {
    private Pool() {
    }

    /** The pooled lines and their status (0 a result, 3 otherwise). */
    static Printed pool(Specs.Ratio spec, List<Path> files, Goals goals, Summary.Rules rules, String unitLong) throws IOException {
        List<RecordedRuns.Recorded> runs = new ArrayList<>();
        for (Path f : files) {
            runs.addAll(RecordedRuns.read(f));
        }
        List<Double> ratios = new ArrayList<>();
        List<Double> numerators = new ArrayList<>();
        List<String> perRun = new ArrayList<>();
        for (RecordedRuns.Recorded run : runs) {
            Map<Integer, Double> num = run.rates().getOrDefault(spec.numerator(), Map.of());
            Map<Integer, Double> den = run.rates().getOrDefault(spec.denominator(), Map.of());
            List<Double> mine = new ArrayList<>();
            List<Double> mineDen = new ArrayList<>();
            num.forEach((round, rate) -> {
                Double d = den.get(round);
                if (d != null && d > 0) {
                    ratios.add(rate / d);
                    numerators.add(rate);
                    mine.add(rate);
                    mineDen.add(d);
                }
            });
            perRun.add("    " + run.title() + ": " + (mine.isEmpty() ? "no paired round"
                    : String.format(Locale.ROOT, "%.2f (%d round(s))", Stats.median(mine) / Stats.median(mineDen), mine.size()))
                    + ", " + run.ending());
        }
        Goal goal = spec.goal() == null ? null : goals.get(spec.goal());
        String label = "  " + spec.label() + (goal == null ? "" : " (goal " + goal.ascii() + ")");
        List<String> lines = new ArrayList<>();
        if (ratios.isEmpty()) {
            lines.add(String.format(Locale.ROOT, "%s: no result (no paired round of %s and %s in %d run(s))", label, spec.numerator(),
                    spec.denominator(), runs.size()));
            return new Printed(3, lines);
        }
        String head = String.format(Locale.ROOT, "%s, pooled over %d run(s), %d round(s), none left out: ", label, runs.size(),
                ratios.size());
        double spread = Stats.spreadPercent(ratios);
        int status = 3;
        if (ratios.size() < rules.minRounds()) {
            lines.add(String.format(Locale.ROOT, "%s%.2f -- NOT A RESULT: %d paired round(s), at least %d are needed to measure the spread"
                    + " (per round: %s)", head, Stats.median(ratios), ratios.size(), rules.minRounds(), Figures.ratios(ratios)));
        } else if (spread > rules.maxSpreadPercent()) {
            lines.add(String.format(Locale.ROOT, "%sWITHHELD: the per-round ratios %s disagree by %.0f%% (more than the allowed %s,"
                    + " BENCH_MAX_SPREAD)", head, Figures.ratios(ratios), spread, Figures.percent(rules.maxSpreadPercent())));
        } else {
            double median = Stats.median(ratios);
            String quartiles = String.format(Locale.ROOT, "quartiles %.2f-%.2f, range %.2f-%.2f", Stats.quantile(ratios, 0.25),
                    Stats.quantile(ratios, 0.75), Stats.quantile(ratios, 0), Stats.quantile(ratios, 1));
            lines.add(String.format(Locale.ROOT, "%smedian of the per-round ratios %.2f (%s, spread %.0f%%, allowed %s); %s median %.0f"
                    + " %s/s%s", head, median, quartiles, spread, Figures.percent(rules.maxSpreadPercent()), spec.numerator(),
                    Stats.median(numerators), unitLong, goal == null ? "" : ": " + goal.verdict(median)));
            status = 0;
        }
        lines.addAll(perRun);
        return new Printed(status, lines);
    }

    /** What a summary prints and the status it ends with. */
    record Printed(int status, List<String> lines) {
    }
}
