package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreFactory;
import dev.mirrorv3.restore.cli.prune.PruneReportSchema;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.ParseResult;

/**
 * examples/kubernetes/prune-cronjob.yaml runs a prune that the CLI accepts as it is written there, with the prune
 * identity's keys, and that prunes a real backup on S3 (S3Proxy, where the prune identity may list, read, put and delete
 * and the write identity only put) when run with the connector JSON its comment describes: examples/blob-sink-s3.json with
 * the prune identity's settings added, every ${env:...} and ${file:...} of it resolved from what the CronJob sets and mounts.
 */
class PruneCronJobExampleTest {
    static final Path FILE = Path.of("..", "examples", "kubernetes", "prune-cronjob.yaml");
    static final Path CONNECTOR_JSON = Path.of("..", "examples", "blob-sink-s3.json");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern ENV = Pattern.compile("\\$\\{env:([^}]+)}");
    private static final Pattern FILE_REF = Pattern.compile("\\$\\{file:([^:}]+):([^}]+)}");
    /** The Secrets' contents in this test: the prune Secret holds S3Proxy's prune identity. */
    private static final Map<String, String> SECRETS = Map.of("mirror-v3-s3-prune/access-key-id", "pruner",
            "mirror-v3-s3-prune/secret-access-key", "pruner-secret-value");

    @TempDir
    Path dir;

    @Test
    void theCronJobsArgumentsAreAPruneRunThatReportsItsResult() throws Exception {
        JsonNode job = YAML.readTree(FILE.toFile());
        JsonNode container = VerifyCronJob.container(FILE);
        assertThat(container.has("command")).as("the image's ENTRYPOINT (docker/Dockerfile) is bin/mirror-v3").isFalse();
        ParseResult parsed = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), null)
                .parseArgs(VerifyCronJob.args(container).toArray(String[]::new));
        ParseResult prune = parsed.subcommand();
        assertThat(prune.commandSpec().name()).isEqualTo("prune");
        assertThat(prune.hasMatchedOption("--keep") != prune.hasMatchedOption("--before")).as("exactly one retention").isTrue();
        assertThat(prune.hasMatchedOption("--dry-run")).as("the CronJob removes").isFalse();
        assertThat(prune.hasMatchedOption("--partition")).as("every partition and _meta/").isFalse();
        assertThat(prune.hasMatchedOption("--report") && prune.hasMatchedOption("--metrics-file")).isTrue();
        assertThat(job.at("/spec/concurrencyPolicy").asText()).as("one prune at a time per backup").isEqualTo("Forbid");
        assertThat(container.path("securityContext").path("readOnlyRootFilesystem").asBoolean()).isTrue();
        String verifySchedule = YAML
                .readTree(VerifyCronJob.FILE.toFile()).at("/spec/schedule").asText();
        String[] schedule = job.at("/spec/schedule").asText().split(" ");
        assertThat(schedule).hasSize(5);
        assertThat(schedule[1] + ":" + schedule[0]).as("away from the verification's " + verifySchedule)
                .isNotEqualTo(verifySchedule.split(" ")[1] + ":" + verifySchedule.split(" ")[0]);
    }

    @Test
    void theCronJobsIdentityIsThePruneIdentitysKeysAndItsRunPrunesABackupOnS3() throws Exception {
        try (S3TestServer server = S3TestServer.startWithLeastPrivilege()) {
            JsonNode container = VerifyCronJob.container(FILE);
            ObjectNode connector = connectorAsTheCommentSays(container, server);
            Map<String, String> settings = new HashMap<>();
            connector.get("config").fields().forEachRemaining(e -> settings.put(e.getKey(), e.getValue().asText()));
            server.createBucket(settings.get(StoreFactory.S3_BUCKET));
            String name = connector.get("name").asText();
            List<ObjectName> objects = writeOldBackup(settings, name, connector.at("/config/topics").asText());

            List<String> args = new ArrayList<>();
            Path report = map(container, connector, args);
            CliRun r = CliRun.run(args.toArray(String[]::new));

            assertThat(r.exitCode()).as("the CronJob's run " + args + "\n" + r).isZero();
            assertThat(r.toString()).as("no secret in the output").doesNotContain("secret-value");
            JsonNode json = PruneReportSchema.checked(report);
            assertThat(json.at("/partitions/0/removed")).extracting(o -> o.get("object").asText())
                    .containsExactly(objects.get(0).fileName(), objects.get(1).fileName());
            assertThat(json.at("/meta/removed")).hasSize(1);
            assertThat(Files.readString(report.resolveSibling(name + "-prune.prom")))
                    .contains("mirror_v3_prune_removed_objects{connector=\"" + name + "\"");
            try (Store read = StoreFactory.open(settings, name)) {
                assertThat(read.list(0)).containsExactly(objects.get(2).fileName());
            }
        }
    }

    /**
     * examples/blob-sink-s3.json with the prune identity's settings the CronJob's comment names, pointed at the server:
     * every ${env:NAME} replaced by the Secret key the container's env NAME takes (SECRETS), every ${file:PATH:KEY} by the
     * file of a Secret volume the container mounts at PATH's directory (written under dir, with the read identity).
     */
    private ObjectNode connectorAsTheCommentSays(JsonNode container, S3TestServer server) throws Exception {
        String comment = Files.readString(FILE).replace("\n# ", " "); // the header comment, its lines joined
        ObjectNode connector = (ObjectNode) new ObjectMapper().readTree(CONNECTOR_JSON.toFile());
        ObjectNode config = (ObjectNode) connector.get("config");
        Matcher added = Pattern.compile("\"(s3\\.prune\\.[a-z.]+)\": \"(\\$\\{env:[A-Z0-9_]+})\"").matcher(comment);
        while (added.find()) {
            config.put(added.group(1), added.group(2));
        }
        assertThat(config.has(StoreFactory.S3_PRUNE_ACCESS_KEY_ID) && config.has(StoreFactory.S3_PRUNE_SECRET_ACCESS_KEY))
                .as("the CronJob's comment names both prune settings").isTrue();
        Map<String, String> resolved = new HashMap<>();
        config.fields().forEachRemaining(e -> resolved.put(e.getKey(), resolve(container, e.getKey(), e.getValue().asText())));
        resolved.forEach(config::put);
        config.put(StoreFactory.S3_ENDPOINT, server.endpoint().toString());
        config.put(StoreFactory.S3_PATH_STYLE, "true");
        config.put(StoreFactory.S3_REGION, "us-east-1");
        return connector;
    }

    private String resolve(JsonNode container, String setting, String value) {
        Matcher env = ENV.matcher(value);
        if (env.matches()) {
            JsonNode ref = envRef(container, env.group(1));
            assertThat(ref.isMissingNode()).as(setting + " reads ${env:" + env.group(1) + "}: the CronJob sets it from a Secret").isFalse();
            String key = ref.path("name").asText() + "/" + ref.path("key").asText();
            assertThat(SECRETS).as(setting + " comes from the prune identity's Secret").containsKey(key);
            return SECRETS.get(key);
        }
        Matcher file = FILE_REF.matcher(value);
        if (file.matches()) {
            Path inMount = Path.of(file.group(1));
            assertThat(mountedSecret(container, inMount)).as(setting + "'s " + inMount + " is in a Secret the CronJob mounts")
                    .isTrue();
            return file.group(2).startsWith("access") ? "reader" : "reader-secret-value"; // the file holds the read identity
        }
        return value;
    }

    private static JsonNode envRef(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (name.equals(e.path("name").asText())) {
                return e.at("/valueFrom/secretKeyRef");
            }
        }
        return MissingNode.getInstance();
    }

    /** Whether the container mounts a Secret volume at the file's directory that holds the file. */
    private static boolean mountedSecret(JsonNode container, Path file) {
        JsonNode volumes;
        try {
            volumes = YAML.readTree(FILE.toFile()).at("/spec/jobTemplate/spec/template/spec/volumes");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (JsonNode mount : container.path("volumeMounts")) {
            for (JsonNode v : volumes) {
                if (file.getParent().toString().equals(mount.path("mountPath").asText())
                        && v.path("name").asText().equals(mount.path("name").asText())) {
                    for (JsonNode item : v.at("/secret/items")) {
                        if (item.path("path").asText().equals(file.getFileName().toString())) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    /** 300 records stamped in 2023 (older than any --keep) in three objects, and two topic snapshots of then; the names. */
    private static List<ObjectName> writeOldBackup(Map<String, String> settings, String name, String topic) {
        List<ObjectName> names = new ArrayList<>();
        Map<String, String> asTheSink = new HashMap<>(settings);
        asTheSink.put(StoreFactory.S3_WRITE_ACCESS_KEY_ID, "writer");
        asTheSink.put(StoreFactory.S3_WRITE_SECRET_ACCESS_KEY, "writer-secret-value");
        try (Store writer = StoreFactory.open(asTheSink, name)) {
            List<BackupRecord> records = TestBackups.records(topic, 0, 0, 299, o -> true);
            for (int from = 0; from < 300; from += 100) {
                ObjectName n = ObjectName.plain(from, from + 99, TestBackups.SETTINGS.format());
                writer.create(0, n.fileName(), TestBackups.CODEC.encode(records.subList(from, from + 100)));
                names.add(n);
            }
            MetaSnapshots meta = new MetaSnapshots(writer, ObjectEncryption.none());
            for (long t = 0; t < 2; t++) {
                meta.writeTopic(new TopicSnapshot(TestBackups.BASE_TS + t, topic, "AbCdEfGhIjKlMnOpQrStUv", 1, 3, Map.of()));
            }
        }
        return names;
    }

    /**
     * The CronJob's exact arguments with its connector-config and reports volumes mapped to directories of dir (the connector
     * JSON written where --connector-config names it); returns the report's path.
     */
    private Path map(JsonNode container, ObjectNode connector, List<String> args) throws Exception {
        Map<String, String> mounts = new HashMap<>();
        container.path("volumeMounts").forEach(m -> mounts.put(m.path("name").asText(), m.path("mountPath").asText()));
        Path report = null;
        List<String> written = VerifyCronJob.args(container);
        for (int i = 0; i < written.size(); i++) {
            String a = written.get(i);
            String previous = i > 0 ? written.get(i - 1) : "";
            if (previous.equals("--connector-config")) {
                assertThat(a).startsWith(mounts.get("connector-config") + "/");
                a = Files.createDirectories(dir.resolve("config")) + a.substring(mounts.get("connector-config").length());
                new ObjectMapper().writeValue(Path.of(a).toFile(), connector);
            } else if (previous.equals("--report") || previous.equals("--metrics-file")) {
                assertThat(a).as("written to the reports volume").startsWith(mounts.get("reports") + "/");
                a = Files.createDirectories(dir.resolve("reports")) + a.substring(mounts.get("reports").length());
                report = previous.equals("--report") ? Path.of(a) : report;
            }
            args.add(a);
        }
        return report;
    }
}
