package dev.mirrorv3.restore.cli.restore;

import dev.mirrorv3.kafka.config.TopicsSetting;
import dev.mirrorv3.restore.cli.Backup;
import dev.mirrorv3.restore.cli.BackupOptions;
import dev.mirrorv3.restore.cli.ConnectorConfig;
import dev.mirrorv3.restore.cli.ExitCodes;
import dev.mirrorv3.restore.cli.UsageException;
import dev.mirrorv3.restore.cli.report.ReportOptions;
import dev.mirrorv3.restore.cli.report.RestoreEvidence;
import dev.mirrorv3.restore.cli.report.TopicRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code restore --all-topics}: every topic of a connector that backs up several ({@code destination.name} with
 * {@code ${topic}}) restored into a topic of its own name, each by a restore of its own with the same options, in
 * parallel; each restore's output is printed as a block, then one summary line per topic. The evidence is written once
 * for all of them: one report with an entry per topic, one metrics file with every topic's series (each topic's restore
 * hands its evidence here instead of writing those files itself, which would overwrite the others').
 */
final class AllTopicsRestore {
    private AllTopicsRestore() {
    }

    /**
     * @param newCommandLine a new command line writing to the given out and err, for each topic's restore
     * @param report the evidence options: each topic's restore pushes to --pushgateway itself, and the report and the metrics
     *     file are written here, once, with every topic's entry
     * @param verifyOnly --verify-only, which the report names as its mode
     */
    static int run(CommandSpec spec, BackupOptions backup, String topic, BiFunction<PrintWriter, PrintWriter, CommandLine> newCommandLine,
            ReportOptions report, boolean verifyOnly) throws Exception {
        if (topic != null || backup.sourceTopic() != null) {
            throw new ParameterException(spec.commandLine(), "--all-topics restores each backed-up topic into a topic of its own name:"
                    + " not with --topic or --source-topic");
        }
        ConnectorConfig connector = backup.config();
        List<String> topics = topics(connector);
        List<String> common = commonArgs(spec);
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(topics.size(), 4));
        Map<String, Future<Integer>> runs = new LinkedHashMap<>();
        Map<String, StringWriter[]> outputs = new LinkedHashMap<>();
        Map<String, RestoreEvidence> evidence = new ConcurrentHashMap<>();
        try {
            for (String t : topics) {
                List<String> args = new ArrayList<>(List.of("restore"));
                args.addAll(common);
                args.addAll(List.of("--source-topic", t, "--topic", t));
                StringWriter[] w = {new StringWriter(), new StringWriter()};
                outputs.put(t, w);
                CommandLine cl = newCommandLine.apply(new PrintWriter(w[0], true), new PrintWriter(w[1], true));
                ((RestoreCommand) cl.getSubcommands().get("restore").getCommand()).collectEvidence(e -> evidence.put(t, e));
                runs.put(t, pool.submit(() -> cl.execute(args.toArray(String[]::new))));
            }
            Map<String, Integer> codes = new LinkedHashMap<>();
            for (Map.Entry<String, Future<Integer>> r : runs.entrySet()) {
                codes.put(r.getKey(), r.getValue().get());
            }
            List<TopicRun> done = codes.entrySet().stream().map(c -> new TopicRun(c.getKey(), c.getValue(),
                    c.getValue() == ExitCodes.OK ? null : errors(outputs.get(c.getKey())[1].toString()), evidence.get(c.getKey())))
                    .toList();
            int worst = print(spec.commandLine().getOut(), codes, outputs);
            boolean written = report.writeAll(connector.name(), verifyOnly ? "verify-only" : "restore", done, Instant.now(),
                    spec.commandLine().getErr());
            return written ? worst : Math.max(worst, ExitCodes.CHECK_FAILED);
        } finally {
            pool.shutdownNow();
        }
    }

    /** A topic's run's error lines (each "error: ..." on its stderr), or its last line when it printed none such. */
    private static String errors(String stderr) {
        List<String> lines = stderr.lines().filter(l -> l.startsWith("error: ")).map(l -> l.substring("error: ".length())).toList();
        if (!lines.isEmpty()) {
            return String.join("; ", lines);
        }
        List<String> all = stderr.lines().filter(l -> !l.isBlank()).toList();
        return all.isEmpty() ? "no error message (see the run's output)" : all.get(all.size() - 1);
    }

    /** The connector's topics, each backed up into its own destination; a usage error when it does not back up such a list. */
    private static List<String> topics(ConnectorConfig c) {
        List<String> topics = TopicsSetting.listed(c.settings());
        if (topics.isEmpty() || !c.settings().getOrDefault("destination.name", "").contains(Backup.TOPIC_PLACEHOLDER)) {
            throw new UsageException("connector " + c.name() + " does not back up a list of topics each into its own destination"
                    + " (topics=" + c.settings().getOrDefault("topics", "") + ", destination.name without " + Backup.TOPIC_PLACEHOLDER
                    + "): restore it without --all-topics");
        }
        return topics;
    }

    /** The command line's options but --all-topics, as each topic's restore is given them. */
    private static List<String> commonArgs(CommandSpec spec) {
        List<String> common = new ArrayList<>();
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            if (o.longestName().equals("--all-topics") || ReportOptions.namesAFileForTheWholeRun(o.longestName())) {
                continue;
            }
            List<String> values = o.originalStringValues();
            if (o.arity().max() == 0) { // a flag: its value is not spelled on the command line
                common.add(o.longestName());
                continue;
            }
            for (String v : values) {
                common.add(o.longestName());
                common.add(v);
            }
        }
        return common;
    }

    /** Each restore's output as a block, then one summary line per topic; the worst exit code. */
    private static int print(PrintWriter out, Map<String, Integer> codes, Map<String, StringWriter[]> outputs) {
        int worst = ExitCodes.OK;
        for (String t : codes.keySet()) {
            out.println("=== " + t);
            out.print(outputs.get(t)[0]);
            out.print(outputs.get(t)[1]);
        }
        out.println("=== summary: " + codes.size() + " topics");
        for (String t : codes.keySet()) {
            int code = codes.get(t);
            worst = Math.max(worst, code);
            String restored = outputs.get(t)[0].toString().lines().filter(l -> l.startsWith("restored:")).findFirst().orElse("");
            out.println(t + ": " + (code == ExitCodes.OK ? "ok" : "FAILED (exit " + code + ")")
                    + (restored.isEmpty() ? "" : ", " + restored));
        }
        out.flush();
        return worst;
    }
}
