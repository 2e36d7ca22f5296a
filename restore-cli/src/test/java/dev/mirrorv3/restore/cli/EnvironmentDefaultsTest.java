package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MIRROR_V3_BOOTSTRAP_SERVERS, MIRROR_V3_COMMAND_CONFIG and MIRROR_V3_CONNECT_URL are the defaults of the connection
 * flags: the CLI runs in a JVM of its own with them set (picocli reads the process environment).
 */
class EnvironmentDefaultsTest {
    @TempDir
    Path dir;

    @Test
    void theConnectUrlComesFromTheEnvironment() throws Exception {
        Path root = dir.resolve("backups");
        TestBackups.write(root, "orders-backup", 0, 0, TestBackups.records("orders", 0, 0, 99, o -> true), 50);
        Path config = TestBackups.connectorJson(dir, "orders-backup", "orders", root);
        byte[] stored = new ObjectMapper().writeValueAsBytes(new ObjectMapper().readTree(config.toFile()).get("config"));
        try (ConnectorConfigEndpoint connect = ConnectorConfigEndpoint.serving("orders-backup", stored)) {
            CliRun r = run(Map.of("MIRROR_V3_CONNECT_URL", connect.url()),
                    "restore", "--connector", "orders-backup", "--offsets", "preserve", "--verify-only", "--progress", "none");
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).contains("(connector orders-backup, destination orders-backup)", "offsets: 0-99");

            // a --connector-config on the command line wins over the environment's Connect cluster
            CliRun file = run(Map.of("MIRROR_V3_CONNECT_URL", "http://127.0.0.1:1"),
                    "restore", "--connector-config", config.toString(), "--offsets", "preserve", "--verify-only", "--progress", "none");
            assertThat(file.exitCode()).as(file.toString()).isZero();
        }
    }

    @Test
    void theBootstrapServersAndCommandConfigComeFromTheEnvironment() throws Exception {
        Path root = dir.resolve("backups");
        TestBackups.write(root, "orders-backup", 0, 0, TestBackups.records("orders", 0, 0, 99, o -> true), 50);
        Path config = TestBackups.connectorJson(dir, "orders-backup", "orders", root);
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Path clientProperties = dir.resolve("client.properties");
        Files.writeString(clientProperties, "client.id=from-the-environment\n");
        CliRun r = run(Map.of("MIRROR_V3_BOOTSTRAP_SERVERS", "127.0.0.1:" + closed,
                        "MIRROR_V3_COMMAND_CONFIG", clientProperties.toString()),
                "restore", "--connector-config", config.toString(), "--offsets", "preserve", "--topic", "orders", "--timeout-ms", "1500",
                "--progress", "none");
        assertThat(r.exitCode()).as("the restore went to the environment's cluster, which is down\n" + r).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(r.err()).as(r.toString()).doesNotContain("needs --bootstrap-servers");
        // the admin client's log lines (where the test logging puts them): the environment's cluster and client.id
        assertThat(r.toString()).contains("/127.0.0.1:" + closed, "clientId=from-the-environment");

        Path missing = dir.resolve("missing.properties");
        CliRun bad = run(Map.of("MIRROR_V3_BOOTSTRAP_SERVERS", "127.0.0.1:" + closed, "MIRROR_V3_COMMAND_CONFIG", missing.toString()),
                "restore", "--connector-config", config.toString(), "--offsets", "preserve", "--topic", "orders", "--progress", "none");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("cannot read --command-config " + missing);
    }

    /** mirror-v3 in a JVM of its own, with the test's class path and these environment variables. */
    private static CliRun run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(k -> k.startsWith("MIRROR_V3_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String[] streams = new String[2];
        Thread errReader = new Thread(() -> {
            try {
                streams[1] = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                streams[1] = e.toString();
            }
        });
        errReader.start();
        streams[0] = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("mirror-v3 " + command + " ended").isTrue();
        errReader.join();
        return new CliRun(p.exitValue(), streams[0], streams[1]);
    }
}
