package dev.mirrorv3.bench.results;

import java.util.List;
import java.util.Map;

/**
 * One run of a bench command as its runs file keeps it (one JSON object per line of bench/results/&lt;bench&gt;.jsonl):
 * what ran, where and when, every round's figures, the medians, spreads and ratios, the goals they were judged by and
 * the verdicts. A run that stopped before its summary is kept too, with what it measured and why it stopped.
 *
 * @param schema       the version of this layout
 * @param bench        the bench (blob-sink, restore, ...): the runs file's name
 * @param command      the command as run, with the environment settings that change what it measures
 * @param id           the run's id (its start time and process id)
 * @param started      when it started (UTC, ISO 8601)
 * @param finished     when its summary was written
 * @param commit       {@code git describe --always --dirty} of the checkout it ran
 * @param machine      the machine
 * @param loadStart    the load average (1, 5, 15 min) at the start
 * @param loadEnd      the load average at the end
 * @param rounds       the timed rounds asked for
 * @param warmupRounds the untimed rounds before them
 * @param rules        the spread rule the ratios were judged by
 * @param settings     the bench's settings (records, sizes, partitions, ...)
 * @param runs         every timed run's figures
 * @param warmup       the warm-up rounds' figures (not in any median)
 * @param ratios       the ratios
 * @param checks       the other figures
 * @param notes        what the bench says about its measure (how each run is timed, ...)
 * @param exitStatus   the bench's exit status: 0 every figure a result, 3 one withheld or not a result, else it failed
 * @param failure      why it stopped before its summary, null when it did not
 */
public record RunRecord(int schema, String bench, String command, String id, String started, String finished, String commit,
                        Machine machine, List<Double> loadStart, List<Double> loadEnd, int rounds, int warmupRounds, Summary.Rules rules,
                        Map<String, String> settings, List<RunFigure> runs, List<RunFigure> warmup, List<RatioFigure> ratios,
                        List<CheckFigure> checks, List<String> notes, int exitStatus, String failure) {
    public static final int SCHEMA = 1;

    /**
     * The machine a run was made on.
     *
     * @param cores     available processors
     * @param memoryMib total memory
     * @param cpu       the CPU model
     * @param os        kernel name and version
     * @param java      the Java version the bench ran with
     */
    public record Machine(int cores, long memoryMib, String cpu, String os, String java) {
    }
}
