package dev.mirrorv3.bench.results;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The statistics every summary uses: the median, the spread ((max - min) / median) and quantiles. */
public final class Stats {
    private Stats() {
    }

    public static double median(List<Double> values) {
        return quantile(values, 0.5);
    }

    /** (max - min) / median in percent; 0 when the median is not positive. */
    public static double spreadPercent(List<Double> values) {
        double m = median(values);
        return m > 0 ? 100 * (Collections.max(values) - Collections.min(values)) / m : 0;
    }

    /** The q-quantile by linear interpolation between the closest ranks (the median for q = 0.5). */
    public static double quantile(List<Double> values, double q) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        double h = (sorted.size() - 1) * q;
        int lo = (int) Math.floor(h);
        return lo + 1 >= sorted.size() ? sorted.get(sorted.size() - 1) : sorted.get(lo) + (h - lo) * (sorted.get(lo + 1) - sorted.get(lo));
    }
}
