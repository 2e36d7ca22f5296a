package dev.mirrorv3.bench.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A bench's figures: ratios paired per round, the spread rule, the goals' verdicts and the other figures. */
class SummaryTest {

    @Test
    void aResultIsJudgedAgainstItsGoalAndAWithheldOneIsNot() {
        Summary s = Records.blobVsDiscard("blob-1p-100B", 100, 110, 90, "discard-1p-100B", 150, 150, 150,
                "blob-8p-100B", 100, 200, 100, "discard-8p-100B", 100, 100, 100);

        RatioFigure one = s.ratios().get(0);
        assertThat(one.status()).isEqualTo(Status.RESULT);
        assertThat(one.ratio()).isEqualTo(100.0 / 150);
        assertThat(one.verdict()).isEqualTo("not met");
        assertThat(one.goalText()).isEqualTo(">= 0.8");
        RatioFigure eight = s.ratios().get(1);
        assertThat(eight.status()).isEqualTo(Status.WITHHELD);
        assertThat(eight.verdict()).isNull();
        assertThat(s.status()).isEqualTo(3);
        assertThat(SummaryText.ratio(eight, Records.RULES)).isEqualTo("  blob/discard, 8 partitions (goal >= 0.8): WITHHELD: the per-round"
                + " ratios 1.00 2.00 1.00 disagree by 100% (more than the allowed 30%, BENCH_MAX_SPREAD); run again on a quieter machine or"
                + " with more rounds");
    }

    @Test
    void aRatioOfFewerRoundsThanASpreadNeedsIsNotAResultAndAMissingRunIsSaid() {
        Summary s = Records.summary(Records.results("blob-1p-100B", 100, 110, "discard-1p-100B", 100, 100),
                "blob-vs-discard|blob-1p-100B|discard-1p-100B|two rounds", "-|blob-1p-100B|file-1p-100B|no FileStreamSink run");

        assertThat(s.ratios().get(0).status()).isEqualTo(Status.NOT_A_RESULT);
        assertThat(s.ratios().get(0).verdict()).isNull();
        assertThat(s.ratios().get(1).status()).isEqualTo(Status.MISSING);
        assertThat(SummaryText.ratio(s.ratios().get(1), Records.RULES)).isEqualTo("  no FileStreamSink run: no result (a run is missing)");
    }

    @Test
    void aRunNamedWithItsValueSizeHasItsMegabytesPerSecond() {
        Summary s = Records.summary(Records.results("blob-1p-1024B", 1000, 3000, 2000, "restore", 10));

        assertThat(s.runs().get(0).medianRate()).isEqualTo(2000);
        assertThat(s.runs().get(0).mbPerSecond()).isEqualTo(2000 * 1024 / 1e6);
        assertThat(s.runs().get(0).spreadPercent()).isEqualTo(100);
        assertThat(s.runs().get(1).mbPerSecond()).isNull();
        assertThat(s.runs().get(1).spreadPercent()).isNull();
    }

    @Test
    void aFigureIsJudgedByItsGoalsBoundOrSaysWhyItIsNotAResult() {
        Summary s = Summary.of(Records.results(), List.of(), List.of(), List.of(
                Specs.Check.parse("heap-after-gc|164|heap, 100 partitions|"),
                Specs.Check.parse("heap-after-gc|250|heap, 100 partitions"),
                Specs.Check.parse("heap-after-gc|120|heap, 100 partitions|the sampler missed collections")), Records.GOALS, Records.RULES);

        assertThat(s.checks()).extracting(CheckFigure::verdict).containsExactly("met", "not met", null);
        assertThat(s.checks().get(2).status()).isEqualTo(Status.NOT_A_RESULT);
        assertThat(SummaryText.check(s.checks().get(0))).isEqualTo("  heap, 100 partitions (goal <= 200 MiB): 164 MiB: met");
        assertThat(SummaryText.check(s.checks().get(2))).isEqualTo("  heap, 100 partitions (goal <= 200 MiB): 120 MiB, NOT A RESULT: the"
                + " sampler missed collections");
        assertThat(s.status()).isEqualTo(3);
    }

    @Test
    void aGoalTheTableDoesNotHaveOrASpecThatIsNotOneStopsTheSummaryNamingIt() {
        assertThatThrownBy(() -> Records.summary(Records.results("a", 1, "b", 1), "no-such-goal|a|b|label"))
                .hasMessageContaining("no goal no-such-goal in bench/goals.txt");
        assertThatThrownBy(() -> Specs.Ratio.parse("label|a|b")).hasMessageContaining("a ratio is '<goal id or ->|<numerator run>");
        assertThatThrownBy(() -> Specs.Check.parse("heap-after-gc|lots|heap")).hasMessageContaining("is not a number: 'lots'");
    }

    @Test
    void warmUpRoundsAreKeptApartFromTheTimedOnes() {
        RoundResults r = RoundResults.parse(List.of("WARMUP blob-1p-100B-w1 1000 2.0 500", "RESULT blob-1p-100B-r1 1000 1.0 1000",
                "RESULT heap after a full GC: 1.29x", "RESULT blob-1p-100B-w2 1000 1.0 1000"));

        assertThat(r.timed()).containsOnlyKeys("blob-1p-100B");
        assertThat(r.timed().get("blob-1p-100B")).extracting(RoundValue::rate).containsExactly(1000.0);
        assertThat(r.warmup().get("blob-1p-100B")).extracting(RoundValue::rate).containsExactly(500.0);
    }
}
