package dev.mirrorv3.bench.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.testsupport.GeneratedDocs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the generated pages show of the recorded runs: every figure as its status allows, the newest run, the history. */
class ResultsPagesTest {
    private static final String CMD = "bench/run-blob-sink-bench --rounds 5";

    @TempDir
    Path dir;

    @Test
    void aWithheldRatioIsShownWithheldWithoutItsFigureAndAResultWithItsVerdict() {
        Summary s = Records.blobVsDiscard("blob-1p-100B", 90, 100, 95, "discard-1p-100B", 100, 100, 100,
                "blob-8p-100B", 50, 100, 60, "discard-8p-100B", 100, 100, 100);
        ResultsPages pages = ResultsPages.of(Records.GOALS.all(), Map.of("blob-sink.jsonl", List.of(Records.run(CMD,
                "2026-12-10T10:00:00Z", s, 3, null))), "../bench/results/");

        String table = pages.goalsTable(Optional.empty());

        assertThat(table).contains("| blob sink | a discard sink | ≥ 0.8× | blob/discard, 1 partition: **0.95** (rounds 0.90–1.00,"
                        + " spread 11%), goal met<br>blob/discard, 8 partitions: withheld (rounds 0.50–1.00, spread 83%): the rounds"
                        + " disagree by more than the spread rule allows<br>(2026-12-10T10:00:00Z, commit `abc1234`,"
                        + " [blob-sink.jsonl](../bench/results/blob-sink.jsonl)) |")
                .doesNotContain("**0.60**")
                .contains("| heap after GC above buffer.max.bytes | buffer.max.bytes | ≤ 200 MiB | not measured: no run of"
                        + " `bench/run-blob-sink-bench --scaling` is recorded |")
                .contains("| tee | two connectors | ≥ 1.2× | no bench measures this yet |");
        assertThat(pages.goalsTable(Optional.of("restore-cli"))).contains("restore time").doesNotContain("blob sink");
    }

    @Test
    void eachCommandShowsItsNewestRunAndLinksEveryRunRecorded() {
        Summary older = Records.summary(Records.results("blob-1p-100B", 100, 100, 100, "discard-1p-100B", 100, 100, 100),
                "blob-vs-discard|blob-1p-100B|discard-1p-100B|blob/discard");
        Summary newer = Records.summary(Records.results("blob-1p-100B", 70), "blob-vs-discard|blob-1p-100B|discard-1p-100B|blob/discard");
        ResultsPages pages = ResultsPages.of(Records.GOALS.all(), Map.of("blob-sink.jsonl", List.of(
                Records.run(CMD, "2026-12-10T10:00:00Z", older, 0, null),
                Records.run(CMD, "2026-12-11T10:00:00Z", newer, 1, "stopped with exit status 1 before its summary"))), "../bench/results/");

        String sections = pages.commandSections();

        assertThat(sections).contains("### `bench/run-blob-sink-bench --rounds 5`\n\nNewest of 2 run(s) recorded in"
                        + " [blob-sink.jsonl](../bench/results/blob-sink.jsonl): 2026-12-11T10:00:00Z, commit `abc1234`;")
                .contains("exit status 1 (stopped with exit status 1 before its summary).")
                .contains("| blob/discard | missing: a run did not run or failed | >= 0.8 |")
                .doesNotContain("2026-12-10T10:00:00Z")
                .contains("### `bench/run-blob-sink-bench --scaling`\n\nNot measured: no run of this command is recorded in"
                        + " bench/results/.")
                .contains("### `bench/run-restore-bench --rounds 5`\n\nNot measured");
        assertThat(pages.goalsTable(Optional.empty())).contains("blob/discard: missing: a run did not run or"
                + " failed<br>(2026-12-11T10:00:00Z");
    }

    @Test
    void aVerdictJudgedAgainstAnEarlierGoalSaysSo() {
        Summary s = ninetyPercent();
        Goals now = Goals.parse(List.of("blob-vs-discard | blob sink | a discard sink | >= 0.95 | " + CMD + " | blob-sink"), "goals");

        String table = ResultsPages.of(now.all(), Map.of("blob-sink.jsonl", List.of(Records.run(CMD, "2026-12-10T10:00:00Z", s, 0, null))),
                "../bench/results/").goalsTable(Optional.empty());

        assertThat(table).contains("**0.90** (rounds 0.90–0.90, spread 0%), goal met (judged against the goal of its run, >= 0.8; the"
                + " goal is now >= 0.95)");
    }

    @Test
    void aPageWhoseFigureIsNotItsRunsFilesFailsTheCheckNamingTheCommandThatRegeneratesIt() throws Exception {
        RunRecord run = Records.run(CMD, "2026-12-10T10:00:00Z", ninetyPercent(), 0, null);
        String generated = ResultsPages.of(Records.GOALS.all(), Map.of("blob-sink.jsonl", List.of(run)), "../bench/results/")
                .goalsTable(Optional.empty());
        Path page = Files.writeString(dir.resolve("performance.md"), "# Performance\n<!-- start -->\n"
                + generated.replace("**0.90**", "**0.95**") + "<!-- end -->\n");

        assertThatThrownBy(() -> GeneratedDocs.checkSection(page, "<!-- start -->", "<!-- end -->", generated, "goals table",
                PerformancePagesTest.REGENERATE))
                .hasMessageContaining("performance.md: the goals table is not the generated one; regenerate it with mvn -B -ntp -pl bench"
                        + " -am test -Dtest=PerformancePagesTest");
    }

    @Test
    void theRunsFilesAreReadFromTheirDirectoryAndARunIsKeptAsRecorded() throws Exception {
        RunRecord run = Records.run(CMD, "2026-12-10T10:00:00Z", ninetyPercent(), 0, null);
        RunsFile.append(dir.resolve("results/blob-sink.jsonl"), run);
        RunsFile.append(dir.resolve("results/blob-sink.jsonl"), run);
        Path goals = Files.write(dir.resolve("goals.txt"), List.of(
                "blob-vs-discard | blob sink | a discard sink | >= 0.8 | " + CMD + " | blob-sink"));

        assertThat(RunsFile.read(dir.resolve("results/blob-sink.jsonl"))).containsExactly(run, run);
        assertThat(ResultsPages.load(goals, dir.resolve("results"), "../bench/results/").commandSections())
                .contains("Newest of 2 run(s) recorded in [blob-sink.jsonl](../bench/results/blob-sink.jsonl)");
        assertThat(ResultsPages.load(goals, dir.resolve("nothing"), "x/").commandSections()).contains("Not measured");
    }

    @Test
    void thePeerTableShowsEachFigureFromItsCommandsNewestRunPerWorkerAndPerPartition() {
        PeerTable table = PeerTable.parse(List.of("# a comment", "blob sink | " + CMD + " | steady-blob-{p}p-1024B | 1 8 | A: 1 GB/s",
                "discard sink | " + CMD + " | discard-{p}p-1024B | 8 | -"), "peers");
        Summary older = Records.summary(Records.results("steady-blob-1p-1024B", 100, 100, 100, "steady-blob-8p-1024B", 400, 400, 400));
        Summary newer = Records.summary(Records.results("steady-blob-1p-1024B", 200, 220, 180));
        Summary otherCommand = Records.summary(Records.results("steady-blob-1p-1024B", 900, 900, 900));
        ResultsPages pages = ResultsPages.of(Records.GOALS.all(), Map.of("blob-sink.jsonl", List.of(
                Records.run(CMD, "2026-12-10T10:00:00Z", older, 0, null), Records.run(CMD, "2026-12-11T10:00:00Z", newer, 0, null),
                Records.run(CMD + " --s3", "2026-12-12T10:00:00Z", otherCommand, 0, null))), "../bench/results/");

        String rendered = pages.peerTable(table);

        assertThat(rendered).contains("| blob sink | 1 | 200 | 0.2 | 0.2 | median of 3 round(s), spread 20%;"
                        + " 2026-12-11T10:00:00Z, commit `abc1234`, [blob-sink.jsonl](../bench/results/blob-sink.jsonl), `" + CMD
                        + "` | A: 1 GB/s |")
                .contains("| blob sink | 8 | 400 | 0.4 | 0.1 | median of 3 round(s), spread 0%; 2026-12-10T10:00:00Z")
                .contains("| (as above) |")
                .contains("| discard sink | 8 | not measured | — | — | no run of `" + CMD + "` recorded with discard-8p-1024B | — |")
                .doesNotContain("900");
        assertThatThrownBy(() -> PeerTable.parse(List.of("x | y | run-1p | 1 | -"), "peers.txt"))
                .hasMessage("peers.txt line 1: the run name 'run-1p' has no {p} for the partitions");
        assertThatThrownBy(() -> PeerTable.parse(List.of("x | y | run-{p}p | one | -"), "peers.txt"))
                .hasMessage("peers.txt line 1: the partitions 'one' are not whole numbers separated by spaces");
    }

    /** Three rounds of the blob sink at 0.90 of the discard sink. */
    private static Summary ninetyPercent() {
        return Records.summary(Records.results("blob-1p-100B", 90, 90, 90, "discard-1p-100B", 100, 100, 100),
                "blob-vs-discard|blob-1p-100B|discard-1p-100B|blob/discard");
    }
}
