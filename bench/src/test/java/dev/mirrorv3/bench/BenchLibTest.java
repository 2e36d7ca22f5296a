package dev.mirrorv3.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.bench.results.ResultLines;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench/lib.sh, run by bash as the bench scripts source it: the summary's medians, spread and ratios (paired per round,
 * withheld when they disagree), the parsing of tools' figures, and the order of the runs over the rounds.
 */
class BenchLibTest {
    private static final Path LIB = Path.of("lib.sh").toAbsolutePath(); // surefire runs in the bench module's directory

    @TempDir
    Path dir;

    @Test
    void aRatioWhoseRoundsDisagreeMoreThanTheStatedSpreadIsWithheld() throws Exception {
        // per round 1.00, 1.50, 2.00: a spread of 67 % of the median; the median ratio (1.50) must not be printed
        Result r = summary(results("base", 100, 100, 100, "product", 100, 150, 200), "base product", "-|product|base|ratio product/base");

        assertThat(r.status).isEqualTo(3);
        assertThat(r.out).contains("ratio product/base: WITHHELD: the per-round ratios 1.00 1.50 2.00 disagree by 67%")
                .doesNotContain("ratio product/base: 1.50");
    }

    @Test
    void aRatioIsPairedPerRoundSoThatAMachineGettingSlowerForBothDoesNotHideIt() throws Exception {
        // both runs halve their rate in round 2 (the machine got busy); per round the ratio stays 1.10, 1.05, 1.07
        Result r = summary(results("base", 200, 100, 150, "product", 220, 105, 160), "base product", "-|product|base|ratio product/base");

        assertThat(r.status).isZero();
        assertThat(r.out).containsPattern("base +150 +- +6\\.67 +67% +200 100 150")
                .contains("ratio product/base: 1.07 (medians; per round: 1.10 1.05 1.07, spread 5%, allowed 30%)");
    }

    @Test
    void theSummaryNamesWhatItCounts() throws Exception {
        Result records = summary(results("base", 100, 100, 100), "base", "");
        Result requests = summary(results("base", 100, 100, 100), "base", "", "BENCH_UNIT=req BENCH_UNIT_LONG=requests");

        assertThat(records.out).containsPattern("median rec/s +MB/s +median s +spread +records/s of each round");
        assertThat(requests.out).containsPattern("median req/s +MB/s +median s +spread +requests/s of each round")
                .doesNotContain("rec/s");
    }

    @Test
    void theMedianOfAFieldIsTakenOverTheRoundsOfOneRun() throws Exception {
        Path results = Files.write(dir.resolve("results.txt"), List.of(
                "RESULT get-sidecar-r1 100 1.0 100 90 2600",
                "RESULT get-sidecar-r2 100 1.0 100 120 1800",
                "RESULT get-sidecar-r3 100 1.0 100 80 2300",
                "RESULT get-sidecar-b-r1 100 1.0 100 10 10"));

        assertThat(bash("bench_median '" + results + "' get-sidecar 7").out).isEqualTo("2300.00\n");
        assertThat(bash("bench_median '" + results + "' get-sidecar 6").out).isEqualTo("90.00\n");
        assertThat(bash("bench_median '" + results + "' no-such-run 5").out).isEmpty();
    }

    @Test
    void theAllowedSpreadIsStatedAndCanBeChanged() throws Exception {
        Result r = summary(results("base", 100, 100, 100, "product", 100, 110, 120), "base product", "-|product|base|ratio",
                "BENCH_MAX_SPREAD=10");

        assertThat(r.status).isEqualTo(3);
        assertThat(r.out).contains("disagree by 18% (more than the allowed 10%, BENCH_MAX_SPREAD)");
    }

    @Test
    void fewerThanThreeRoundsAreFlaggedAsNotAResult() throws Exception {
        Result r = summary(results("base", 100, "product", 150), "base product", "-|product|base|ratio");

        assertThat(r.status).isEqualTo(3);
        assertThat(r.out).contains("ratio: 1.50 -- NOT A RESULT: 1 paired round(s), at least 3 are needed");
    }

    @Test
    void aFigureThatCannotBeParsedStopsTheBenchmarkInsteadOfPrintingNan() throws Exception {
        assertThat(bash("bench_number 'the rate' nan; echo reached")).satisfies(r -> {
            assertThat(r.status).isEqualTo(1);
            assertThat(r.out).contains("could not parse the rate (got \"nan\")").doesNotContain("reached");
        });
        assertThat(bash("x=$(bench_number 'the rate' '') || exit 7; echo \"$x\"").status).isEqualTo(7);
        assertThat(bash("bench_number 'p99' 1.96ms 'us|ms|s'").out).isEqualTo("1.96ms\n");
        assertThat(bash("bench_number 'p99' 1.96 'us|ms|s'").status).isEqualTo(1);
    }

    @Test
    void aToolsFigureIsFoundByItsColumnName() throws Exception {
        String header = "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms,"
                + " fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec";
        String line = "2026-11-30 23:00:00:000, 2026-11-30 23:00:05:000, 95.3674, 19.0735, 1000000, 200000.0000, 3000, 2000,"
                + " 47.6837, 500000.0000";

        assertThat(bash("bench_column '" + header + "' '" + line + "' fetch.nMsg.sec").out).isEqualTo("500000.0000\n");
        assertThat(bash("bench_column '" + header + "' '" + line + "' no.such.column").out).isEqualTo("\n");
    }

    @Test
    void everyRunTakesEveryPositionOverAsManyRoundsAsRuns() throws Exception {
        assertThat(bash("for r in 1 2 3 4; do bench_order $r file blob s3; done").out)
                .isEqualTo("file blob s3 \nblob s3 file \ns3 file blob \nfile blob s3 \n");
    }

    @Test
    void theScalingCsvHoldsTheMediansTheirRatioTheBytesAndTheBlobRunsPeakHeap() throws Exception {
        Path results = Files.write(dir.resolve("results.txt"), List.of(
                "RESULT blob-8p-1024B-r1 100000 1.000 100000 300",
                "RESULT file-8p-1024B-r1 100000 2.000 50000 250",
                "RESULT blob-8p-1024B-r2 100000 0.500 200000 420",
                "RESULT file-8p-1024B-r2 100000 1.000 100000 260",
                "RESULT blob-8p-1024B-r3 100000 0.800 125000 310",
                "RESULT file-8p-1024B-r3 100000 1.250 80000 240",
                "RESULT blob-1p-100B-r1 1000000 2.000 500000 200"));

        Result r = bash("bench_scaling_csv '" + results + "' 268435456 1 8 -- 100 1024");

        assertThat(r.status).isZero();
        // medians 125,000 and 80,000 records/s (ratio 1.56), 128.0 and 81.9 MB/s of 1 KiB values; heap: the highest;
        // 1 partition x 100 B has no FileStreamSink run and is left out
        assertThat(r.out).isEqualTo("partitions,value_bytes,records,blob_records_per_s,file_records_per_s,ratio,blob_mb_per_s,"
                + "file_mb_per_s,blob_heap_after_gc_mib,buffer_max_bytes\n8,1024,100000,125000,80000,1.56,128.0,81.9,420,268435456\n");
        Path csv = Files.writeString(dir.resolve("scaling.csv"), r.out);
        assertThat(bash("bench_markdown_table '" + csv + "'").out).endsWith(
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n| 8 | 1 KiB | 100000 | 125000 | 80000 | 1.56 | 128.0 | 81.9 | 420 |\n");
    }

    @Test
    void theHeapGoalIsTheBlobRunsHeapAfterGcAboveBufferMaxBytesWithFileStreamSinkAsTheControl() throws Exception {
        // buffer.max.bytes 256 MiB; the blob runs on 100 partitions: 300 and 420 MiB after GC, every collection seen
        Path results = Files.write(dir.resolve("results.txt"), List.of(
                "RESULT blob-100p-100B-r1 1000 1.0 1000 300 700 12 12",
                "RESULT blob-100p-1024B-r1 1000 1.0 1000 420 800 9 9",
                "RESULT file-100p-100B-r1 1000 1.0 1000 120 500 10 10",
                "RESULT blob-8p-100B-r1 1000 1.0 1000 900 950 3 3"));

        Result r = bash("bench_heap_check '" + results + "' 100 268435456 912");

        assertThat(r.out).isEqualTo("heap-after-gc|164|heap after GC, blob sink with 100 busy partitions, less buffer.max.bytes (256 MiB);"
                + " worker -Xmx 912 MiB; FileStreamSink on the same worker (the control): 120 MiB after GC; the blob runs: 420 MiB after"
                + " GC|\n");
    }

    @Test
    void theLiveHeapAfterTheForcedFullCollectionsIsTheFigureWhenTheRunsMeasuredIt() throws Exception {
        // fields 10-15: CPU; 16: the live heap (-1: not measured). The young collections' 420 MiB is reported beside it.
        Path results = Files.write(dir.resolve("results.txt"), List.of(
                "RESULT blob-100p-100B-r1 1000 1.0 1000 300 700 12 12 1 1 1 1 1 1 250",
                "RESULT blob-100p-1024B-r1 1000 1.0 1000 420 800 9 9 1 1 1 1 1 1 380",
                "RESULT file-100p-100B-r1 1000 1.0 1000 120 500 10 10 1 1 1 1 1 1 30"));

        Result r = bash("bench_heap_check '" + results + "' 100 268435456 912");

        assertThat(r.out).isEqualTo("heap-after-gc|124|heap after GC, blob sink with 100 busy partitions, less buffer.max.bytes (256 MiB);"
                + " worker -Xmx 912 MiB; FileStreamSink on the same worker (the control): 30 MiB live heap (after a full collection,"
                + " forced every 2 s); the blob runs: 380 MiB live heap (after a full collection, forced every 2 s) (420 MiB after any"
                + " collection, old-generation garbage included)|\n");
    }

    @Test
    void aHeapThatCannotExceedTheGoalOrARunWithoutEveryCollectionSeenIsNotAResult() throws Exception {
        Path results = Files.write(dir.resolve("results.txt"), List.of("RESULT blob-100p-100B-r1 1000 1.0 1000 300 700 12 12"));
        Path missed = Files.write(dir.resolve("missed.txt"), List.of("RESULT blob-100p-100B-r1 1000 1.0 1000 300 700 10 12"));
        Path none = Files.write(dir.resolve("none.txt"), List.of("RESULT blob-100p-100B-r1 1000 1.0 1000 300 700 0 0"));

        // -Xmx = the goal: the heap can never pass it, whatever the connector holds
        assertThat(bash("bench_heap_check '" + results + "' 100 268435456 456").out)
                .endsWith("|the heap is under twice buffer.max.bytes + 200 MiB, so it could not exceed the goal; set BENCH_CONNECT_HEAP"
                        + " to at least 912m\n");
        assertThat(bash("bench_heap_check '" + missed + "' 100 268435456 912").out)
                .endsWith("|the sampler missed collections during blob-100p-100B-r1\n");
        assertThat(bash("bench_heap_check '" + none + "' 100 268435456 912").out)
                .endsWith("|no collection during blob-100p-100B-r1: the heap after GC was not measured\n");
        assertThat(bash("bench_heap_check '" + results + "' 32 268435456 912").out).startsWith("heap-after-gc|-|")
                .endsWith("|no blob run on 32 partitions\n");
    }

    @Test
    void aHeapSizeIsReadInMebibytes() throws Exception {
        assertThat(bash("bench_mib 1g; bench_mib 912m; bench_mib 2048K").out).isEqualTo("1024\n912\n2\n");
        assertThat(bash("bench_mib 1.5g").out).contains("1.5g is not a heap size");
    }

    @Test
    void thePoolTakesEveryRoundOfEveryRecordedRunNoneLeftOut() throws Exception {
        // run 1 alone would read 1.00; run 2 (0.80, 0.70, 0.90) is pooled with it, not left out (a spread of 32 %)
        Path a = Files.write(dir.resolve("runs-a.txt"), List.of(
                "RUN 1 2026-12-03T10:00:00Z BENCH_ROUNDS=3",
                "RESULT consumer-perf-r1 1000 1.0 1000", "RESULT sidecar-r1 1000 1.0 1000",
                "RESULT consumer-perf-r2 1000 1.0 1000", "RESULT sidecar-r2 1000 1.0 1000",
                "RESULT consumer-perf-r3 1000 1.0 1000", "RESULT sidecar-r3 1000 1.0 1000",
                "RESULT heap after a full GC: 1.29x",
                "END 1 exit 0",
                "RUN 2 2026-12-03T11:00:00Z BENCH_ROUNDS=3",
                "RESULT consumer-perf-r1 1000 1.0 1000", "RESULT sidecar-r1 1000 1.0 800",
                "RESULT consumer-perf-r2 1000 1.0 1000", "RESULT sidecar-r2 1000 1.0 700",
                "RESULT consumer-perf-r3 1000 1.0 1000", "RESULT sidecar-r3 1000 1.0 900",
                "END 2 exit 3"));
        Path b = Files.write(dir.resolve("runs-b.txt"), List.of(
                "RUN 1 2026-12-04T10:00:00Z BENCH_ROUNDS=1",
                "RESULT consumer-perf-r1 1000 1.0 1000", "RESULT sidecar-r1 1000 1.0 950"));

        Result r = bash("BENCH_MAX_SPREAD=40 bench_pool 'sidecar-bootstrap|sidecar|consumer-perf|bootstrap sidecar / consumer perf tool' '"
                + a + "' '" + b + "'");

        assertThat(r.out).contains("bootstrap sidecar / consumer perf tool (goal >= 0.9), pooled over 3 run(s), 7 round(s), none left out:"
                + " median of the per-round ratios 0.95 (quartiles 0.85-1.00, range 0.70-1.00, spread 32%, allowed 40%); sidecar median 950"
                + " records/s: met")
                .contains("RUN 1 2026-12-03T10:00:00Z BENCH_ROUNDS=3: 1.00 (3 round(s)), exit 0")
                .contains("RUN 2 2026-12-03T11:00:00Z BENCH_ROUNDS=3: 0.80 (3 round(s)), exit 3")
                .contains("RUN 1 2026-12-04T10:00:00Z BENCH_ROUNDS=1: 0.95 (1 round(s)), no END line (killed?)");
        assertThat(r.status).isZero();
        assertThat(bash("bench_pool '-|sidecar|nothing|x' '" + a + "'").status).isEqualTo(3);
    }

    @Test
    void aPooledRatioWhoseRoundsDisagreeMoreThanTheStatedSpreadIsWithheld() throws Exception {
        // the two runs of bench/cache-sidecar/run of the published pooled 0.90: per round 0.75 to 1.12, a spread of 42 %
        Path runs = Path.of("results/cache-sidecar-runs.txt").toAbsolutePath();

        Result r = bash("bench_pool 'sidecar-bootstrap|sidecar|consumer-perf|ratio sidecar / consumer perf tool' '" + runs + "'");

        assertThat(r.out).contains("ratio sidecar / consumer perf tool (goal >= 0.9), pooled over 2 run(s), 6 round(s), none left out:"
                + " WITHHELD: the per-round ratios 0.88 0.79 0.92 0.75 1.12 1.05 disagree by 42%")
                .doesNotContain("median of the per-round ratios 0.90");
        assertThat(r.status).isEqualTo(3);
    }

    @Test
    void theCacheSidecarBenchPoolsRecordedRunsWithoutRunningAnything() throws Exception {
        Path runs = Files.write(dir.resolve("cache-sidecar-runs.txt"), List.of(
                "RUN 1 2026-12-03T10:00:00Z BENCH_ROUNDS=1",
                "RESULT consumer-perf-wall-r1 1000 1.0 1000", "RESULT sidecar-wall-r1 1000 1.0 800",
                "RESULT get-sidecar-r1 1000 1.0 50000 90 2000", "RESULT get-bare-r1 1000 1.0 40000 80 1500",
                "END 1 exit 3"));

        Result r = bash("bash cache-sidecar/run --pool '" + runs + "'");

        assertThat(r.out).contains("ratio sidecar bootstrap / consumer perf tool, process start to ready / to exit (goal >= 0.9),"
                        + " pooled over 1 run(s), 1 round(s), none left out: 0.80 -- NOT A RESULT: 1 paired round(s), at least 3 are"
                        + " needed")
                .contains("ratio GET raw sidecar / bare Undertow server, pooled over 1 run(s), 1 round(s), none left out: 1.25 -- NOT A"
                        + " RESULT")
                .doesNotContain("building");
        assertThat(r.status).isEqualTo(3);
    }

    @Test
    void theCommandOfARunHoldsTheSettingsThatChangeWhatItMeasures() throws Exception {
        Result r = bash("export BENCH_KEYS=1000 BENCH_BROKER_PORT=1 BENCH_RESULTS_DIR=/x JAVA_OPTS='-Xmx1g -Xms1g'; "
                + "bench_command \"$BENCH_REPO/bench/run-restore-bench\" --rounds 5 --sizes '100 1024'");

        assertThat(r.out).isEqualTo("BENCH_KEYS=1000 JAVA_OPTS=-Xmx1g\\ -Xms1g bench/run-restore-bench --rounds 5 --sizes 100\\ 1024\n");
    }

    @Test
    void aRunThatStopsBeforeItsSummaryIsRecordedWithWhatItMeasured() throws Exception {
        Path results = Files.write(dir.resolve("results.txt"), List.of("WARMUP blob-1p-100B-w1 1000 2.0 500",
                "RESULT blob-1p-100B-r1 1000 1.0 1000"));

        // as the benches call it: first in the EXIT trap, where a bare 'return' would return the status the script exits with
        Result r = bash("BENCH_RESULTS_DIR='" + dir + "'; bench_start blob-sink \"$BENCH_REPO/bench/run-blob-sink-bench\" --rounds 3;"
                + " BENCH_RESULTS_FILE='" + results + "'; BENCH_ROUNDS_ASKED=3; trap 'bench_on_exit $?; bench_on_exit 130' EXIT; exit 130");

        assertThat(r.out).contains("recorded in " + dir.resolve("blob-sink.jsonl"));
        List<String> runs = Files.readAllLines(dir.resolve("blob-sink.jsonl"));
        assertThat(runs).hasSize(1);
        assertThat(runs.get(0)).contains("\"bench\":\"blob-sink\"", "\"command\":\"bench/run-blob-sink-bench --rounds 3\"",
                "\"exitStatus\":130", "\"failure\":\"stopped with exit status 130 before its summary", "\"name\":\"blob-1p-100B\"",
                "\"rounds\":3", "\"warmup\":[{\"name\":\"blob-1p-100B\"");
    }

    @Test
    void theLoadAverageLineSaysWhen() throws Exception {
        assertThat(bash("bench_load start").out)
                .matches("load average at start: [0-9.]+ [0-9.]+ [0-9.]+ \\(1, 5, 15 min; [0-9]+ cores\\)\n");
    }

    private Path results(Object... runsAndRates) throws IOException {
        return Files.write(dir.resolve("results.txt"), ResultLines.of(runsAndRates));
    }

    private Result summary(Path results, String order, String ratio, String... env) throws Exception {
        return bash(String.join(" ", env) + (env.length > 0 ? " " : "") + "bench_summary '" + results + "' '" + order
                + "' '" + ratio + "'");
    }

    private Result bash(String script) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "set -euo pipefail; source '" + LIB + "'; " + script)
                .redirectErrorStream(true);
        // the Java side of bench/lib.sh (dev.mirrorv3.bench.results) from this test's classpath, not a build of its own
        pb.environment().put("BENCH_CP", System.getProperty("java.class.path"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("bash finished").isTrue();
        return new Result(p.exitValue(), out);
    }

    private record Result(int status, String out) {
    }
}
