package dev.mirrorv3.bench.results;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** One run of a command in full, as the performance page shows the newest run of each command. */
final class RunSection {
    /** A run named for its partitions ({@code blob-8p-1024B}). */
    private static final Pattern PARTITIONS = Pattern.compile(".*-([0-9]+)p-.*");
    private RunSection() {
    }

    static String render(RunRecord r, int runs, String file, String linkPrefix) {
        StringBuilder out = new StringBuilder();
        RunRecord.Machine m = r.machine();
        out.append(String.format(Locale.ROOT, "Newest of %d run(s) recorded in [%s](%s%s): %s, commit `%s`; %d cores (%s), %,d MiB,"
                + " %s, Java %s; load average %s at the start, %s at the end; %d round(s) after %d warm-up round(s); exit status %d%s.%n",
                runs, file, linkPrefix, file, r.started(), r.commit(), m.cores(), m.cpu(), m.memoryMib(), m.os(), m.java(),
                load(r.loadStart()), load(r.loadEnd()), r.rounds(), r.warmupRounds(), r.exitStatus(),
                r.failure() == null ? "" : " (" + r.failure() + ")"));
        if (!r.runs().isEmpty()) {
            out.append(runs(r));
        }
        if (!r.ratios().isEmpty()) {
            out.append("\n| ratio | result | goal |\n|---|---|---|\n");
            for (RatioFigure f : r.ratios()) {
                out.append("| ").append(Markdown.cell(f.label())).append(" | ").append(Markdown.ratio(f)).append(" | ")
                        .append(f.goalText() == null ? "—" : f.goalText()).append(" |\n");
            }
        }
        if (!r.checks().isEmpty()) {
            out.append("\n| figure | goal |\n|---|---|\n");
            for (CheckFigure c : r.checks()) {
                out.append("| ").append(Markdown.check(c)).append(" | ").append(c.goalText()).append(" |\n");
            }
        }
        if (!r.notes().isEmpty()) {
            out.append("\n").append(r.notes().stream().map(n -> "- " + Markdown.cell(n)).collect(Collectors.joining("\n"))).append("\n");
        }
        return out.toString();
    }

    /** Each run: its median rate, MB/s (per partition too, for a run named for its partitions), time, spread, rounds. */
    private static String runs(RunRecord r) {
        StringBuilder out = new StringBuilder();
        out.append("\n| run | median per s | MB/s | MB/s per partition | median s | spread | each round |\n"
                + "|---|---:|---:|---:|---:|---:|---|\n");
        for (RunFigure f : r.runs()) {
            Matcher p = PARTITIONS.matcher(f.name());
            out.append(String.format(Locale.ROOT, "| %s | %s %s | %s | %s | %.2f | %s | %s |%n", f.name(), Figures.rate(f.medianRate()),
                    f.unit(), f.mbPerSecond() == null ? "—" : String.format(Locale.ROOT, "%.1f", f.mbPerSecond()),
                    f.mbPerSecond() == null || !p.matches() ? "—"
                            : String.format(Locale.ROOT, "%.1f", f.mbPerSecond() / Integer.parseInt(p.group(1))), f.medianSeconds(),
                    f.spreadPercent() == null ? "—" : Figures.percent(f.spreadPercent()),
                    f.rounds().stream().map(v -> Figures.rate(v.rate())).collect(Collectors.joining(" "))));
        }
        return out.toString();
    }

    private static String load(List<Double> load) {
        return load.isEmpty() ? "unknown" : String.format(Locale.ROOT, "%.2f", load.get(0));
    }
}
