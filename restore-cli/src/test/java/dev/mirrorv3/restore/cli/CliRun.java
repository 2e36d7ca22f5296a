package dev.mirrorv3.restore.cli;

import dev.mirrorv3.kafka.restore.RestoreOptions;
import java.io.PrintWriter;
import java.io.StringWriter;

/** The test context (kcctl's pattern): runs the command line in-process and captures stdout, stderr and the exit code. */
public record CliRun(int exitCode, String out, String err) {

    public static CliRun run(String... args) {
        return runWithHook(null, args);
    }

    public static CliRun runWithHook(RestoreOptions.PartitionHook hook, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true), hook).execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
