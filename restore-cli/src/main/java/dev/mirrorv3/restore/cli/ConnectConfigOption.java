package dev.mirrorv3.restore.cli;

import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * --connect-config, how the commands that read a Connect REST API authenticate to it ({@link ConnectAccess}), and which
 * Connect URL they use.
 */
public final class ConnectConfigOption {
    @Option(names = "--connect-config", paramLabel = "FILE", defaultValue = "${env:MIRROR_V3_CONNECT_CONFIG}",
            description = {ConnectAccess.OPTION_DESCRIPTION, "e.g. --connect-config connect-rest.properties"})
    Path connectConfig;

    public ConnectAccess access() {
        return ConnectAccess.load(connectConfig);
    }

    /**
     * The command's --connect-url: its default, MIRROR_V3_CONNECT_URL, gives way to a --connector-config on the command
     * line; a --connect-url spelled there does not.
     */
    public static String connectUrl(CommandSpec spec, String connectUrl, boolean connectorConfigGiven) {
        return connectorConfigGiven && !spec.commandLine().getParseResult().hasMatchedOption("--connect-url") ? null : connectUrl;
    }
}
