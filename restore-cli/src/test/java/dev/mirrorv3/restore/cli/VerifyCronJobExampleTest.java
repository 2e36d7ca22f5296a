package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.sun.net.httpserver.HttpServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.ParseResult;

/**
 * examples/kubernetes/verify-cronjob.yaml runs a read-only verify that the CLI accepts as it is written there, and that
 * verifies a real backup and pushes its result when run with the connector JSON its ConfigMap holds.
 */
class VerifyCronJobExampleTest {
    private static final Path CRONJOB = Path.of("..", "examples", "kubernetes", "verify-cronjob.yaml");
    /** What the CronJob's ConfigMap holds, as its connector-config volume says. */
    private static final Path CONNECTOR_JSON = Path.of("..", "examples", "blob-sink-s3.json");

    @TempDir
    Path dir;

    @Test
    void theCronJobsArgumentsAreAVerifyOnlyRunThatReportsItsResult() throws Exception {
        JsonNode container = container();
        List<String> args = args(container);
        ParseResult parsed = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), null)
                .parseArgs(args.toArray(String[]::new));
        ParseResult restore = parsed.subcommand();
        assertThat(restore.commandSpec().name()).isEqualTo("restore");
        assertThat(restore.hasMatchedOption("--verify-only")).isTrue();
        assertThat(restore.hasMatchedOption("--pushgateway") || restore.hasMatchedOption("--metrics-file")).isTrue();
        assertThat(restore.hasMatchedOption("--bootstrap-servers")).as("verify never touches Kafka").isFalse();
        assertThat(container.path("securityContext").path("readOnlyRootFilesystem").asBoolean()).isTrue();
    }

    /**
     * The CronJob's exact arguments, its mounts mapped to temp directories and its Pushgateway to an in-test server, verify
     * a filesystem backup of the connector its ConfigMap names (examples/blob-sink-s3.json with the destination switched to
     * the filesystem), push the result and write the report: exit 0.
     */
    @Test
    void theCronJobsArgumentsVerifyABackupAndPushTheResult() throws Exception {
        assertThat(Files.readString(CRONJOB)).as("the CronJob's ConfigMap holds " + CONNECTOR_JSON)
                .contains("(examples/" + CONNECTOR_JSON.getFileName() + ")");
        JsonNode container = container();
        String configMount = mountPath(container, "connector-config");
        String reportsMount = mountPath(container, "reports");
        Path configDir = Files.createDirectories(dir.resolve("config"));
        Path reportsDir = Files.createDirectories(dir.resolve("reports"));
        Path root = dir.resolve("backups");

        ObjectNode connector = (ObjectNode) new ObjectMapper().readTree(CONNECTOR_JSON.toFile());
        ObjectNode config = (ObjectNode) (connector.has("config") ? connector.get("config") : connector);
        List<String> s3 = new ArrayList<>();
        config.fieldNames().forEachRemaining(k -> {
            if (k.startsWith("s3.")) {
                s3.add(k);
            }
        });
        config.remove(s3);
        config.put("destination.type", "filesystem");
        config.put("filesystem.root", root.toString());
        String name = connector.path("name").asText("orders-backup"); // the backup the CronJob is named after
        String topic = config.path("topics").asText();
        TestBackups.write(root, name, 0, 0, TestBackups.records(topic, 0, 0, 799, o -> true), 300);
        TestBackups.write(root, name, 1, 0, TestBackups.records(topic, 1, 0, 199, o -> true), 300);

        List<String> requests = new CopyOnWriteArrayList<>();
        HttpServer pushgateway = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        pushgateway.createContext("/", exchange -> {
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + "\n"
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        pushgateway.start();
        try {
            List<String> args = new ArrayList<>();
            String pushgatewayArg = null;
            String reportArg = null;
            String configArg = null;
            List<String> written = args(container);
            for (int i = 0; i < written.size(); i++) {
                String a = written.get(i);
                String previous = i > 0 ? written.get(i - 1) : "";
                if (previous.equals("--pushgateway")) {
                    pushgatewayArg = a;
                    a = "http://127.0.0.1:" + pushgateway.getAddress().getPort();
                } else if (previous.equals("--report")) {
                    reportArg = a;
                    assertThat(a).as("the report is written to the reports volume").startsWith(reportsMount + "/");
                    a = reportsDir + a.substring(reportsMount.length());
                } else if (previous.equals("--connector-config")) {
                    configArg = a;
                    assertThat(a).as("the connector JSON is read from the ConfigMap's volume").startsWith(configMount + "/");
                    a = configDir + a.substring(configMount.length());
                    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(Path.of(a).toFile(), connector);
                }
                args.add(a);
            }
            assertThat(List.of(String.valueOf(pushgatewayArg), String.valueOf(reportArg), String.valueOf(configArg)))
                    .doesNotContain("null");

            CliRun r = CliRun.run(args.toArray(String[]::new));

            assertThat(r.exitCode()).as("the CronJob's run " + args + "\n" + r).isZero();
            assertThat(r.out()).contains("(connector " + name + ", destination " + name + ")", "offsets: 0-799", "offsets: 0-199",
                    "total: 2 partitions, ");
            assertThat(requests).hasSize(1);
            assertThat(requests.get(0)).startsWith("PUT /metrics/job@base64/").contains(
                    "mirror_v3_backup_verify_success{connector=\"" + name + "\",topic=\"" + topic + "\",partition=\"0\"} 1\n",
                    "mirror_v3_backup_verified_offset{connector=\"" + name + "\",topic=\"" + topic + "\",partition=\"1\"} 199\n");
            Path report = reportsDir.resolve(reportArg.substring(reportsMount.length() + 1));
            assertThat(new ObjectMapper().readTree(report.toFile()).toString()).contains("\"" + name + "\"");
        } finally {
            pushgateway.stop(0);
        }
    }

    private static JsonNode container() throws Exception {
        JsonNode job = new ObjectMapper(new YAMLFactory()).readTree(CRONJOB.toFile());
        assertThat(job.path("kind").asText()).isEqualTo("CronJob");
        return job.at("/spec/jobTemplate/spec/template/spec/containers/0");
    }

    private static List<String> args(JsonNode container) {
        List<String> args = new ArrayList<>();
        container.path("args").forEach(a -> args.add(a.asText()));
        return args;
    }

    private static String mountPath(JsonNode container, String volume) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (volume.equals(mount.path("name").asText())) {
                return mount.path("mountPath").asText();
            }
        }
        throw new AssertionError("the CronJob mounts no volume " + volume);
    }
}
