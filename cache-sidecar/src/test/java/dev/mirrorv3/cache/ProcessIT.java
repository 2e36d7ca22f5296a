package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
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

    /**
     * A topic about twice the memory budget of a 128 MiB heap: the sidecar must not spiral in full GCs. (With 64 MiB, the
     * consumer's fetch buffers, up to 8 MiB each, and the store left the collector too little room: the JVM could run
     * out of heap before the store reached its budget.) It stops
     * reading that cache, stays unready with a message naming the cache, its keys, its bytes and the budget, says so
     * in a metric, and exits with code 1 after memory.exceeded-exit-after (here 5 s, in kkv's environment mode).
     */
    @Test
    void topicTooLargeForTheHeap_notReadyWithTheMessage_metric_exits1AfterTheConfiguredTime() throws Exception {
        kafka.createTopic("toolarge", 1);
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        String pad = "x".repeat(110);
        for (int i = 0; i < 700_000; i++) {
            sent.add(producer.send(new ProducerRecord<>("toolarge", 0, utf8(String.format("user-%07d", i)),
                    utf8("{\"id\":" + i + ",\"name\":\"user-" + i + "\",\"pad\":\"" + pad + "\"}"))));
            if (sent.size() == 10_000) {
                produceAll(sent);
                sent.clear();
            }
        }
        produceAll(sent);
        int httpPort = freePort();
        int metricsPort = freePort();
        Path log = Files.createTempFile("sidecar", ".log");
        Path gcLog = Files.createTempFile("sidecar-gc", ".log");
        long exitAfterMs = 5000;
        long started = System.nanoTime();
        Process p = launcher(Map.of("KAFKA_BOOTSTRAP", kafka.bootstrapServers(), "KAFKA_INCOMING_TOPIC", "toolarge",
                "KAFKA_GROUP_ID", "toolarge-pod-0", "QUARKUS_HTTP_PORT", String.valueOf(httpPort),
                "MIRROR_V3_METRICS_PORT", String.valueOf(metricsPort),
                "MIRROR_V3_MEMORY_EXCEEDED_EXIT_AFTER_MS", String.valueOf(exitAfterMs),
                "JAVA_OPTS", "-Xmx128m -Xlog:gc:file=" + gcLog))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            SidecarClient c = new SidecarClient(httpPort);
            String[] body = new String[1];
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                    .until(() -> {
                        if (!p.isAlive()) {
                            return true;
                        }
                        var r = c.get("/q/health/ready");
                        body[0] = r.statusCode() + " " + new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
                        return body[0].contains("memory_budget_exceeded");
                    });
            assertThat(body[0]).as("readiness while over the budget (process alive: %s); log:%n%s", p.isAlive(),
                    Files.readString(log))
                    .startsWith("503 ").contains("memory_budget_exceeded", "cache main", " keys", " bytes",
                            "memory.max-bytes");
            String metrics = new SidecarClient(metricsPort).text("/metrics");
            assertThat(metrics).contains("mirror_v3_cache_memory_budget_exceeded{cache=\"main\",topic=\"toolarge\"} 1");
            assertThat(p.waitFor(exitAfterMs + 30_000, TimeUnit.MILLISECONDS)).as("exited; log:%n%s",
                    Files.readString(log)).isTrue();
            assertThat(p.exitValue()).isEqualTo(1);
            String text = Files.readString(log);
            // The exit follows the configured delay after the budget was exceeded, not sooner, not much later.
            long exceededAt = logTime(text, "exceeds memory.max-bytes");
            long stoppingAt = logTime(text, "Stopping with exit code 1");
            assertThat(stoppingAt - exceededAt).isBetween(exitAfterMs, exitAfterMs + 5000);
            // No full-GC loop: the collector's pauses are a small part of the run.
            String gc = Files.readString(gcLog);
            // The launcher's G1 with the default budget has room to spare at the budget: neither a full collection
            // nor an exhausted to-space (both happened with a budget of 70 % of this 128 MiB G1 heap).
            assertThat(gc).as("GC log").startsWith("[").contains("Using G1").doesNotContain("Pause Full",
                    "To-space exhausted");
            double pausedMs = 0;
            Matcher m = Pattern.compile("Pause .* ([0-9.]+)ms").matcher(gc);
            while (m.find()) {
                pausedMs += Double.parseDouble(m.group(1));
            }
            double runMs = (System.nanoTime() - started) / 1e6;
            assertThat(pausedMs / runMs).as("GC pause share of the run (%.0f ms of %.0f ms)", pausedMs, runMs)
                    .isLessThan(0.2);
        } finally {
            p.destroyForcibly();
        }
    }

    /** Epoch millis of the first log line containing {@code marker} (log4j2's ISO8601 timestamps). */
    private static long logTime(String log, String marker) {
        String line = log.lines().filter(l -> l.contains(marker)).findFirst()
                .orElseThrow(() -> new AssertionError("no log line with '" + marker + "' in:\n" + log));
        return java.time.LocalDateTime.parse(line.substring(0, 23).replace(' ', 'T').replace(',', '.'))
                .atZone(java.time.ZoneId.systemDefault()).toInstant().toEpochMilli();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
