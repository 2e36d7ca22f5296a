package dev.mirrorv3.restore.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.testsupport.ObservabilityFiles;
import dev.mirrorv3.testsupport.RequiredTools;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --metrics-file} read back by promtool's parser, and {@code --pushgateway} against an in-test HTTP server. */
class VerifyMetricsTest {
    /** One line of the text exposition format 0.0.4: HELP, TYPE, or a sample with labels. */
    private static final Pattern LINE = Pattern.compile("# HELP [a-z0-9_]+ .+|# TYPE [a-z0-9_]+ (gauge|counter)"
            + "|[a-z0-9_]+\\{connector=\"(?:[^\"\\\\]|\\\\.)*\",topic=\"[^\"]*\",partition=\"[0-9]+\"} -?[0-9.]+"
            + "|mirror_v3_store_requests_total\\{mirror=\"[^\"]*\",topic=\"[^\"]*\",operation=\"[A-Z]+\",outcome=\"[a-z]+\"} [0-9]+");

    @TempDir
    Path dir;

    private String backup() throws Exception {
        Path root = dir.resolve("backups");
        TestBackups.write(root, "orders-backup", 0, 0, TestBackups.records("orders", 0, 0, 299, o -> true), 100);
        TestBackups.write(root, "orders-backup", 1, 0, TestBackups.records("orders", 1, 0, 199, o -> o != 50), 100);
        return TestBackups.connectorJson(dir, "orders-backup", "orders", root).toString();
    }

    @Test
    void metricsFileIsValidExpositionFormatWithAFailedPartitionAtZero() throws Exception {
        Path file = dir.resolve("orders-backup.prom");
        CliRun r = CliRun.run("restore", "--connector-config", backup(), "--offsets", "preserve", "--verify-only", "--progress", "none",
                "--metrics-file", file.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1); // partition 1 has a hole: preserve cannot restore it
        String text = Files.readString(file);
        assertThat(text).contains("mirror_v3_backup_verified_offset{connector=\"orders-backup\",topic=\"orders\",partition=\"0\"} 299\n",
                "mirror_v3_backup_verify_success{connector=\"orders-backup\",topic=\"orders\",partition=\"0\"} 1\n",
                "mirror_v3_backup_verify_success{connector=\"orders-backup\",topic=\"orders\",partition=\"1\"} 0\n",
                "mirror_v3_backup_last_verify_timestamp_seconds{connector=\"orders-backup\",topic=\"orders\",partition=\"1\"} ")
                .doesNotContain("mirror_v3_backup_verified_offset{connector=\"orders-backup\",topic=\"orders\",partition=\"1\"}");
        // every series and label the alert rules and the dashboard use with the verify run's series
        assertThat(ObservabilityFiles.assertScrapeServesTheQueries("\n" + text, ObservabilityFiles::verifySeries))
                .contains("mirror_v3_backup_last_verify_timestamp_seconds", "mirror_v3_backup_verify_success");
        Path promtool = RequiredTools.require("promtool", "to parse the metrics file as Prometheus does",
                "apt-get install prometheus");
        Process check = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
        check.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        check.getOutputStream().close();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(check.exitValue()).as("promtool check metrics: " + output + "\n" + text).isZero();
    }

    @Test
    void pushPutsTheExpositionFormatUnderTheBackupsGroupingKey() throws Exception {
        List<String> requests = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + "\n"
                    + exchange.getRequestHeaders().getFirst("Content-Type") + "\n" + body);
            boolean valid = body.endsWith("\n") && body.lines().allMatch(l -> LINE.matcher(l).matches());
            byte[] answer = (valid ? "" : "text format parsing error").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(valid ? 200 : 400, answer.length == 0 ? -1 : answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            String config = backup();
            CliRun r = CliRun.run("restore", "--connector-config", config, "--offsets", "renumber", "--verify-only", "--progress", "none",
                    "--pushgateway", url);
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(requests).hasSize(1);
            String[] request = requests.get(0).split("\n", 3);
            // job, connector and topic in the Pushgateway's base64 form of grouping key values
            assertThat(request[0]).isEqualTo("PUT /metrics/job@base64/bWlycm9yLXYzLXZlcmlmeQ==/connector@base64/b3JkZXJzLWJhY2t1cA=="
                    + "/topic@base64/b3JkZXJz");
            assertThat(request[1]).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
            assertThat(request[2]).contains(
                    "mirror_v3_backup_verify_success{connector=\"orders-backup\",topic=\"orders\",partition=\"1\"} 1\n",
                    "mirror_v3_backup_verified_offset{connector=\"orders-backup\",topic=\"orders\",partition=\"1\"} 199\n",
                    "mirror_v3_store_requests_total{mirror=\"orders-backup\",topic=\"orders\",operation=\"GET\",outcome=\"ok\"} ");

            server.removeContext("/");
            server.createContext("/", exchange -> {
                byte[] answer = "pushed metrics are invalid".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(400, answer.length);
                exchange.getResponseBody().write(answer);
                exchange.close();
            });
            CliRun refused = CliRun.run("restore", "--connector-config", config, "--offsets", "renumber", "--verify-only",
                    "--progress", "none", "--pushgateway", url);
            assertThat(refused.exitCode()).as("a verify whose result is not recorded fails: " + refused).isEqualTo(1);
            assertThat(refused.err()).contains("cannot push the verify metrics to " + url, "answered 400", "pushed metrics are invalid");
        } finally {
            server.stop(0);
        }
    }
}
