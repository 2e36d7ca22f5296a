package dev.mirrorv3.bench.results;

/**
 * A figure that is not a ratio of two runs (a heap, a latency, an exit code), held against its goal.
 *
 * @param label    what it is, with the details the bench gives
 * @param goal     the goal's id in bench/goals.txt
 * @param goalText the goal as it stood when the bench ran
 * @param value    the figure in the goal's unit; null when it could not be measured
 * @param unit     the goal's unit (empty for a ratio)
 * @param status   a result, or not a result (with its reason)
 * @param reason   why it is not a result, else null
 * @param verdict  "met" or "not met" for a result, else null
 */
public record CheckFigure(String label, String goal, String goalText, Double value, String unit, Status status, String reason,
                          String verdict) {
}
