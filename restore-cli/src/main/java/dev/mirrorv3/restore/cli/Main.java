package dev.mirrorv3.restore.cli;

import dev.mirrorv3.kafka.restore.RestoreOptions;
import dev.mirrorv3.restore.cli.restore.RestoreCommand;
import java.io.PrintWriter;
import picocli.CommandLine;

/** Entry point of the runnable jar; {@link #commandLine} is what the tests drive (no {@code System.exit} inside). */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(commandLine(out, err, null).execute(args));
    }

    /** @param hook test hook run after each partition's first object is acknowledged; null normally */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err, RestoreOptions.PartitionHook hook) {
        CommandLine.IFactory defaults = CommandLine.defaultFactory();
        CommandLine cl = new CommandLine(new MirrorV3Command(), new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == RestoreCommand.class) {
                    return cls.cast(new RestoreCommand(hook, (o, e) -> commandLine(o, e, hook)));
                }
                return defaults.create(cls);
            }
        });
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setUsageHelpWidth(120);
        cl.setExecutionExceptionHandler(new ExecutionExceptionHandler());
        cl.setParameterExceptionHandler(new UsageErrorHandler());
        return cl;
    }
}
