package dev.mirrorv3.restore.cli;

import dev.mirrorv3.restore.cli.decrypt.DecryptCommand;
import dev.mirrorv3.restore.cli.prune.PruneCommand;
import dev.mirrorv3.restore.cli.report.CompareReportCommand;
import dev.mirrorv3.restore.cli.restore.RestoreCommand;
import dev.mirrorv3.restore.cli.status.StatusCommand;
import dev.mirrorv3.restore.cli.validate.ValidateCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

/** {@code mirror-v3}: the top-level command; each subcommand is its own class. */
@Command(name = "mirror-v3",
        mixinStandardHelpOptions = true,
        versionProvider = MirrorV3Command.Version.class,
        description = {"Restores and inspects the backups that mirror-v3's blob sink connector writes; checks the configs of"
                + " mirror-v3's connectors (validate) and shows how far each one is (status)."},
        subcommands = {RestoreCommand.class, CompareReportCommand.class, StatusCommand.class, ValidateCommand.class, DecryptCommand.class,
                PruneCommand.class,
                picocli.CommandLine.HelpCommand.class},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  ok",
                "  1  a check failed (backup, target or cluster, or for status a FAILED task); the message says which and what to do",
                "  2  usage: wrong options, a file that cannot be read, or a connector config that cannot work",
                "",
                "Logs go to stderr, command output (summaries, status) to stdout."})
public final class MirrorV3Command {

    public static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"mirror-v3 " + dev.mirrorv3.chain.Version.get()};
        }
    }
}
