package dev.mirrorv3.restore.cli;

import dev.mirrorv3.restore.cli.RunbookBlocks.Block;
import dev.mirrorv3.testsupport.Archives;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs runbook blocks as written with bash in a working directory, with the only substitutions docs/decisions.md
 * ("Runbook commands run as written") allows: the runbooks' host names and example values replaced by the test's real
 * ones (a table, literal words), and the commands they name found on PATH as shims: {@code mirror-v3} is the unpacked
 * CLI archive's bin/mirror-v3, {@code kafka-consumer-groups.sh} and {@code kafka-topics.sh} Kafka's own ConsumerGroupCommand and
 * TopicCommand on the test class path; curl is the machine's.
 */
final class RunbookShell {
    /** A numbered step comment of a runbook block ({@code # 2. Preview: …}): where a scenario may act between steps. */
    private static final Pattern STEP = Pattern.compile("(?m)^# (\\d+)\\. ");

    private final Path shims;
    private final Map<String, String> substitutions = new LinkedHashMap<>();

    /** The shims and the unpacked CLI archive go under {@code scratch}. */
    RunbookShell(Path scratch) throws IOException {
        this.shims = Files.createDirectories(scratch.resolve("bin"));
        Path zip = Path.of(System.getProperty("cli.zip"));
        Path cli = Archives.unzip(zip, scratch.resolve("cli")).resolve(zip.getFileName().toString().replaceFirst("\\.zip$", ""));
        shim("mirror-v3", "exec '" + cli.resolve("bin/mirror-v3") + "' \"$@\"");
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        shim("kafka-consumer-groups.sh", "exec \"$JAVA\" -Xmx256m -cp '" + classPath
                + "' org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \"$@\"");
        shim("kafka-topics.sh", "exec \"$JAVA\" -Xmx256m -cp '" + classPath + "' org.apache.kafka.tools.TopicCommand \"$@\"");
    }

    /** Replaces the literal word {@code example} (not inside a longer host name: kafka:9092 is not new-kafka:9092). */
    RunbookShell substitute(String example, String real) {
        substitutions.put(example, real);
        return this;
    }

    String substituted(String text) {
        String out = text;
        for (Map.Entry<String, String> s : substitutions.entrySet()) {
            out = out.replaceAll("(?<![\\w.-])" + Pattern.quote(s.getKey()), Matcher.quoteReplacement(s.getValue()));
        }
        return out;
    }

    /** One step of a block: its number (0 before the first numbered comment) and its text. */
    record Step(int number, String text) {
    }

    static List<Step> steps(String text) {
        List<Step> steps = new ArrayList<>();
        Matcher m = STEP.matcher(text);
        int start = 0;
        int number = 0;
        while (m.find()) {
            if (m.start() > start) {
                steps.add(new Step(number, text.substring(start, m.start())));
            }
            number = Integer.parseInt(m.group(1));
            start = m.start();
        }
        steps.add(new Step(number, text.substring(start)));
        return steps;
    }

    /** The output of a step that exited 0; an AssertionError naming the block, the step and its output otherwise. */
    String run(Block block, Step step, Path dir) throws IOException, InterruptedException {
        String script = substituted(step.text());
        ProcessBuilder pb = new ProcessBuilder("bash", "-e", "-u", "-o", "pipefail", "-c", script).directory(dir.toFile());
        pb.environment().put("PATH", shims + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        pb.environment().put("JAVA_OPTS", "-Xmx512m -XX:TieredStopAtLevel=1");
        Path out = shims.resolve("out.txt");
        Path err = shims.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(block + " step " + step.number() + " did not end within 2 minutes:\n" + script);
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String report = block + " step " + step.number() + " as run:\n" + script + "--- exit " + p.exitValue() + "\n--- stdout\n"
                + stdout + "--- stderr\n" + Files.readString(err, StandardCharsets.UTF_8);
        System.out.println(report);
        if (p.exitValue() != 0) {
            throw new AssertionError(report);
        }
        return stdout;
    }

    private void shim(String name, String command) throws IOException {
        Path file = shims.resolve(name);
        Files.writeString(file, "#!/usr/bin/env bash\n" + command + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
