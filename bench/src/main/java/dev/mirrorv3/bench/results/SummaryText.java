package dev.mirrorv3.bench.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The summary as a bench prints it: one line per run, one per ratio, one per figure. */
final class SummaryText {
    private SummaryText() {
    }

    /** The runs, a table per unit (records, requests), then the ratios and the other figures. */
    static List<String> lines(Summary s, Summary.Rules rules) {
        List<String> out = new ArrayList<>();
        for (String unit : s.runs().stream().map(RunFigure::unit).distinct().toList()) {
            out.add(String.format(Locale.ROOT, "  %-28s %13s %8s %10s %7s   %s", "run", "median " + unit.substring(0, 3) + "/s", "MB/s",
                    "median s", "spread", unit + "/s of each round"));
            for (RunFigure r : s.runs()) {
                if (r.unit().equals(unit)) {
                    out.add(run(r));
                }
            }
        }
        for (RatioFigure r : s.ratios()) {
            out.add(ratio(r, rules));
        }
        for (CheckFigure c : s.checks()) {
            out.add(check(c));
        }
        return out;
    }

    private static String run(RunFigure r) {
        String rounds = r.rounds().stream().map(v -> String.format(Locale.ROOT, " %.0f", v.rate())).collect(Collectors.joining());
        return String.format(Locale.ROOT, "  %-28s %13.0f %8s %10.2f %7s  %s", r.name(), r.medianRate(),
                r.mbPerSecond() == null ? "-" : String.format(Locale.ROOT, "%.1f", r.mbPerSecond()), r.medianSeconds(),
                r.spreadPercent() == null ? "-" : Figures.percent(r.spreadPercent()), rounds);
    }

    static String ratio(RatioFigure r, Summary.Rules rules) {
        String label = "  " + r.label() + (r.goalText() == null ? "" : " (goal " + r.goalText() + ")");
        String perRound = r.perRound().stream().map(v -> " " + Figures.ratio(v)).collect(Collectors.joining());
        return switch (r.status()) {
            case MISSING -> label + ": no result (a run is missing)";
            case NOT_A_RESULT -> String.format(Locale.ROOT, "%s: %.2f -- NOT A RESULT: %d paired round(s), at least %d are needed to"
                    + " measure the spread (per round:%s)", label, r.ratio(), r.perRound().size(), rules.minRounds(), perRound);
            case WITHHELD -> String.format(Locale.ROOT, "%s: WITHHELD: the per-round ratios%s disagree by %.0f%% (more than the allowed %s,"
                    + " BENCH_MAX_SPREAD); run again on a quieter machine or with more rounds", label, perRound, r.spreadPercent(),
                    Figures.percent(rules.maxSpreadPercent()));
            case RESULT -> String.format(Locale.ROOT, "%s: %.2f (medians; per round:%s, spread %.0f%%, allowed %s)%s", label, r.ratio(),
                    perRound, r.spreadPercent(), Figures.percent(rules.maxSpreadPercent()), r.verdict() == null ? "" : ": " + r.verdict());
        };
    }

    static String check(CheckFigure c) {
        String label = "  " + c.label() + " (goal " + c.goalText() + ")";
        String value = c.value() == null ? "" : " " + Figures.number(round(c.value())) + (c.unit().isEmpty() ? "" : " " + c.unit());
        return c.status() == Status.RESULT ? label + ":" + value + ": " + c.verdict()
                : label + ":" + value + (value.isEmpty() ? "" : ",") + " NOT A RESULT: " + c.reason();
    }

    /** Two decimals at most: a figure is never printed with more precision than it was measured with. */
    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
