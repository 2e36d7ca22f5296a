package dev.mirrorv3.restore.cli.report;

/**
 * One topic's restore of {@code restore --all-topics}, for the evidence written once for all of them.
 *
 * @param error its error lines, or null when it exited 0
 * @param evidence what it learned, or null when it failed before it knew a partition
 */
public record TopicRun(String topic, int exitCode, String error, RestoreEvidence evidence) {
}
