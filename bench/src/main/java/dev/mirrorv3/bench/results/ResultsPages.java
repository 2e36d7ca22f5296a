package dev.mirrorv3.bench.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The results sections of docs/performance.md and of the component pages, generated from bench/goals.txt and the runs
 * files under bench/results (bench PerformancePagesTest checks the pages hold them): per goal the figures of the newest
 * run that measured it, and per command its newest run in full, with a link to every run recorded. Nothing is
 * selected: a withheld or failed newest run is shown as withheld or failed, and a command without a run as not
 * measured.
 */
public final class ResultsPages {
    private final List<Goal> goals;
    private final Map<String, List<RunRecord>> runsByFile;
    private final String linkPrefix;

    private ResultsPages(List<Goal> goals, Map<String, List<RunRecord>> runsByFile, String linkPrefix) {
        this.goals = goals;
        this.runsByFile = runsByFile;
        this.linkPrefix = linkPrefix;
    }

    /**
     * @param resultsDir every {@code *.jsonl} in it is a runs file
     * @param linkPrefix how a page links a runs file, e.g. {@code ../bench/results/}
     */
    public static ResultsPages load(Path goalsFile, Path resultsDir, String linkPrefix) throws IOException {
        Map<String, List<RunRecord>> runs = new LinkedHashMap<>();
        if (Files.isDirectory(resultsDir)) {
            try (Stream<Path> files = Files.list(resultsDir)) {
                for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList()) {
                    runs.put(f.getFileName().toString(), RunsFile.read(f));
                }
            }
        }
        return new ResultsPages(Goals.read(goalsFile).all(), runs, linkPrefix);
    }

    static ResultsPages of(List<Goal> goals, Map<String, List<RunRecord>> runsByFile, String linkPrefix) {
        return new ResultsPages(goals, runsByFile, linkPrefix);
    }

    /** The goals with their current figures: every goal, or those of one component page. */
    public String goalsTable(Optional<String> page) {
        StringBuilder out = new StringBuilder("| what | compared with | goal | current result (newest run that measured it) |\n"
                + "|---|---|---|---|\n");
        for (Goal g : goals) {
            if (page.isPresent() && !page.get().equals(g.page())) {
                continue;
            }
            out.append("| ").append(Markdown.cell(g.what())).append(" | ")
                    .append(Markdown.cell(g.against().equals("-") ? "—" : g.against())).append(" | ").append(g.text()).append(" | ")
                    .append(result(g)).append(" |\n");
        }
        return out.toString();
    }

    private String result(Goal g) {
        if (!g.measured()) {
            return "no bench measures this yet";
        }
        Optional<Located> newest = newest(r -> r.ratios().stream().anyMatch(x -> g.id().equals(x.goal()))
                || r.checks().stream().anyMatch(x -> g.id().equals(x.goal())));
        if (newest.isEmpty()) {
            return "not measured: no run of `" + g.command() + "` is recorded";
        }
        RunRecord r = newest.get().run();
        List<String> parts = new ArrayList<>();
        r.ratios().stream().filter(x -> g.id().equals(x.goal())).forEach(x -> parts.add(Markdown.cell(x.label()) + ": "
                + Markdown.ratio(x) + then(g, x.goalText())));
        r.checks().stream().filter(x -> g.id().equals(x.goal())).forEach(x -> parts.add(Markdown.check(x) + then(g, x.goalText())));
        return String.join("<br>", parts) + "<br>(" + Markdown.runLink(r, newest.get().file(), linkPrefix) + ")";
    }

    /** A verdict is the one of its run: when the goal has changed since, the page says which goal it was. */
    private static String then(Goal g, String goalText) {
        return g.ascii().equals(goalText) ? ""
                : " (judged against the goal of its run, " + goalText + "; the goal is now " + g.ascii() + ")";
    }

    /** Per command, its newest run in full: the documented commands first (the goals' order), then any other run. */
    public String commandSections() {
        Set<String> commands = new LinkedHashSet<>();
        goals.stream().filter(Goal::measured).forEach(g -> commands.add(g.command()));
        runsByFile.values().stream().flatMap(List::stream).map(RunRecord::command).sorted().forEach(commands::add);
        StringBuilder out = new StringBuilder();
        for (String command : commands) {
            out.append("\n### `").append(command).append("`\n\n");
            List<Located> runs = all().stream().filter(l -> l.run().command().equals(command)).toList();
            if (runs.isEmpty()) {
                out.append("Not measured: no run of this command is recorded in bench/results/.\n");
                continue;
            }
            Located newest = runs.stream().max(Comparator.comparing(l -> l.run().started())).orElseThrow();
            out.append(RunSection.render(newest.run(), runs.size(), newest.file(), linkPrefix));
        }
        return out.toString();
    }

    /**
     * Throughput beside the peers' published figures: per row of {@code table} and partition count, the figure of the
     * newest recorded run of the row's command that holds it (one worker or one restore process per run, so MB/s per
     * worker is the run's; MB are 10^6 bytes of record values).
     */
    public String peerTable(PeerTable table) {
        StringBuilder out = new StringBuilder("| what (1 KiB values) | partitions | records/s | MB/s per worker | MB/s per partition"
                + " | run | what the peers publish |\n|---|---|---|---|---|---|---|\n");
        for (PeerTable.Row row : table.rows()) {
            for (int i = 0; i < row.partitions().size(); i++) {
                int p = row.partitions().get(i);
                String name = row.runName(p);
                out.append("| ").append(Markdown.cell(row.what())).append(" | ").append(p).append(" | ")
                        .append(figures(row.command(), name, p)).append(" | ")
                        .append(row.peers().equals("-") ? "—" : i > 0 ? "(as above)" : Markdown.cell(row.peers())).append(" |\n");
            }
        }
        return out.toString();
    }

    /** The cells records/s, MB/s per worker, MB/s per partition and run, of run {@code name} in {@code command}'s newest run. */
    private String figures(String command, String name, int partitions) {
        Optional<Located> newest = newest(r -> r.command().equals(command) && r.runs().stream().anyMatch(f -> f.name().equals(name)));
        if (newest.isEmpty()) {
            return "not measured | — | — | no run of `" + Markdown.cell(command) + "` recorded with " + name;
        }
        RunFigure f = newest.get().run().runs().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        String mb = f.mbPerSecond() == null ? "— | —"
                : String.format(java.util.Locale.ROOT, "%.1f | %.1f", f.mbPerSecond(), f.mbPerSecond() / partitions);
        return Figures.rate(f.medianRate()) + " | " + mb + " | median of " + f.rounds().size() + " round(s)"
                + (f.spreadPercent() == null ? "" : ", spread " + Figures.percent(f.spreadPercent())) + "; "
                + Markdown.runLink(newest.get().run(), newest.get().file(), linkPrefix) + ", `" + Markdown.cell(command) + "`";
    }

    private Optional<Located> newest(java.util.function.Predicate<RunRecord> which) {
        return all().stream().filter(l -> which.test(l.run())).max(Comparator.comparing(l -> l.run().started()));
    }

    private List<Located> all() {
        List<Located> out = new ArrayList<>();
        runsByFile.forEach((file, runs) -> runs.forEach(r -> out.add(new Located(file, r))));
        return out;
    }

    /** A run and the runs file it is recorded in. */
    private record Located(String file, RunRecord run) {
    }
}
