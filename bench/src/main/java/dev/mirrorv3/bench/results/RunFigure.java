package dev.mirrorv3.bench.results;

import java.util.List;

/**
 * One run over the rounds: its per-round values, the medians and their spread.
 *
 * @param name          the run (e.g. blob-1p-100B)
 * @param unit          what it counts: records or requests
 * @param records       what one round counted (the last round's)
 * @param valueBytes    the value size its name ends with ({@code -<n>B}), 0 when it names none
 * @param rounds        every timed round, in the order they ran
 * @param medianRate    the median records (requests) per second
 * @param medianSeconds the median time
 * @param spreadPercent (max - min) / median of the rates, in percent; null with one round
 * @param mbPerSecond   the median rate times the value size, in 10^6 bytes of values per second; null without a size
 */
public record RunFigure(String name, String unit, long records, int valueBytes, List<RoundValue> rounds, double medianRate,
                        double medianSeconds, Double spreadPercent, Double mbPerSecond) {
}
