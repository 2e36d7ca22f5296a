package dev.mirrorv3.restore.cli;

import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Which backup: the blob sink connector's config, from a file or from a Connect cluster. */
public final class BackupOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--connector-config", paramLabel = "FILE", description = {"""
            The blob sink connector's JSON as kept in GitOps: the REST body {"name":…,"config":{…}} or the flat map of \
            settings. $${env:…}, $${file:…} and $${directory:…} are resolved as a worker would.""",
            "e.g. --connector-config gitops/orders-backup.json"})
    Path connectorConfig;

    @Option(names = "--connect-url", paramLabel = "URL", defaultValue = "${env:MIRROR_V3_CONNECT_URL}", description = {"""
            Read the connector's config from this Kafka Connect REST API instead (with --connector). Default: the \
            environment variable MIRROR_V3_CONNECT_URL (not used when --connector-config is given).""",
            "e.g. --connect-url http://connect:8083"})
    String connectUrl;

    @Mixin
    ConnectConfigOption connectConfig;

    @Option(names = "--connector", paramLabel = "NAME", description = """
            The connector's name: required with --connect-url, and with a flat-map --connector-config that has no \
            "name" (destination.name defaults to it).""")
    String connector;

    @Option(names = "--source-topic", paramLabel = "TOPIC",
            description = "The backed-up topic, when the connector backs up several (destination.name with $${topic}).")
    String sourceTopic;

    @Option(names = "--destination", paramLabel = "NAME", description = """
            Which destination to read, by name, when the connector writes several (destinations=NAME,...): its \
            destinations.NAME.* settings describe the backup. Required then; refused for a connector with one.""")
    String destination;

    @Option(names = "--keys-dir", paramLabel = "DIR", description = {"""
            The keys of an encrypted backup: one file per key id, holding the base64 of 32 bytes (as the connector's \
            encryption.keys.dir). Default: the connector's encryption.keys.dir, if it exists here. Each object is read \
            with the key its name carries (<from>-<to>.k-<key id>.parquet); missing key ids are listed.""",
            "e.g. --keys-dir /run/secrets/mirror-v3-keys"})
    Path keysDir;

    /** --source-topic: null unless given. */
    public String sourceTopic() {
        return sourceTopic;
    }

    public Backup load() {
        return Backup.of(config(), sourceTopic, keysDir, destination);
    }

    /** The connector's config, from the file or the Connect cluster. */
    public ConnectorConfig config() {
        String connectUrl = ConnectConfigOption.connectUrl(spec, this.connectUrl, connectorConfig != null);
        if ((connectorConfig == null) == (connectUrl == null)) {
            throw new ParameterException(spec.commandLine(), "give either --connector-config FILE or --connect-url URL --connector NAME");
        }
        ConnectorConfig c;
        if (connectUrl != null) {
            if (connector == null) {
                throw new ParameterException(spec.commandLine(), "--connect-url needs --connector NAME");
            }
            c = ConnectorConfig.fromConnect(connectUrl, connector, Duration.ofSeconds(15), connectConfig.access());
        } else {
            c = ConnectorConfig.fromFile(connectorConfig, connector);
        }
        return c;
    }
}
