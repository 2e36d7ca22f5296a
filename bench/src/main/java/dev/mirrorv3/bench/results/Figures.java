package dev.mirrorv3.bench.results;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** How the summaries and the pages write numbers: the same spelling everywhere. */
final class Figures {
    private Figures() {
    }

    /** A bound or a plain figure: whole numbers with thousands separators, others as short as they are exact. */
    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) v);
        }
        return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    }

    /** A ratio, two decimals. */
    static String ratio(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** Ratios separated by spaces. */
    static String ratios(List<Double> values) {
        return values.stream().map(Figures::ratio).collect(Collectors.joining(" "));
    }

    /** A rate, whole, with thousands separators. */
    static String rate(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    /** A percentage, whole. */
    static String percent(double v) {
        return String.format(Locale.ROOT, "%.0f%%", v);
    }
}
