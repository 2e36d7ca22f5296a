package dev.mirrorv3.restore.cli.validate;

import dev.mirrorv3.kafka.config.DestinationSettings;
import dev.mirrorv3.restore.cli.ConnectorConfig;
import dev.mirrorv3.restore.cli.ConnectorKind;
import dev.mirrorv3.restore.cli.ExitCodes;
import dev.mirrorv3.restore.cli.UsageException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigTransformer;
import org.apache.kafka.common.config.ConfigValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mirror-v3 validate}: each connector's own ConfigDef and {@code validate()} rules (shared with the connector
 * through its {@code *Validation} class, no Connect needed) and Connect's connector-level ones (kafka-support's
 * ConnectorLevelRules, which the generated JSON Schemas share), per field, for CI of GitOps repositories.
 */
@Command(name = "validate",
        mixinStandardHelpOptions = true,
        description = {"Runs a mirror-v3 connector's own config checks on connector JSON files and prints every error per field;"
                + " the connector.class says which: the blob sink's, the Kafka sink's or the chain source's (its ConfigDef and the"
                + " rules its validate() adds: ByteArrayConverter, auto.offset.reset=none, read_committed, an idempotent acks=all"
                + " producer for the chain source, no transforms or errors.tolerance=all, one chain or destination per topic,"
                + " absolute paths, the S3 settings), Connect's own connector-level rules (tasks.max an int of at least 1, exactly"
                + " one of topics and topics.regex for a sink, legal topic names, converter class names) and unfilled placeholders"
                + " (@NAME@, or $${...} that is no config provider reference). Exit 1 on any error. A setting neither the connector"
                + " nor Connect knows is a warning naming the nearest known one. Without --offline it also reaches what the"
                + " connector needs (the store, the keys dir, the clusters; at most 5 s each). Connect's own checks of the worker"
                + " side (the connector class being installed, converter classes loadable) need a worker: use"
                + " PUT /connector-plugins/<class>/config/validate for those."},
        footerHeading = "%nExamples:%n",
        footer = {"  # in CI of a GitOps repository: no network, no cluster, no store, no secrets needed",
                "  mirror-v3 validate --offline --connector-config connectors/*.json",
                "",
                "  # on a host that sees the store and the clusters (network checks take at most 5 s each)",
                "  mirror-v3 validate --connector-config orders-backup.json",
                "",
                "Exit codes: 0 every file valid, 1 an error (printed per file and field on stderr), 2 usage or a file that"
                        + " cannot be read as JSON."})
public final class ValidateCommand implements Callable<Integer> {
    private static final Pattern PROVIDER_REFERENCE = ConfigTransformer.DEFAULT_PATTERN;

    @Spec
    CommandSpec spec;

    @Option(names = "--connector-config", paramLabel = "FILE",
            description = {"A connector JSON file: the REST body {\"name\":…,\"config\":{…}}, the flat map of settings, or a JSON array"
                    + " of those; repeatable, and more files may follow as arguments (a shell glob).",
                    "e.g. --connector-config connectors/*.json"})
    List<Path> files = new ArrayList<>();

    /** One file per --connector-config, as in every subcommand; the rest of a glob lands here. */
    @Parameters(paramLabel = "FILE", arity = "0..*", description = "More connector JSON files.")
    List<Path> moreFiles = new ArrayList<>();

    @Option(names = "--offline", description = "Contact nothing (no store, no cluster, no DNS lookup) and read nothing of the"
            + " worker's (its filesystem root, keys dir, config provider secrets): check everything else. Settings whose value"
            + " references a config provider (e.g. $${file:…}) are not checked.")
    boolean offline;

    @Option(names = "--destination", paramLabel = "NAME", description = "For a connector with several destinations"
            + " (destinations=NAME,...): report the problems of this destination's destinations.NAME.* settings and of the"
            + " connector's own, not the other destinations' (e.g. checked from a host that sees this destination's store"
            + " only). Every destination is checked without it. Refused for a connector with one destination.")
    String destination;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Path> all = new ArrayList<>(files);
        all.addAll(moreFiles);
        if (all.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "give the connector JSON files: --connector-config FILE [FILE...]");
        }
        boolean failed = false;
        boolean unusable = false;
        for (Path file : all) {
            List<ConnectorConfig> configs;
            try {
                configs = ConnectorConfig.allForValidate(file, false);
            } catch (UsageException e) { // no connector JSON at all: a usage error, as in every subcommand
                unusable = true;
                err.println(file + ": " + e.getMessage());
                continue;
            }
            for (ConnectorConfig c : configs) {
                String label = configs.size() == 1 ? file.toString() : file + " (" + (c.name().isBlank() ? "no name" : c.name()) + ")";
                Map<String, String> settings;
                try {
                    settings = offline ? c.settings() : ConnectorConfig.resolve(c.settings(), label);
                } catch (UsageException e) { // a secret not readable here: what validate checks, not a usage error
                    failed = true;
                    err.println(label + ": " + e.getMessage());
                    continue;
                }
                List<String> errors = validate(settings);
                ConnectorKind.of(settings.get("connector.class"))
                        .ifPresent(k -> k.warnings(settings).forEach(w -> err.println(label + ": warning: " + w)));
                if (errors.isEmpty()) {
                    out.println(label + ": ok" + (offline ? " (offline)" : ""));
                } else {
                    failed = true;
                    errors.forEach(e -> err.println(label + ": " + e));
                }
            }
        }
        out.flush();
        err.flush();
        return unusable ? ExitCodes.USAGE : failed ? ExitCodes.CHECK_FAILED : ExitCodes.OK;
    }

    private List<String> validate(Map<String, String> settings) {
        String cls = settings.get("connector.class");
        if (cls == null || cls.isBlank()) {
            return List.of("connector.class: required: one of " + ConnectorKind.classNames());
        }
        Optional<ConnectorKind> kind = ConnectorKind.of(cls);
        if (kind.isEmpty()) {
            return List.of("connector.class: " + cls + " is not a mirror-v3 connector (" + ConnectorKind.classNames() + "); validate"
                    + " it with its worker: PUT /connector-plugins/" + cls + "/config/validate");
        }
        List<String> errors = new ArrayList<>();
        if (destination != null) {
            try {
                DestinationSettings.select(settings, destination);
            } catch (IllegalArgumentException e) {
                errors.add("--destination " + destination + ": " + e.getMessage());
            }
        }
        for (ConfigValue v : kind.get().validate(settings, offline).configValues()) {
            if (v.errorMessages().isEmpty() || anotherDestinations(v.name())) {
                continue;
            }
            String raw = settings.get(v.name());
            if (offline && raw != null && PROVIDER_REFERENCE.matcher(raw).find()) {
                continue; // its value is a secret or a file only the worker sees
            }
            v.errorMessages().forEach(m -> errors.add(v.name() + ": " + m));
        }
        return errors;
    }

    /** With --destination, a setting of another destination of a tee (destinations.OTHER.*), whose problems are not reported. */
    private boolean anotherDestinations(String key) {
        return destination != null && key.startsWith(DestinationSettings.PREFIX)
                && !key.startsWith(DestinationSettings.PREFIX + destination.trim() + ".");
    }
}
