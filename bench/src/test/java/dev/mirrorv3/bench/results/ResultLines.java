package dev.mirrorv3.bench.results;

import java.util.ArrayList;
import java.util.List;

/** The RESULT lines a bench prints, made up from runs and their rates per round, for the tests of its summaries. */
public final class ResultLines {
    private ResultLines() {
    }

    /**
     * A line per round, 1,000 records each, taking as long as its rate says: {@code "blob-1p-100B", 100, 110,
     * "discard-1p-100B", 120, 125, ...} (a run's name, then the records/s of its rounds).
     */
    public static List<String> of(Object... runsAndRates) {
        List<String> lines = new ArrayList<>();
        String run = null;
        int round = 0;
        for (Object o : runsAndRates) {
            if (o instanceof String s) {
                run = s;
                round = 0;
            } else {
                Number rate = (Number) o;
                lines.add("RESULT " + run + "-r" + ++round + " 1000 " + 1000 / rate.doubleValue() + " " + rate);
            }
        }
        return lines;
    }
}
