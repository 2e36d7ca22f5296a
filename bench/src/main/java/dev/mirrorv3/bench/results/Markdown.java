package dev.mirrorv3.bench.results;

import java.util.Collections;
import java.util.Locale;

/** How the generated pages write a figure, a verdict and a run. */
final class Markdown {
    private Markdown() {
    }

    /** Text for a table cell: a pipe would end the cell. */
    static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** A ratio as its status allows: the figure and verdict of a result, never the figure of a withheld one. */
    static String ratio(RatioFigure r) {
        return switch (r.status()) {
            case RESULT -> "**" + Figures.ratio(r.ratio()) + "**" + rounds(r) + (r.verdict() == null ? "" : ", goal " + r.verdict());
            case WITHHELD -> "withheld" + rounds(r) + ": the rounds disagree by more than the spread rule allows";
            case NOT_A_RESULT -> "not a result: " + r.perRound().size() + " paired round(s)" + rounds(r);
            case MISSING -> "missing: a run did not run or failed";
        };
    }

    private static String rounds(RatioFigure r) {
        if (r.perRound().isEmpty()) {
            return "";
        }
        String range = r.perRound().size() == 1 ? Figures.ratio(r.perRound().get(0))
                : Figures.ratio(Collections.min(r.perRound())) + "–" + Figures.ratio(Collections.max(r.perRound()));
        return " (rounds " + range + (r.spreadPercent() == null ? "" : ", spread " + Figures.percent(r.spreadPercent())) + ")";
    }

    /** A figure with its label, value and verdict, or why it is not a result. */
    static String check(CheckFigure c) {
        String value = c.value() == null ? ""
                : " **" + Figures.number(Math.round(c.value() * 100) / 100.0) + (c.unit().isEmpty() ? "" : " " + c.unit()) + "**";
        return cell(c.label()) + ":" + value
                + (c.status() == Status.RESULT ? ", goal " + c.verdict() : " — not a result: " + cell(c.reason()));
    }

    /** Where and when a run was made, linking its runs file. */
    static String runLink(RunRecord r, String file, String linkPrefix) {
        return String.format(Locale.ROOT, "%s, commit `%s`, [%s](%s%s)", r.started(), r.commit(), file, linkPrefix, file);
    }
}
