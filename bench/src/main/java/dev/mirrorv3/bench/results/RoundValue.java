package dev.mirrorv3.bench.results;

import java.util.List;

/**
 * One timed run of one round, as a bench driver prints it: {@code RESULT <run>-r<round> <records> <seconds> <rate>
 * [<more>...]} (a warm-up round's: {@code WARMUP <run>-w<round> ...}).
 *
 * @param round   the round (1 for the first timed or warm-up round)
 * @param records what was counted (records, requests)
 * @param seconds the run's time
 * @param rate    records (or requests) per second
 * @param more    the driver's own fields after the rate (e.g. heap figures, latencies)
 */
public record RoundValue(int round, long records, double seconds, double rate, List<String> more) {
}
