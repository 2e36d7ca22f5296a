package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * examples/kubernetes/verify-cronjob.yaml's and verify-all-topics-cronjob.yaml's containers, and their exact arguments
 * mapped onto a test's directories: the one place that reads the CronJobs, for the in-process run
 * (VerifyCronJobExampleTest) and the run through the CLI archive's image entrypoint (CliArchiveIT).
 */
final class VerifyCronJob {
    static final Path FILE = Path.of("..", "examples", "kubernetes", "verify-cronjob.yaml");
    /** What the CronJob's ConfigMap holds, as its connector-config volume says. */
    static final Path CONNECTOR_JSON = Path.of("..", "examples", "blob-sink-s3.json");

    private VerifyCronJob() {
    }

    /**
     * The CronJob's arguments with its mounts mapped to directories of a test: the connector it verifies, its topic,
     * and the report file the run writes.
     */
    record Run(List<String> args, String connector, String topic, Path report) {
    }

    /**
     * examples/kubernetes/verify-all-topics-cronjob.yaml, mapped as {@link Run}: the connector, its topics, the backups'
     * root the test writes them under, and the report file.
     */
    record AllTopicsRun(List<String> args, String connector, List<String> topics, Path root, Path report) {
    }

    static final Path ALL_TOPICS_FILE = Path.of("..", "examples", "kubernetes", "verify-all-topics-cronjob.yaml");
    /** What the all-topics CronJob's ConfigMap holds. */
    static final Path ALL_TOPICS_CONNECTOR_JSON = Path.of("..", "examples", "blob-sink-several-topics.json");

    static JsonNode container() throws IOException {
        return container(FILE);
    }

    static JsonNode container(Path file) throws IOException {
        JsonNode job = new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
        assertThat(job.path("kind").asText()).isEqualTo("CronJob");
        return job.at("/spec/jobTemplate/spec/template/spec/containers/0");
    }

    static List<String> args(JsonNode container) {
        List<String> args = new ArrayList<>();
        container.path("args").forEach(a -> args.add(a.asText()));
        return args;
    }

    /**
     * Writes a filesystem backup of the connector the ConfigMap holds (examples/blob-sink-s3.json with the destination
     * switched to the filesystem: 800 records in partition 0, 200 in partition 1) and the connector JSON under dir, and
     * returns the CronJob's exact arguments with its volumes mapped to directories of dir and its Pushgateway to
     * pushgatewayUrl.
     */
    static Run prepare(Path dir, String pushgatewayUrl) throws IOException {
        assertThat(Files.readString(FILE)).as("the CronJob's ConfigMap holds " + CONNECTOR_JSON)
                .contains("(examples/" + CONNECTOR_JSON.getFileName() + ")");
        JsonNode container = container();
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
        Mapped mapped = map(container, dir, connector, pushgatewayUrl);
        return new Run(mapped.args(), name, topic, mapped.report());
    }

    /**
     * The all-topics CronJob: the connector JSON its ConfigMap holds (examples/blob-sink-several-topics.json) with its
     * filesystem.root and its ${file:...} secret mapped to directories of dir, the volumes the CronJob mounts there checked
     * to be the ones the JSON names; the CronJob's exact arguments mapped as {@link #prepare} maps them. The backups of the
     * topics are the caller's to write under the returned root.
     */
    static AllTopicsRun prepareAllTopics(Path dir, String pushgatewayUrl) throws IOException {
        assertThat(Files.readString(ALL_TOPICS_FILE)).as("the CronJob's ConfigMap holds " + ALL_TOPICS_CONNECTOR_JSON)
                .contains("(examples/" + ALL_TOPICS_CONNECTOR_JSON.getFileName() + ")");
        JsonNode container = container(ALL_TOPICS_FILE);
        assertThat(args(container)).contains("--all-topics", "--verify-only");
        ObjectNode connector = (ObjectNode) new ObjectMapper().readTree(ALL_TOPICS_CONNECTOR_JSON.toFile());
        ObjectNode config = (ObjectNode) connector.get("config");
        assertThat(mountPath(container, "backups")).as("the backups are mounted at the connector's filesystem.root")
                .isEqualTo(config.path("filesystem.root").asText());
        Path root = Files.createDirectories(dir.resolve("backups"));
        config.put("filesystem.root", root.toString());
        String secrets = mountPath(container, "source-secret");
        Path secretsDir = Files.createDirectories(dir.resolve("secrets"));
        Map<String, String> references = new TreeMap<>();
        config.fields().forEachRemaining(e -> references.put(e.getKey(), e.getValue().asText()));
        for (Map.Entry<String, String> e : references.entrySet()) {
            Matcher ref = FILE_REFERENCE.matcher(e.getValue());
            if (ref.matches()) {
                assertThat(ref.group(1)).as(e.getKey() + "'s secret is in the Secret the CronJob mounts").startsWith(secrets + "/");
                Path file = secretsDir.resolve(ref.group(1).substring(secrets.length() + 1));
                Files.writeString(file, ref.group(2) + "=a secret the verification never uses\n");
                config.put(e.getKey(), "${file:" + file + ":" + ref.group(2) + "}");
            }
        }
        Mapped mapped = map(container, dir, connector, pushgatewayUrl);
        return new AllTopicsRun(mapped.args(), connector.path("name").asText(), List.of(config.path("topics").asText().split(",")),
                root, mapped.report());
    }

    private static final Pattern FILE_REFERENCE = Pattern.compile("\\$\\{file:([^:}]+):([^}]+)}");

    private record Mapped(List<String> args, Path report) {
    }

    /**
     * The CronJob's exact arguments with its connector-config and reports volumes mapped to directories of dir (the
     * connector JSON written where --connector-config names it) and its Pushgateway to pushgatewayUrl.
     */
    private static Mapped map(JsonNode container, Path dir, ObjectNode connector, String pushgatewayUrl) throws IOException {
        String configMount = mountPath(container, "connector-config");
        String reportsMount = mountPath(container, "reports");
        Path configDir = Files.createDirectories(dir.resolve("config"));
        Path reportsDir = Files.createDirectories(dir.resolve("reports"));
        List<String> args = new ArrayList<>();
        Path report = null;
        boolean pushed = false;
        boolean configured = false;
        List<String> written = args(container);
        for (int i = 0; i < written.size(); i++) {
            String a = written.get(i);
            String previous = i > 0 ? written.get(i - 1) : "";
            if (previous.equals("--pushgateway")) {
                pushed = true;
                a = pushgatewayUrl;
            } else if (previous.equals("--report")) {
                assertThat(a).as("the report is written to the reports volume").startsWith(reportsMount + "/");
                a = reportsDir + a.substring(reportsMount.length());
                report = Path.of(a);
            } else if (previous.equals("--connector-config")) {
                assertThat(a).as("the connector JSON is read from the ConfigMap's volume").startsWith(configMount + "/");
                a = configDir + a.substring(configMount.length());
                new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(Path.of(a).toFile(), connector);
                configured = true;
            }
            args.add(a);
        }
        assertThat(pushed).as("the CronJob pushes to a Pushgateway").isTrue();
        assertThat(configured).as("the CronJob names its --connector-config").isTrue();
        assertThat(report).as("the CronJob writes a --report").isNotNull();
        return new Mapped(args, report);
    }

    private static String mountPath(JsonNode container, String volume) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (volume.equals(mount.path("name").asText())) {
                return mount.path("mountPath").asText();
            }
        }
        throw new AssertionError("the CronJob mounts no volume " + volume);
    }

    /** A Pushgateway stand-in on a local port that answers 200 and keeps each request's method, path and body. */
    static final class Pushgateway implements AutoCloseable {
        private final HttpServer server;
        private final List<String> requests = new CopyOnWriteArrayList<>();

        Pushgateway() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + "\n"
                        + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        List<String> requests() {
            return requests;
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
