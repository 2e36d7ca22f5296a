package dev.mirrorv3.bench.results;

import java.util.List;

/**
 * A ratio of two runs' rates, paired per round (the runs of one round share that round's machine).
 *
 * @param label         what it compares, as the summary prints it
 * @param goal          the goal's id in bench/goals.txt, null for a ratio reported without a goal
 * @param goalText      the goal as it stood when the bench ran (e.g. "&gt;= 0.8"), null without a goal
 * @param numerator     the run whose rate is divided
 * @param denominator   the run it is divided by
 * @param perRound      the ratio of each round both ran in
 * @param ratio         the ratio of the two medians; null when a run is missing
 * @param spreadPercent the spread of the per-round ratios; null with one round
 * @param status        a result, withheld (spread), not a result (too few rounds) or missing
 * @param verdict       "met" or "not met" for a result with a goal, else null
 */
public record RatioFigure(String label, String goal, String goalText, String numerator, String denominator, List<Double> perRound,
                          Double ratio, Double spreadPercent, Status status, String verdict) {
}
