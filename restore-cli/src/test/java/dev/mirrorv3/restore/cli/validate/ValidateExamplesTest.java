package dev.mirrorv3.restore.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.NoNetwork;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate --offline} as GitOps CI runs it: on every connector JSON under examples/ (the quickstart templates under
 * examples/templates/ with their placeholders filled in), in a JVM without network ({@link NoNetwork}), so a lookup or a
 * connection anywhere on the offline path fails the test even where DNS would answer.
 */
class ValidateExamplesTest {
    private static final Path EXAMPLES = Path.of("..", "examples");
    /** The folders whose files are no connector configs of their own: their name says what they hold. */
    private static final Set<String> SAYS_WHAT_IT_IS = Set.of("templates", "policies", "strimzi", "kubernetes");
    private static final Pattern PLACEHOLDER = Pattern.compile("@[A-Z0-9_]+@");
    /** What quickstart puts in the templates (the S3 endpoint and broker are its local ones; here they exist nowhere). */
    private static final Map<String, String> FILLED = Map.of("@TOPIC@", "orders", "@BOOTSTRAP_SERVERS@", "kafka:9092",
            "@S3_ENDPOINT@", "http://minio.quickstart:9000", "@S3_BUCKET@", "quickstart-backups", "@S3_PREFIX@", "demo",
            "@S3_CREDENTIALS@", "/etc/mirror-v3/s3/credentials.properties", "@CONNECTOR_NAME@", "orders-backup",
            "@BACKUP_CONNECTOR@", "orders-backup", "@MIRROR_TOPIC@", "orders-mirror", "@STANDBY_TOPIC@", "orders-standby");
    /** Far below the online checks' 5 s per store or cluster, and the SDK's own timeouts. */
    private static final long QUICK_MS = 2500;

    @TempDir
    Path dir;

    @Test
    void everyExampleIsValidOfflineWithoutAnyLookupOrConnection() throws Exception {
        List<Path> examples = connectorExamples();
        assertThat(examples).extracting(p -> p.getFileName().toString())
                .contains("blob-sink-filesystem.json", "blob-sink-s3.json", "blob-sink-s3-encrypted.json", "blob-sink-several-topics.json",
                        "orders-dual-backup.json", "orders-dr.json", "chain-source-filesystem.json", "quickstart-blob-sink.json",
                        "quickstart-blob-sink-s3.json", "quickstart-kafka-sink.json", "quickstart-chain-source.json",
                        "quickstart-chain-source-s3.json");
        try (NoNetwork network = NoNetwork.arm()) {
            CliRun.run("validate", "--offline", "--connector-config", examples.get(0).toString()); // class loading is not timed
            for (Path example : examples) {
                long start = System.nanoTime();
                CliRun r = CliRun.run("validate", "--offline", "--connector-config", example.toString());
                long ms = (System.nanoTime() - start) / 1_000_000;
                assertThat(network.attempts()).as("network use by validate --offline " + example + "\n" + r).isEmpty();
                assertThat(r.exitCode()).as(r.toString()).isZero();
                assertThat(r.out()).isEqualTo(example + ": ok (offline)\n");
                assertThat(r.err()).isEmpty();
                assertThat(ms).as("validate --offline " + example + " took " + ms + " ms").isLessThan(QUICK_MS);
            }
        }
    }

    @Test
    void aFileThatIsNoConnectorConfigFailsWithAConfigError() throws Exception {
        Path policy = EXAMPLES.resolve("policies").resolve("s3-bucket-policy.json");
        try (NoNetwork network = NoNetwork.arm()) {
            CliRun r = CliRun.run("validate", "--offline", "--connector-config", policy.toString());
            assertThat(network.attempts()).isEmpty();
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).isEqualTo(policy + ": connector.class: required: one of dev.mirrorv3.connect.blob.BlobSinkConnector,"
                    + " dev.mirrorv3.connect.kafka.KafkaSinkConnector, dev.mirrorv3.connect.source.ChainSourceConnector\n");
        }
    }

    @Test
    void offlineStillChecksEachConnectorsOwnRules() throws Exception {
        Path kafkaSink = edited("kafka-sink/orders-dr.json", "\"destination.bootstrap.servers\": \"kafka-dr:9092\",", "",
                "\"timestamp.mode\": \"source\"", "\"timestamp.mode\": \"source\", \"transforms\": \"x\"");
        Path chainSource = edited("chain-source/chain-source-filesystem.json", "\"producer.override.acks\": \"all\"",
                "\"producer.override.acks\": \"1\"", "\"filesystem.root\": \"/var/lib/mirror-v3/backups\"",
                "\"filesystem.root\": \"backups\"");
        Path s3 = edited("blob-sink-s3.json", "\"s3.bucket\": \"acme-kafka-backups\",", "", "\"encryption\": \"none\"",
                "\"encryption\": \"aes\"");
        try (NoNetwork network = NoNetwork.arm()) {
            CliRun r = CliRun.run("validate", "--offline", "--connector-config", kafkaSink.toString(),
                    chainSource.toString(), s3.toString());
            assertThat(network.attempts()).isEmpty();
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
            assertThat(r.out()).isEmpty();
            assertThat(r.err()).contains(
                    kafkaSink + ": destination.bootstrap.servers: ",
                    kafkaSink + ": transforms: no transform may run in front of the Kafka sink",
                    chainSource + ": producer.override.acks: set producer.override.acks=all (found 1)",
                    chainSource + ": filesystem.root: must be an absolute path",
                    s3 + ": s3.bucket: required with destination.type=s3",
                    s3 + ": encryption: ");
        }
    }

    @Test
    void aFirstRetryDelayAboveTheLargestIsRefusedByEachConnector() throws Exception {
        String slow = "\"retry.backoff.initial.ms\": \"120000\", \"connector.class\"";
        List<Path> configs = List.of(edited("blob-sink-filesystem.json", "\"connector.class\"", slow),
                edited("kafka-sink/orders-dr.json", "\"connector.class\"", slow),
                edited("chain-source/chain-source-filesystem.json", "\"connector.class\"", slow));
        CliRun r = CliRun.run("validate", "--offline", "--connector-config", configs.get(0).toString(), configs.get(1).toString(),
                configs.get(2).toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        for (Path config : configs) {
            assertThat(r.err()).as(r.toString()).contains(config + ": retry.backoff.initial.ms: retry.backoff.max.ms=60000 is below"
                    + " retry.backoff.initial.ms=120000");
        }
    }

    /** A copy of an example with each (old, new) pair replaced; the old text must be there. */
    private Path edited(String example, String... pairs) throws IOException {
        String json = Files.readString(EXAMPLES.resolve(example));
        for (int i = 0; i < pairs.length; i += 2) {
            assertThat(json).contains(pairs[i]);
            json = json.replace(pairs[i], pairs[i + 1]);
        }
        Path copy = dir.resolve("edited-" + Path.of(example).getFileName());
        Files.writeString(copy, json);
        return copy;
    }

    /**
     * Every connector config under examples/, templates filled in under the temp dir. Every file is a connector config in
     * the REST body form, or a README, or lives in a folder that says what it is ({@link #SAYS_WHAT_IT_IS}).
     */
    private List<Path> connectorExamples() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(EXAMPLES)) {
            for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
                Path relative = EXAMPLES.relativize(p);
                String folder = relative.getNameCount() > 1 ? relative.getName(0).toString() : "";
                if (p.getFileName().toString().equals("README.md") || (SAYS_WHAT_IT_IS.contains(folder) && !folder.equals("templates"))) {
                    continue;
                }
                assertThat(p.toString()).as("a file in examples/ outside %s is a connector config", SAYS_WHAT_IT_IS).endsWith(".json");
                String json = Files.readString(p);
                assertRestBody(p, json);
                if (folder.equals("templates")) {
                    assertThat(PLACEHOLDER.matcher(json).find()).as("a template without a placeholder: " + p).isTrue();
                    List<String> lines = json.lines().toList();
                    assertThat(List.of(lines.get(1), lines.get(2), lines.get(lines.size() - 2), lines.get(lines.size() - 1)))
                            .as("%s: the layout ./quickstart cuts the config object out of", p)
                            .containsExactly("  \"name\": \"@CONNECTOR_NAME@\",", "  \"config\": {", "  }", "}");
                    for (Map.Entry<String, String> e : FILLED.entrySet()) {
                        json = json.replace(e.getKey(), e.getValue());
                    }
                    json = json.replace("@BACKUP_DIR@", dir.resolve("quickstart-backup").toString());
                    assertThat(PLACEHOLDER.matcher(json).find()).as("a placeholder this test does not fill in " + p).isFalse();
                    p = dir.resolve(p.getFileName());
                    Files.writeString(p, json);
                } else {
                    assertThat(PLACEHOLDER.matcher(json).find()).as("a placeholder outside examples/templates/: " + p).isFalse();
                }
                out.add(p);
            }
        }
        return out;
    }

    /** One form throughout: the REST body {"name":…,"config":{…}}, as POST /connectors and mirror-v3 take it. */
    private static void assertRestBody(Path p, String json) throws IOException {
        JsonNode root = new ObjectMapper().readTree(json);
        List<String> fields = new ArrayList<>();
        root.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).as("%s: the REST body {\"name\":…,\"config\":{…}}", p).containsExactly("name", "config");
        assertThat(root.get("name").isTextual() && !root.get("name").asText().isBlank()).as("%s: name", p).isTrue();
        assertThat(root.get("config").isObject()).as("%s: config is an object", p).isTrue();
    }
}
