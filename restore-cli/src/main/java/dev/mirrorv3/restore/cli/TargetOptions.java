package dev.mirrorv3.restore.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine.Option;

/**
 * The Kafka cluster to write to (or query), spelled as Kafka's own tools spell it ({@code --bootstrap-server} too), with
 * the defaults from the environment (docs/restore-cli.md: Conventions and exit codes).
 */
public final class TargetOptions {
    @Option(names = {"--bootstrap-servers", "--bootstrap-server"}, paramLabel = "HOST:PORT",
            defaultValue = "${env:MIRROR_V3_BOOTSTRAP_SERVERS}", description = {"""
            The Kafka cluster: restore's target; for status the sinks' source cluster, overriding the connector's \
            source.admin.bootstrap.servers (the Kafka sink's destination and the chain source's target come from the \
            connector config). Default: the environment variable MIRROR_V3_BOOTSTRAP_SERVERS.""",
            "e.g. --bootstrap-servers kafka:9092"})
    public String bootstrapServers;

    @Option(names = "--command-config", paramLabel = "FILE", defaultValue = "${env:MIRROR_V3_COMMAND_CONFIG}", description = {"""
            Client properties for that cluster (security.protocol, sasl.*, ssl.*), as for Kafka's tools. Default: the \
            environment variable MIRROR_V3_COMMAND_CONFIG.""", "e.g. --command-config client.properties"})
    Path commandConfig;

    /** Client settings: the command config, then the bootstrap servers. */
    public Map<String, Object> clientConfig() {
        Map<String, Object> c = new HashMap<>();
        if (commandConfig != null) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(commandConfig)) {
                p.load(r);
            } catch (IOException e) {
                throw new UsageException("cannot read --command-config " + commandConfig + ": " + e.getMessage(), e);
            }
            p.stringPropertyNames().forEach(k -> c.put(k, p.getProperty(k)));
        }
        if (bootstrapServers != null) {
            c.put("bootstrap.servers", bootstrapServers);
        }
        return c;
    }

    /** restore's admin client on the target: the client settings, restore's client id unless they set one, the timeout. */
    public Map<String, Object> restoreAdminConfig(Duration timeout) {
        Map<String, Object> admin = ClientConfigs.withTimeout(clientConfig(), timeout);
        admin.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, ClientConfigs.RESTORE_ADMIN_ID);
        return admin;
    }
}
