package dev.mirrorv3.restore.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The ```bash blocks an operator is told to paste (README.md, docs/*.md, examples/**&#47;README.md), each with the mark
 * on the line before its fence: {@code <!-- runbook: run <scenario> -->} (RunbookIT runs it in that scenario) or
 * {@code <!-- runbook: not run: <why> -->}. Why the blocks are marked and how the test maps them onto its stack:
 * docs/decisions.md, "Runbook commands run as written".
 */
final class RunbookBlocks {
    static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    /** The scenarios RunbookIT sets up and runs; a block marked with another name fails RunbookMarksTest. */
    static final Set<String> SCENARIOS = Set.of("deploy", "validate", "standby", "examples", "dr-drill", "point-in-time");
    private static final Pattern FENCE = Pattern.compile("^(\\s*)```bash\\s*$");
    private static final Pattern MARK = Pattern.compile("^\\s*<!-- runbook: (run ([a-z0-9-]+)|not run: (.+\\S)) -->\\s*$");

    private RunbookBlocks() {
    }

    /** One ```bash block: where it is, its mark (scenario null when it is not run, reason null when unmarked) and its text. */
    record Block(String file, int line, String scenario, String reason, String text) {
        boolean marked() {
            return scenario != null || reason != null;
        }

        @Override
        public String toString() {
            return file + ":" + line;
        }
    }

    static List<Path> documents() {
        List<Path> docs = new ArrayList<>();
        docs.add(REPO.resolve("README.md"));
        try (Stream<Path> d = Files.list(REPO.resolve("docs")); Stream<Path> e = Files.walk(REPO.resolve("examples"))) {
            d.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
            e.filter(p -> p.getFileName().toString().equals("README.md")).sorted().forEach(docs::add);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return docs;
    }

    static List<Block> all() {
        List<Block> blocks = new ArrayList<>();
        for (Path doc : documents()) {
            blocks.addAll(in(doc));
        }
        return blocks;
    }

    static List<Block> scenario(String name) {
        return all().stream().filter(b -> name.equals(b.scenario())).toList();
    }

    static List<Block> in(Path doc) {
        List<String> lines;
        try {
            lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher fence = FENCE.matcher(lines.get(i));
            if (!fence.matches()) {
                continue;
            }
            String indent = fence.group(1);
            int start = i;
            StringBuilder text = new StringBuilder();
            for (i++; i < lines.size() && !lines.get(i).trim().equals("```"); i++) {
                String l = lines.get(i);
                text.append(l.startsWith(indent) ? l.substring(indent.length()) : l).append('\n');
            }
            int before = start - 1;
            while (before >= 0 && lines.get(before).isBlank()) {
                before--;
            }
            Matcher mark = before >= 0 ? MARK.matcher(lines.get(before)) : null;
            boolean marked = mark != null && mark.matches();
            blocks.add(new Block(REPO.relativize(doc).toString(), start + 1, marked ? mark.group(2) : null,
                    marked ? mark.group(3) : null, text.toString()));
        }
        return blocks;
    }
}
