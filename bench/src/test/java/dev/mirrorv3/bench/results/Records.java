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

    /** The RESULT lines of runs and their rates per round ({@link ResultLines#of}), parsed. */
    static RoundResults results(Object... runsAndRates) {
        return RoundResults.parse(ResultLines.of(runsAndRates));
    }

    static RunRecord run(String command, String started, Summary s, int exitStatus, String failure) {
        return new RunRecord(RunRecord.SCHEMA, "blob-sink", command, "id-" + started, started, started, "abc1234",
                new RunRecord.Machine(2, 24000, "a CPU", "Linux 6.1", "17.0.1"), List.of(1.5, 1.0, 0.5), List.of(2.5, 1.5, 1.0), 3, 1,
                RULES, Map.of("records", "1000"), s.runs(), List.of(), s.ratios(), s.checks(), List.of("how it is timed"), exitStatus,
                failure);
    }

    /** The summary of blob-1p-100B, discard-1p-100B, blob-8p-100B and discard-8p-100B ({@link #results}) for the goal blob-vs-discard. */
    static Summary blobVsDiscard(Object... runsAndRates) {
        return summary(results(runsAndRates), "blob-vs-discard|blob-1p-100B|discard-1p-100B|blob/discard, 1 partition",
                "blob-vs-discard|blob-8p-100B|discard-8p-100B|blob/discard, 8 partitions");
    }

    static Summary summary(RoundResults results, String... ratioSpecs) {
        return Summary.of(results, List.of(), java.util.Arrays.stream(ratioSpecs).map(Specs.Ratio::parse).toList(), List.of(), GOALS,
                RULES);
    }
}
