package dev.mirrorv3.bench.results;

import java.util.Locale;

/**
 * One row of bench/goals.txt: what is measured against what, and the bound it must meet.
 *
 * @param id      the name the benches give with each figure
 * @param what    what is measured
 * @param against its baseline ("-" for an absolute figure)
 * @param op      {@code >=}, {@code <=} or {@code =}
 * @param target  the bound
 * @param unit    the unit of an absolute figure (MiB, req/s, ms, ...); empty for a ratio
 * @param command the documented command that measures it ("-": none yet)
 * @param page    the component page that lists it ("-": none)
 */
public record Goal(String id, String what, String against, String op, double target, String unit, String command, String page) {

    /** Whether {@code value} meets the bound. */
    public boolean met(double value) {
        return switch (op) {
            case ">=" -> value >= target;
            case "<=" -> value <= target;
            default -> value == target;
        };
    }

    /** The goal as the summaries and the pages write it, e.g. "≥ 0.8×", "≤ 200 MiB". */
    public String text() {
        String sign = switch (op) {
            case ">=" -> "≥";
            case "<=" -> "≤";
            default -> "=";
        };
        return sign + " " + Figures.number(target) + (unit.isEmpty() ? "×" : " " + unit);
    }

    /** The goal in ASCII, for the benches' terminal output, e.g. ">= 0.8", "<= 200 MiB". */
    public String ascii() {
        return op + " " + Figures.number(target) + (unit.isEmpty() ? "" : " " + unit);
    }

    /** Whether a bench measures it. */
    public boolean measured() {
        return !command.equals("-");
    }

    String verdict(double value) {
        return met(value) ? "met" : "not met";
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s (%s)", id, ascii());
    }
}
