package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The launcher script and the shaded jar as a real process: --help, config errors, env mode, exit codes. */
class ProcessIT extends SidecarITSupport {

    private static final Path LAUNCHER = Path.of("bin/cache-sidecar");

    private record Result(int exit, String out, String err) { }

    private static ProcessBuilder launcher(Map<String, String> env, String... args) {
        String jar = System.getProperty("sidecar.jar");
        assertThat(jar).as("failsafe passes the shaded jar as sidecar.jar").isNotNull();
        assertThat(new File(jar)).as("shaded jar (built in the package phase)").exists();
        ProcessBuilder pb = new ProcessBuilder();
        pb.command().add(LAUNCHER.toString());
        pb.command().addAll(java.util.List.of(args));
        pb.environment().keySet().removeIf(k -> k.startsWith("KAFKA_") || k.startsWith("TARGET_"));
        pb.environment().put("CACHE_SIDECAR_JAR", jar);
        pb.environment().putAll(env);
        return pb;
    }

    private static Result run(Map<String, String> env, String... args) throws Exception {
        Path out = Files.createTempFile("sidecar-out", ".txt");
        Path err = Files.createTempFile("sidecar-err", ".txt");
        Process p = launcher(env, args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void helpExplainsBothModes() throws Exception {
        Result r = run(Map.of(), "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("--config", "KAFKA_BOOTSTRAP", "KAFKA_GROUP_ID", "/cache/v1");
    }

    @Test
    void configErrorsNameEverySettingAndExit2() throws Exception {
        Path cfg = Files.createTempFile("bad", ".yaml");
        Files.writeString(cfg, "caches:\n  keys:\n    topic: t\n  a:\n    main: true\n    bootstrap-servers: x:9092\n"
                + "    topic: a\n    notify: {linger-ms: fast}\n  b: {main: true, bootstrap-servers: x, topic: b}\n");
        Result r = run(Map.of(), "--config", cfg.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("caches.keys: cache name 'keys' collides",
                "caches.keys.bootstrap-servers: required", "caches.a.notify.linger-ms: 'fast' is not an integer",
                "at most one cache may be main");

        Result env = run(Map.of());
        assertThat(env.exit()).isEqualTo(2);
        assertThat(env.err()).contains("KAFKA_BOOTSTRAP: required", "KAFKA_INCOMING_TOPIC: required",
                "KAFKA_GROUP_ID: required");
    }

    @Test
    void kkvEnvironmentMode_servesMain_adminShutdownExitCode() throws Exception {
        kafka.createTopic("envmode", 1);
        produce("envmode", 0, "k", "{\"a\":1}");
        int httpPort = freePort();
        int metricsPort = freePort();
        Path log = Files.createTempFile("sidecar", ".log");
        Process p = launcher(Map.of("KAFKA_BOOTSTRAP", kafka.bootstrapServers(), "KAFKA_INCOMING_TOPIC", "envmode",
                "KAFKA_GROUP_ID", "envmode-pod-0", "QUARKUS_HTTP_PORT", String.valueOf(httpPort),
                "MIRROR_V3_METRICS_PORT", String.valueOf(metricsPort)))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            SidecarClient c = new SidecarClient(httpPort);
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                    .until(() -> c.status("/q/health/ready") == 200);
            assertThat(c.text("/cache/v1/raw/k")).isEqualTo("{\"a\":1}");
            assertThat(new SidecarClient(metricsPort).text("/metrics")).contains("mirror_v3_cache_keys");
            assertThat(c.post("/_admin/v1/shutdown/3").statusCode()).isEqualTo(204);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(3);
            assertThat(Files.readString(log)).contains("caught up").doesNotContain("Exception");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void sigtermStopsGracefully() throws Exception {
        kafka.createTopic("sigterm", 1);
        int httpPort = freePort();
        Path cfg = Files.createTempFile("ok", ".yaml");
        Files.writeString(cfg, "http: {port: " + httpPort + "}\nmetrics: {port: -1}\ncaches:\n  s:\n"
                + "    bootstrap-servers: " + kafka.bootstrapServers() + "\n    topic: sigterm\n");
        Path log = Files.createTempFile("sidecar", ".log");
        Process p = launcher(Map.of(), "--config", cfg.toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            SidecarClient c = new SidecarClient(httpPort);
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                    .until(() -> c.status("/q/health/ready") == 200);
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(Files.readString(log)).contains("Shutting down", "Stopped");
        } finally {
            p.destroyForcibly();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
