package dev.mirrorv3.restore.cli.status;

import dev.mirrorv3.restore.cli.ConnectConfigOption;
import dev.mirrorv3.restore.cli.ConnectRest;
import dev.mirrorv3.restore.cli.ConnectorConfig;
import dev.mirrorv3.restore.cli.ConnectorKind;
import dev.mirrorv3.restore.cli.ConnectorState;
import dev.mirrorv3.restore.cli.ExitCodes;
import dev.mirrorv3.restore.cli.TargetOptions;
import dev.mirrorv3.restore.cli.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code mirror-v3 status}: per connector and partition, how far it is; with a Connect URL also its and its tasks' states. */
@Command(name = "status",
        mixinStandardHelpOptions = true,
        description = {"Shows how far each mirror-v3 connector (blob sink, Kafka sink, chain source) is, per partition: high"
                        + " watermarks, backup ends and lags, with the columns of its class; with --connect-url every mirror-v3"
                        + " connector of a Connect cluster, and the connectors' and tasks' states.",
                "Blob sink: the source topic's high watermark, the backup's next offset (the chain's last object + 1, read from the"
                        + " store) and the lag between them. A compaction=log backup (snapshots) also shows KEYS, the newest"
                        + " snapshot's keys (read from its footer), and SNAPSHOT_TO, its end offset; its next offset is SNAPSHOT_TO + 1.",
                "Kafka sink: the source's and the destination topic's high watermarks and the lag between them (the copy keeps the"
                        + " source's offsets).",
                "Chain source: the backup's end (the offset after its newest object), the target partition's high watermark, the"
                        + " lag in offsets (with offsets=renumber known only from original.offset.header, or for an empty target)"
                        + " and SECONDS_BEHIND: the newest backed-up record's timestamp minus the target's newest record's (the"
                        + " backup's oldest when the target is empty); the newest object and the target's last record are read"
                        + " only when the target is behind.",
                "With --connect-url and no --connector: every connector of that cluster whose class is mirror-v3's, each with"
                        + " its and its tasks' states (RUNNING, PAUSED, FAILED, ...). Exits 1 if any row could not be read"
                        + " (unreachable cluster or store, corrupt chain; the row's ERROR says why) or a connector or task is"
                        + " FAILED."},
        footerHeading = "%nExamples:%n",
        footer = {"  mirror-v3 status --connector-config orders-backup.json --connector-config orders-dr.json",
                "  mirror-v3 status --connect-url http://connect:8083                      # every mirror-v3 connector there",
                "  mirror-v3 status --connect-url http://connect:8083 --connector orders-backup --format json",
                "",
                "Exit codes: 0 ok, 1 a row could not be read or a connector or task FAILED, 2 usage."})
public final class StatusCommand implements Callable<Integer> {
    enum Format { TABLE, JSON }

    @Spec
    CommandSpec spec;

    @Option(names = "--connector-config", paramLabel = "FILE", description = {"""
            A connector's JSON as kept in GitOps: the REST body {"name":…,"config":{…}}, the flat map, or a JSON array of \
            those (repeatable). Its connector.class says which columns it gets.""", "e.g. --connector-config orders-backup.json"})
    List<Path> configs = new ArrayList<>();

    @Option(names = "--connect-url", paramLabel = "URL", defaultValue = "${env:MIRROR_V3_CONNECT_URL}", description = {"""
            A Kafka Connect REST API: every mirror-v3 connector there (or those --connector names), with their states. \
            Configs are read through it; config providers are resolved here. Default: the environment variable \
            MIRROR_V3_CONNECT_URL (not used when --connector-config is given).""", "e.g. --connect-url http://connect:8083"})
    String connectUrl;

    @Mixin
    ConnectConfigOption connectConfig;

    @Option(names = "--connector", paramLabel = "NAME", description = """
            Connector name: repeatable with --connect-url (only those); with a flat-map --connector-config, the name of \
            that one connector.""")
    List<String> connectors = new ArrayList<>();

    @Option(names = "--format", paramLabel = "table|json", defaultValue = "table", description = "table (aligned, one table per"
            + " connector class) or json (one array of rows, each with connector, type, its columns, error and, with --connect-url,"
            + " connector_state and tasks).")
    Format format;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "10000", description = "Timeout of each cluster query"
            + " (default ${DEFAULT-VALUE}).")
    long timeoutMs;

    @Option(names = "--keys-dir", paramLabel = "DIR", description = "The keys of encrypted backups (default: each connector's"
            + " encryption.keys.dir if it exists here); a chain with key ids missing from it is a row with an error listing them.")
    Path keysDir;

    @Option(names = "--destination", paramLabel = "NAME", description = "Which destination to read, by name, of a blob sink"
            + " that writes several (destinations=NAME,...): its destinations.NAME.* settings describe the backup. Required"
            + " then (without it such a connector's rows name its destinations); refused for a connector with one.")
    String destination;

    @Mixin
    TargetOptions source;

    /** A connector to show: its config, or why it has none here; its state when read from Connect. */
    private record Target(ConnectorKind kind, ConnectorConfig config, String name, ConnectorState state, String error) {
    }

    @Override
    public Integer call() {
        connectUrl = ConnectConfigOption.connectUrl(spec, connectUrl, !configs.isEmpty());
        List<Target> targets = new ArrayList<>();
        if (connectUrl != null) {
            targets.addAll(fromConnect());
        } else if (connectors.size() > 1) {
            throw new ParameterException(spec.commandLine(), "several --connector need --connect-url");
        }
        for (Path p : configs) {
            for (ConnectorConfig c : ConnectorConfig.allFromFile(p,
                    connectors.size() == 1 && connectUrl == null ? connectors.get(0) : null)) {
                targets.add(new Target(kind(c.settings().get("connector.class"), p + " (" + c.name() + ")"), c, c.name(), null, null));
            }
        }
        if (targets.isEmpty()) {
            if (connectUrl == null) {
                throw new ParameterException(spec.commandLine(),
                        "give --connector-config FILE... or --connect-url URL [--connector NAME...]");
            }
            spec.commandLine().getErr().println("no mirror-v3 connector at " + connectUrl);
        }
        StatusReader.Context context = new StatusReader.Context(Duration.ofMillis(timeoutMs), keysDir, source.clientConfig(),
                destination);
        List<StatusRow> rows = new ArrayList<>();
        List<StatusPrinter.Deployed> deployed = new ArrayList<>();
        for (Target t : targets) {
            if (t.state() != null) {
                deployed.add(new StatusPrinter.Deployed(t.name(), t.kind(), t.state()));
            }
            rows.addAll(t.error() != null ? List.of(StatusRow.failed(t.kind(), t.name(), t.error()))
                    : StatusReader.of(t.kind()).rows(t.config(), context));
        }
        if (format == Format.JSON) {
            StatusPrinter.json(spec.commandLine().getOut(), deployed, rows);
        } else {
            StatusPrinter.table(spec.commandLine().getOut(), deployed, rows);
        }
        boolean failed = rows.stream().anyMatch(r -> r.error() != null) || deployed.stream().anyMatch(d -> d.state().failed());
        return failed ? ExitCodes.CHECK_FAILED : ExitCodes.OK;
    }

    /** Every mirror-v3 connector of the Connect cluster, or the named ones (which must be mirror-v3's). */
    private List<Target> fromConnect() {
        ConnectRest rest = new ConnectRest(connectUrl, Duration.ofSeconds(15), connectConfig.access());
        List<ConnectRest.Deployed> all = connectors.isEmpty() ? rest.all() : connectors.stream().map(rest::one).toList();
        List<Target> out = new ArrayList<>();
        for (ConnectRest.Deployed d : all) {
            String cls = d.config().get("connector.class");
            Optional<ConnectorKind> kind = ConnectorKind.of(cls);
            if (kind.isEmpty()) {
                if (!connectors.isEmpty()) {
                    throw new UsageException("connector " + d.name() + " at " + connectUrl + " is a " + cls
                            + ", not a mirror-v3 connector ("
                            + ConnectorKind.classNames() + ")");
                }
                continue; // someone else's connector
            }
            try {
                out.add(new Target(kind.get(), new ConnectorConfig(d.name(), ConnectorConfig.resolve(d.config(), "connector " + d.name())),
                        d.name(), d.state(), null));
            } catch (UsageException e) {
                out.add(new Target(kind.get(), null, d.name(), d.state(), e.getMessage())); // e.g. a secret only the worker can read
            }
        }
        return out;
    }

    private static ConnectorKind kind(String connectorClass, String where) {
        return ConnectorKind.of(connectorClass).orElseThrow(() -> new UsageException(where + ": connector.class "
                + (connectorClass == null ? "is missing" : connectorClass + " is not a mirror-v3 connector") + ": status shows "
                + ConnectorKind.classNames()));
    }
}
