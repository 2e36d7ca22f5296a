package dev.mirrorv3.bench.results;

import java.util.List;
import java.util.Map;

/** Runs as a bench records them, for the tests of the summaries and the pages. */
final class Records {
    static final Summary.Rules RULES = new Summary.Rules(30, 3);
    static final Goals GOALS = Goals.parse(List.of(
            "blob-vs-discard | blob sink | a discard sink | >= 0.8 | bench/run-blob-sink-bench --rounds 5 | blob-sink",
            "heap-after-gc | heap after GC above buffer.max.bytes | buffer.max.bytes | <= 200 MiB | bench/run-blob-sink-bench"
                    + " --scaling | blob-sink",
            "restore-vs-producer | restore time | ProducerPerformance | <= 1.25 | bench/run-restore-bench --rounds 5 | restore-cli",
            "tee-vs-two | tee | two connectors | >= 1.2 | - | -"), "goals");

    private Records() {
    }

    /** The RESULT lines of runs and their rates per round: "blob-1p-100B", 100, 110, "discard-1p-100B", 120, 125, ... */
    static RoundResults results(Object... runsAndRates) {
        List<String> lines = new java.util.ArrayList<>();
        String run = null;
        int round = 0;
        for (Object o : runsAndRates) {
            if (o instanceof String s) {
                run = s;
                round = 0;
            } else {
                double rate = ((Number) o).doubleValue();
                lines.add("RESULT " + run + "-r" + ++round + " 1000 " + 1000 / rate + " " + rate);
            }
        }
        return RoundResults.parse(lines);
    }

    static RunRecord run(String command, String started, Summary s, int exitStatus, String failure) {
        return new RunRecord(RunRecord.SCHEMA, "blob-sink", command, "id-" + started, started, started, "abc1234",
                new RunRecord.Machine(2, 24000, "a CPU", "Linux 6.1", "17.0.1"), List.of(1.5, 1.0, 0.5), List.of(2.5, 1.5, 1.0), 3, 1,
                RULES, Map.of("records", "1000"), s.runs(), List.of(), s.ratios(), s.checks(), List.of("how it is timed"), exitStatus,
                failure);
    }

    static Summary summary(RoundResults results, String... ratioSpecs) {
        return Summary.of(results, List.of(), java.util.Arrays.stream(ratioSpecs).map(Specs.Ratio::parse).toList(), List.of(), GOALS,
                RULES);
    }
}
