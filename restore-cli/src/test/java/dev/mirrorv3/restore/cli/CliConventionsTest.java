package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/** The conventions every subcommand follows (docs/restore-cli.md: Conventions and exit codes). */
class CliConventionsTest {
    private static final List<String> SUBCOMMANDS = List.of("restore", "compare-report", "status", "validate", "decrypt");

    @TempDir
    Path dir;

    @Test
    void bootstrapServerIsAcceptedAsKafkasToolsSpellIt() {
        for (List<String> args : List.of(List.of("restore", "--offsets", "preserve"), List.of("status"))) {
            List<String> all = new ArrayList<>(args);
            all.addAll(List.of("--bootstrap-server", "kafka:9092"));
            ParseResult parsed = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), null)
                    .parseArgs(all.toArray(String[]::new));
            assertThat(parsed.subcommand().matchedOptionValue("--bootstrap-servers", (String) null)).as(args.get(0))
                    .isEqualTo("kafka:9092");
        }
    }

    @Test
    void connectorConfigTakesOneFileAndIsRepeatableWhereSeveralMakeSense() {
        CommandSpec top = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), null)
                .getCommandSpec();
        for (String cmd : List.of("restore", "status", "validate", "decrypt")) {
            OptionSpec option = top.subcommands().get(cmd).getCommandSpec().findOption("--connector-config");
            assertThat(option).as(cmd).isNotNull();
            assertThat(option.arity().min()).as(cmd + " --connector-config arity").isEqualTo(1);
            assertThat(option.arity().max()).as(cmd + " --connector-config arity").isEqualTo(1);
        }
    }

    @Test
    void aUsageErrorIsOneLineAndWhereToReadMoreNotTheWholeHelp() {
        for (String cmd : SUBCOMMANDS) {
            CliRun r = CliRun.run(cmd, "--no-such-option");
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
            List<String> lines = r.err().lines().toList();
            assertThat(lines).as(r.toString()).hasSizeBetween(2, 3); // the error, perhaps picocli's suggestion, where to read more
            assertThat(lines.get(0)).as(r.toString()).startsWith("error: ");
            assertThat(r.err()).as(r.toString()).endsWith("Try 'mirror-v3 " + cmd + " --help' for more information.\n")
                    .doesNotContain("Usage:");
            assertThat(r.out()).isEmpty();
        }
        CliRun top = CliRun.run("--no-such-option");
        assertThat(top.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(top.err()).endsWith("Try 'mirror-v3 --help' for more information.\n").doesNotContain("Usage:");
        CliRun noOffsets = CliRun.run("restore", "--connector-config", dir.resolve("x.json").toString(), "--verify-only");
        assertThat(noOffsets.err()).isEqualTo("error: Missing required option: '--offsets=preserve|renumber'\n"
                + "Try 'mirror-v3 restore --help' for more information.\n");
    }

    /** docs/restore-cli.md's exit code table: a file that cannot be read is a usage error (2) in every subcommand. */
    @Test
    void aConnectorConfigThatCannotBeReadIsAUsageErrorEverywhere() {
        String missing = dir.resolve("missing.json").toString();
        List<List<String>> runs = List.of(
                List.of("restore", "--connector-config", missing, "--offsets", "preserve", "--verify-only"),
                List.of("status", "--connector-config", missing),
                List.of("validate", "--offline", "--connector-config", missing),
                List.of("validate", "--connector-config", missing),
                List.of("decrypt", "--connector-config", missing, "--output", dir.resolve("plain").toString()),
                List.of("compare-report", missing, missing));
        for (List<String> args : runs) {
            CliRun r = CliRun.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(args + "\n" + r).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).as(args + "\n" + r).contains(missing).doesNotContain("\tat ");
        }
    }
}
