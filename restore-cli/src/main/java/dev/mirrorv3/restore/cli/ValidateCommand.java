package dev.mirrorv3.restore.cli;

import dev.mirrorv3.connect.blob.BlobSinkValidation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigTransformer;
import org.apache.kafka.common.config.ConfigValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mirror-v3 validate}: the blob sink connector's own ConfigDef and {@code validate()} rules (shared with the
 * connector through {@link BlobSinkValidation}, no Connect needed), per field, for CI of GitOps repositories.
 */
@Command(name = "validate",
        mixinStandardHelpOptions = true,
        description = {"Runs the blob sink connector's own config checks (its ConfigDef and the rules its validate() adds:"
                + " ByteArrayConverter, auto.offset.reset=none, read_committed, no transforms or errors.tolerance=all,"
                + " destination.name with $${topic} for several topics, filesystem.root, the source cluster) on connector"
                + " JSON files and prints every error per field. Exit 1 on any. Connect's own checks of the worker side"
                + " (the connector class being installed, converter classes loadable) need a worker: use"
                + " PUT /connector-plugins/<class>/config/validate for those."},
        footerHeading = "%nExamples:%n",
        footer = {"  # in CI of a GitOps repository: no cluster, no backup directory, no secrets needed",
                "  mirror-v3 validate --offline --connector-config connectors/*.json",
                "",
                "  # on a host that sees the backup root and the source cluster (network checks take at most 5 s)",
                "  mirror-v3 validate --connector-config orders-backup.json",
                "",
                "Exit codes: 0 every file valid, 1 an error (printed per file and field on stderr), 2 usage."})
final class ValidateCommand implements Callable<Integer> {
    static final String BLOB_SINK = "dev.mirrorv3.connect.blob.BlobSinkConnector";
    private static final Pattern PROVIDER_REFERENCE = ConfigTransformer.DEFAULT_PATTERN;

    @Spec
    CommandSpec spec;

    @Option(names = "--connector-config", paramLabel = "FILE", required = true, arity = "1..*",
            description = {"Connector JSON files (REST body or flat map); repeatable.", "e.g. --connector-config a.json b.json"})
    List<Path> files = new ArrayList<>();

    @Option(names = "--offline", description = "Skip every check that needs a cluster, the backup's store or a config provider's"
            + " secret: settings that reference a provider (e.g. $${file:…}) are not checked.")
    boolean offline;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean failed = false;
        for (Path file : files) {
            List<String> errors = validate(file);
            if (errors.isEmpty()) {
                out.println(file + ": ok" + (offline ? " (offline)" : ""));
            } else {
                failed = true;
                errors.forEach(e -> err.println(file + ": " + e));
            }
        }
        out.flush();
        err.flush();
        return failed ? ExitCodes.CHECK_FAILED : ExitCodes.OK;
    }

    private List<String> validate(Path file) {
        ConnectorConfig c;
        try {
            c = offline ? ConnectorConfig.fromFileUnresolved(file) : ConnectorConfig.fromFile(file, "validate"); // the name is not checked
        } catch (UsageException e) {
            return List.of(e.getMessage());
        }
        Map<String, String> settings = c.settings();
        String cls = settings.get("connector.class");
        if (cls != null && !cls.equals(BLOB_SINK) && !cls.equals("BlobSinkConnector")) {
            return List.of("connector.class: " + cls + " is not the blob sink (" + BLOB_SINK + "); only the blob sink is validated");
        }
        List<String> errors = new ArrayList<>();
        for (ConfigValue v : BlobSinkValidation.validate(settings, offline).configValues()) {
            if (v.errorMessages().isEmpty()) {
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
}
