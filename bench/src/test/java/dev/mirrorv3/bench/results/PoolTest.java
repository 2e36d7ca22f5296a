package dev.mirrorv3.bench.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A ratio pooled over the runs of a runs file: every round of every run, judged by the same spread rule as one run's. */
class PoolTest {
    @TempDir
    Path dir;

    @Test
    void everyRoundOfEveryRecordedRunIsPooledAndJudged() throws Exception {
        Path file = dir.resolve("blob-sink.jsonl");
        RunsFile.append(file, Records.run("cmd", "2026-12-10T10:00:00Z", Records.summary(Records.results(
                "blob-1p-100B", 90, 96, "discard-1p-100B", 100, 100)), 3, null));
        RunsFile.append(file, Records.run("cmd", "2026-12-11T10:00:00Z", Records.summary(Records.results(
                "blob-1p-100B", 84, "discard-1p-100B", 100)), 3, null));

        Pool.Printed p = Pool.pool(Specs.Ratio.parse("blob-vs-discard|blob-1p-100B|discard-1p-100B|blob/discard"), List.of(file),
                Records.GOALS, Records.RULES, "records");

        assertThat(p.status()).isZero();
        assertThat(p.lines().get(0)).isEqualTo("  blob/discard (goal >= 0.8), pooled over 2 run(s), 3 round(s), none left out: median of"
                + " the per-round ratios 0.90 (quartiles 0.87-0.93, range 0.84-0.96, spread 13%, allowed 30%); blob-1p-100B median 90"
                + " records/s: met");
        assertThat(p.lines().get(1))
                .isEqualTo("    id-2026-12-10T10:00:00Z 2026-12-10T10:00:00Z commit abc1234 cmd: 0.93 (2 round(s)), exit 3");
    }

    @Test
    void aPoolWhoseRoundsDisagreeIsWithheldWithoutItsMedian() throws Exception {
        Path file = dir.resolve("runs.jsonl");
        RunsFile.append(file, Records.run("cmd", "2026-12-10T10:00:00Z", Records.summary(Records.results(
                "a", 50, 100, 100, "b", 100, 100, 100)), 3, null));

        Pool.Printed p = Pool.pool(Specs.Ratio.parse("-|a|b|a/b"), List.of(file), Records.GOALS, Records.RULES, "records");

        assertThat(p.status()).isEqualTo(3);
        assertThat(p.lines().get(0)).isEqualTo("  a/b, pooled over 1 run(s), 3 round(s), none left out: WITHHELD: the per-round ratios"
                + " 0.50 1.00 1.00 disagree by 50% (more than the allowed 30%, BENCH_MAX_SPREAD)");
    }
}
