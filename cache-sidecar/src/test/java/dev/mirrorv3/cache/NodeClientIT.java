package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.RequiredTools;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The real npm client {@code @yolean/kafka-keyvalue} 1.9.3 (CommonJS) on Node against the sidecar.
 * {@code npm ci} installs it from the committed package-lock.json into target/. Skipped only when {@code node} or
 * {@code npm} is not installed, and then a failure with {@code REQUIRE_ALL_TOOLS=1} (CI: {@link RequiredTools}).
 */
class NodeClientIT extends SidecarITSupport {

    private static final Path SOURCE = Path.of("src/test/node");

    @Test
    void realKkvNodeClientWorksAgainstTheSidecar() throws Exception {
        for (String tool : List.of("node", "npm")) {
            RequiredTools.require(tool, "to run the @yolean/kafka-keyvalue client against the sidecar",
                    "install Node 20.11 or newer, the client's engines field");
        }
        Path dir = Path.of("target/node-client");
        Files.createDirectories(dir);
        for (String f : List.of("package.json", "package-lock.json", "client-test.js")) {
            Files.copy(SOURCE.resolve(f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.isDirectory(dir.resolve("node_modules/@yolean/kafka-keyvalue"))) {
            Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
                    .directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(npm.waitFor(300, TimeUnit.SECONDS)).isTrue();
            assertThat(npm.exitValue()).as("npm ci output:\n" + out).isZero();
        }

        kafka.createTopic("kkvjs", 1);
        produce("kkvjs", 0, "k1", "{\"a\":1}");
        produce("kkvjs", 0, "k3", "{\"c\":3}");
        int targetPort;
        try (ServerSocket s = new ServerSocket(0)) {
            targetPort = s.getLocalPort();
        }
        Sidecar sidecar = sidecar("caches:\n" + cacheYaml("kkvjs", "kkvjs", "main: true\ngroup-id: kkvjs-0\n"
                + "notify:\n  static-targets: [\"http://127.0.0.1:" + targetPort + "/kafka-keyvalue/v1/updates\"]\n"
                + "  linger-ms: 20\n  retry-backoff-ms: 200\n"));

        ProcessBuilder pb = new ProcessBuilder("node", "client-test.js").directory(dir.toFile())
                .redirectErrorStream(true);
        pb.environment().put("SIDECAR_URL", "http://127.0.0.1:" + sidecar.httpPort());
        pb.environment().put("TOPIC", "kkvjs");
        pb.environment().put("TARGET_PORT", String.valueOf(targetPort));
        Process node = pb.start();
        List<String> output = Collections.synchronizedList(new ArrayList<>());
        BlockingQueue<String> markers = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(node.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    output.add(line);
                    if (line.startsWith("@@")) {
                        markers.add(line.substring(2));
                    }
                }
            } catch (IOException e) {
                output.add("reader: " + e);
            }
        });
        reader.start();
        try {
            for (String expected : List.of("onReady resolved", "get k1 ok", "get absent NotFoundError ok",
                    "streamValues ok", "PRODUCE")) {
                assertThat(markers.poll(60, TimeUnit.SECONDS)).as("node output:\n" + String.join("\n", output))
                        .isEqualTo(expected);
            }
            produce("kkvjs", 0, "k2", "{\"b\":2}");
            produce("kkvjs", 0, utf8("k1"), null);
            for (String expected : List.of("onUpdate k2 ok", "tombstone survived", "PASS")) {
                assertThat(markers.poll(60, TimeUnit.SECONDS)).as("node output:\n" + String.join("\n", output))
                        .isEqualTo(expected);
            }
            assertThat(node.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(node.exitValue()).as("node output:\n" + String.join("\n", output)).isZero();
        } finally {
            node.destroyForcibly();
            reader.join(5000);
        }
    }
}
