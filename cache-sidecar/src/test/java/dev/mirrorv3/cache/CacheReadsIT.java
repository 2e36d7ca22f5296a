package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mirrorv3.testsupport.ObservabilityFiles;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

/** kafka-keyvalue's read API as cache-sidecar/README.md lists it, mirror-v3's multi-cache layout, and memory accounting. */
class CacheReadsIT extends SidecarITSupport {

    private static final String HDR = "x-kkv-last-seen-offsets";

    private static String header(HttpResponse<?> r) {
        return r.headers().firstValue(HDR).orElse(null);
    }

    @Test
    void check01_everyReadIs503UntilCaughtUp_thenReadyForever() throws Exception {
        Sidecar s = sidecar("caches:\n" + cacheYaml("c", "late-topic", "main: true"));
        SidecarClient c = new SidecarClient(s.httpPort());
        for (String path : List.of("/q/health/ready", "/cache/v1/raw/x", "/cache/v1/keys", "/cache/v1/values",
                "/cache/v1/c/raw/x", "/cache/v1/c/keys", "/cache/v1/c/values")) {
            assertThat(c.status(path)).as(path).isEqualTo(503);
        }
        JsonNode body = RecordingTarget.JSON.readTree(c.get("/cache/v1/c/raw/x").body());
        assertThat(body.get("ready").asText()).isEqualTo("warming");
        assertThat(body.get("mirrors").get(0).get("name").asText()).isEqualTo("c");
        assertThat(c.status("/q/health/live")).isEqualTo(200);

        kafka.createTopic("late-topic", 1);
        produce("late-topic", 0, "x", "1");
        awaitReady(s);
        await().atMost(Duration.ofSeconds(10)).until(() -> c.status("/cache/v1/raw/x") == 200);
        JsonNode ready = RecordingTarget.JSON.readTree(c.get("/q/health/ready").body());
        assertThat(ready.get("ready").asText()).isEqualTo("ready");
        assertThat(ready.get("mirrors").get(0).get("caught_up").asBoolean()).isTrue();
    }

    @Test
    void check02_seeded20k_firstReadyServesEverything() {
        kafka.createTopic("seeded", 1);
        List<Future<RecordMetadata>> fs = new ArrayList<>();
        Map<String, String> latest = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            String k = "k" + (i % 7000);
            String v = "{\"i\":" + i + "}";
            latest.put(k, v);
            fs.add(producer.send(new ProducerRecord<>("seeded", 0, utf8(k), utf8(v))));
        }
        produceAll(fs);
        Sidecar s = sidecar("caches:\n" + cacheYaml("seeded", "seeded", "main: true"));
        SidecarClient c = awaitReady(s);
        assertThat(c.text("/cache/v1/offset/seeded/0")).isEqualTo("19999");
        Set<String> keys = new HashSet<>(Arrays.asList(c.text("/cache/v1/keys").split("\n")));
        assertThat(keys).isEqualTo(latest.keySet());
        assertThat(c.text("/cache/v1/raw/k6999")).isEqualTo(latest.get("k6999"));
        assertThat(c.text("/cache/v1/raw/k0")).isEqualTo(latest.get("k0"));
    }

    @Test
    void check03_emptyTopic_readyWithLowWatermarkMinusOne() {
        kafka.createTopic("empty", 1);
        Sidecar s = sidecar("caches:\n" + cacheYaml("e", "empty", "main: true"));
        SidecarClient c = awaitReady(s);
        HttpResponse<byte[]> keys = c.get("/cache/v1/keys");
        assertThat(keys.statusCode()).isEqualTo(200);
        assertThat(keys.body()).isEmpty();
        assertThat(header(keys)).isEqualTo("[{\"offset\":-1,\"partition\":0,\"topic\":\"empty\"}]");
        assertThat(c.get("/cache/v1/values").body()).isEmpty();
        assertThat(c.text("/cache/v1/offset/empty/0")).isEqualTo("-1");
    }

    @Test
    void check04_threePartitions_allCaughtUp_headerHasThreeEntries() throws Exception {
        kafka.createTopic("three", 3);
        for (int p = 0; p < 3; p++) {
            for (int i = 0; i <= p; i++) {
                produce("three", p, "p" + p + "k" + i, "v");
            }
        }
        Sidecar s = sidecar("caches:\n" + cacheYaml("t", "three", "main: true"));
        SidecarClient c = awaitReady(s);
        JsonNode h = RecordingTarget.JSON.readTree(header(c.get("/cache/v1/keys")));
        assertThat(h).hasSize(3);
        Map<Integer, Long> offsets = new HashMap<>();
        h.forEach(e -> offsets.put(e.get("partition").asInt(), e.get("offset").asLong()));
        assertThat(offsets).containsExactlyInAnyOrderEntriesOf(Map.of(0, 0L, 1, 1L, 2, 2L));
        assertThat(c.text("/cache/v1/keys").split("\n")).hasSize(6);
        JsonNode ready = RecordingTarget.JSON.readTree(c.get("/q/health/ready").body());
        assertThat(ready.get("mirrors")).hasSize(3);
    }

    @Test
    void checks06to10_and13_reads() {
        kafka.createTopic("reads", 1);
        byte[] binary = {0, (byte) 0xff, (byte) 0xfe, 10, 13, (byte) 0x80};
        produce("reads", 0, utf8("bin"), binary);
        produce("reads", 0, "over", "v1");
        produce("reads", 0, "over", "v2");
        produce("reads", 0, utf8("empty"), new byte[0]);
        produce("reads", 0, "gone", "x");
        produce("reads", 0, utf8("gone"), null);
        produce("reads", 0, "plus+key", "plus");
        produce("reads", 0, "blåbär ☃", "unicode");
        produce("reads", 0, "a/b", "slash");
        produce("reads", 0, "a b", "space");
        Sidecar s = sidecar("caches:\n" + cacheYaml("r", "reads", "main: true"));
        SidecarClient c = awaitReady(s);

        HttpResponse<byte[]> bin = c.get("/cache/v1/raw/bin");
        assertThat(bin.statusCode()).isEqualTo(200);
        assertThat(bin.headers().firstValue("content-type")).hasValue("application/octet-stream");
        assertThat(bin.body()).isEqualTo(binary);
        assertThat(header(bin)).isEqualTo("[{\"offset\":9,\"partition\":0,\"topic\":\"reads\"}]");

        HttpResponse<byte[]> absent = c.get("/cache/v1/raw/absent");
        assertThat(absent.statusCode()).isEqualTo(404);
        assertThat(header(absent)).isNull();
        assertThat(c.text("/cache/v1/raw/over")).isEqualTo("v2");
        HttpResponse<byte[]> empty = c.get("/cache/v1/raw/empty");
        assertThat(empty.statusCode()).isEqualTo(200);
        assertThat(empty.body()).isEmpty();

        // check 8: a tombstone deletes the key (kkv kept it listed with a "null" value; see cache-sidecar/README.md)
        assertThat(c.status("/cache/v1/raw/gone")).isEqualTo(404);
        assertThat(c.text("/cache/v1/keys")).doesNotContain("gone");
        assertThat(c.text("/cache/v1/values")).doesNotContain("null");

        // check 9: keys decoded like kkv
        assertThat(c.text("/cache/v1/raw/plus+key")).isEqualTo("plus");
        assertThat(c.text("/cache/v1/raw/bl%C3%A5b%C3%A4r%20%E2%98%83")).isEqualTo("unicode");
        assertThat(c.text("/cache/v1/raw/a%2Fb")).isEqualTo("slash");
        assertThat(c.text("/cache/v1/raw/a%20b")).isEqualTo("space");
        assertThat(c.status("/cache/v1/raw/special/chars")).isEqualTo(404);
        assertThat(c.status("/cache/v1/raw/")).isEqualTo(404);
        assertThat(c.status("/cache/v1/raw")).isEqualTo(404);

        // check 10: one line per entry, each ending in \n, same order; content types
        HttpResponse<byte[]> keys = c.get("/cache/v1/keys");
        HttpResponse<byte[]> values = c.get("/cache/v1/values");
        assertThat(keys.headers().firstValue("content-type")).hasValue("application/octet-stream");
        assertThat(values.headers().firstValue("content-type")).hasValue("text/plain;charset=UTF-8");
        assertThat(header(keys)).isNotNull();
        assertThat(header(values)).isNotNull();
        String keyText = new String(keys.body(), StandardCharsets.UTF_8);
        assertThat(keyText).endsWith("\n");
        List<String> keyLines = Arrays.asList(keyText.split("\n", -1)).subList(0, keyText.split("\n", -1).length - 1);
        assertThat(keyLines).containsExactlyInAnyOrder("bin", "over", "empty", "plus+key", "blåbär ☃", "a/b", "a b");
        int overIndex = keyLines.indexOf("over");
        // values are in key order; "bin" holds a \n itself, so count lines up to "over" in the values body
        String valuesText = new String(values.body(), StandardCharsets.ISO_8859_1);
        assertThat(valuesText).contains("v2\n");
        assertThat(overIndex).isNotNegative();

        // check 13
        assertThat(c.post("/cache/v1/raw/over").statusCode()).isEqualTo(405);
        assertThat(c.status("/nope")).isEqualTo(404);
        assertThat(c.status("/cache/v1/nocache/raw/x")).isEqualTo(404);
    }

    @Test
    void check11_headerAdvancesOnDuplicatesAndNullKeys_check12_offsetRoute() {
        kafka.createTopic("hdr", 1);
        Sidecar s = sidecar("caches:\n" + cacheYaml("h", "hdr", "main: true"));
        SidecarClient c = awaitReady(s);
        assertThat(c.text("/cache/v1/offset/hdr/0")).isEqualTo("-1");
        produce("hdr", 0, "a", "1");
        produce("hdr", 0, "a", "1");
        produce("hdr", 0, (String) null, "nokey");
        await().atMost(Duration.ofSeconds(10)).until(() -> c.text("/cache/v1/offset/hdr/0").equals("2"));
        assertThat(header(c.get("/cache/v1/raw/a"))).isEqualTo("[{\"offset\":2,\"partition\":0,\"topic\":\"hdr\"}]");
        HttpResponse<byte[]> off = c.get("/cache/v1/offset/hdr/0");
        assertThat(off.headers().firstValue("content-type")).hasValue("text/plain;charset=UTF-8");
        assertThat(c.status("/cache/v1/offset/other/0")).isEqualTo(204);
        assertThat(c.status("/cache/v1/offset/hdr/7")).isEqualTo(204);
        assertThat(c.status("/cache/v1/offset/hdr/x")).isEqualTo(404);
        assertThat(c.status("/cache/v1/h/offset/hdr/0")).isEqualTo(200);
    }

    @Test
    void offsetRouteIsAvailableBeforeReady() {
        Sidecar s = sidecar("caches:\n" + cacheYaml("n", "not-yet", "main: true"));
        SidecarClient c = new SidecarClient(s.httpPort());
        assertThat(c.status("/q/health/ready")).isEqualTo(503);
        assertThat(c.status("/cache/v1/offset/not-yet/0")).isEqualTo(204); // not assigned yet: not 503
    }

    @Test
    void mirrorV3Layout_twoCaches_prefixedPaths_mainAlias_perCacheReadiness() throws Exception {
        kafka.createTopic("users", 1);
        kafka.createTopic("orders", 2);
        produce("users", 0, "u1", "alice");
        produce("orders", 1, "o1", "book");
        Sidecar s = sidecar("caches:\n" + cacheYaml("users", "users", "main: true")
                + cacheYaml("orders", "orders", ""));
        SidecarClient c = awaitReady(s);
        assertThat(c.text("/cache/v1/users/raw/u1")).isEqualTo("alice");
        assertThat(c.text("/cache/v1/raw/u1")).isEqualTo("alice");
        assertThat(c.text("/cache/v1/orders/raw/o1")).isEqualTo("book");
        assertThat(c.status("/cache/v1/raw/o1")).isEqualTo(404);
        assertThat(c.status("/cache/v1/users/raw/o1")).isEqualTo(404);
        assertThat(c.text("/cache/v1/orders/keys")).isEqualTo("o1\n");
        assertThat(c.text("/cache/v1/orders/offset/orders/1")).isEqualTo("0");
        JsonNode ready = RecordingTarget.JSON.readTree(c.get("/q/health/ready").body());
        Set<String> names = new HashSet<>();
        ready.get("mirrors").forEach(m -> names.add(m.get("name").asText()));
        assertThat(names).containsExactlyInAnyOrder("users", "orders");
        assertThat(ready.get("mirrors")).hasSize(3);
        String metrics = c.text("/q/metrics");
        assertThat(metrics).contains("mirror_v3_cache_keys{cache=\"orders\",topic=\"orders\"} 1");
        assertThat(metrics).contains("mirror_v3_cache_ready{cache=\"users\",topic=\"users\"} 1");
        assertThat(metrics).contains("mirror_v3_cache_http_request_duration_seconds_bucket");
        SidecarClient m = new SidecarClient(s.metricsPort());
        assertThat(m.text("/metrics")).contains("mirror_v3_cache_last_seen_offset{cache=\"orders\",partition=\"1\"");
        // The cache series config/prometheus-rules.yaml and the dashboard use, with their labels (no notify configured
        // here, so no mirror_v3_notify_* series: SidecarMetrics names those).
        assertThat(ObservabilityFiles.assertScrapeServesTheQueries("\n" + m.text("/metrics"),
                name -> ObservabilityFiles.sidecarSeries(name) && !name.startsWith("mirror_v3_notify_")))
                .contains("mirror_v3_cache_ready", "mirror_v3_cache_lag_offsets", "mirror_v3_cache_last_seen_offset",
                        "mirror_v3_cache_memory_budget_exceeded", "mirror_v3_cache_gc_time_exceeded");
    }

    @Test
    void openApiServed_matchesCommittedCopy_andDocsAreServedFromTheJar() throws Exception {
        kafka.createTopic("docs", 1);
        Sidecar s = sidecar("caches:\n" + cacheYaml("d", "docs", ""));
        SidecarClient c = new SidecarClient(s.httpPort());
        String committed = java.nio.file.Files.readString(java.nio.file.Path.of("config/openapi.json"));
        assertThat(c.text("/openapi.json")).isEqualTo(committed);
        JsonNode yaml = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(c.get("/openapi.yaml").body());
        assertThat(yaml).isEqualTo(RecordingTarget.JSON.readTree(committed));
        assertThat(c.text("/docs")).contains("swagger-ui-bundle.js").doesNotContain("https://");
        assertThat(c.get("/docs/swagger-ui-bundle.js").body().length).isGreaterThan(100_000);
        assertThat(c.status("/docs/swagger-ui.css")).isEqualTo(200);
        // No main cache: the main alias's point reads are 404, whether the key needs decoding or not.
        for (String path : List.of("/cache/v1/raw/x", "/cache/v1/raw/a%2Fb")) {
            HttpResponse<byte[]> r = c.get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).as(path).isEqualTo("No such cache\n");
        }
    }

    @Test
    void check23_adminShutdown_exitCodes() {
        kafka.createTopic("admin", 1);
        Sidecar s = sidecar("caches:\n" + cacheYaml("a", "admin", ""));
        SidecarClient c = awaitReady(s);
        assertThat(c.status("/_admin/v1/shutdown")).isEqualTo(405);
        assertThat(c.post("/_admin/v1/shutdown/256").statusCode()).isEqualTo(404);
        assertThat(c.post("/_admin/v1/shutdown/3").statusCode()).isEqualTo(204);
        assertThat(s.awaitExit(Duration.ofSeconds(30))).isEqualTo(3);

        Sidecar s2 = sidecar("caches:\n" + cacheYaml("a", "admin", ""));
        SidecarClient c2 = awaitReady(s2);
        assertThat(c2.post("/_admin/v1/shutdown").statusCode()).isEqualTo(204);
        assertThat(s2.awaitExit(Duration.ofSeconds(30))).isEqualTo(0);
    }

    @Test
    void portsInUseAreClearErrorsNamingTheSetting() throws Exception {
        try (java.net.ServerSocket busy = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            String cache = "caches:\n  a: {bootstrap-servers: " + kafka.bootstrapServers() + ", topic: t}\n";
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Sidecar.start(ConfigLoaderAccess.yaml(
                    "http: {host: 127.0.0.1, port: " + busy.getLocalPort() + "}\nmetrics: {port: -1}\n" + cache)))
                    .hasMessageContaining("http.port " + busy.getLocalPort());
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Sidecar.start(ConfigLoaderAccess.yaml(
                    "http: {host: 127.0.0.1, port: 0}\nmetrics: {port: " + busy.getLocalPort() + "}\n" + cache)))
                    .hasMessageContaining("metrics.port " + busy.getLocalPort());
        }
    }

    /** Loads YAML as the sidecar does. */
    private static final class ConfigLoaderAccess {
        static dev.mirrorv3.cache.config.SidecarConfig yaml(String y) {
            return dev.mirrorv3.cache.config.ConfigLoader.fromYaml(y, System::getenv);
        }
    }

    @Test
    void memoryAccounting_200kKeys() {
        kafka.createTopic("mem", 1);
        List<Future<RecordMetadata>> fs = new ArrayList<>(200_000);
        long expected = 0;
        for (int i = 0; i < 200_000; i++) {
            byte[] k = utf8("key-" + i);
            byte[] v = utf8("value-" + i + "-" + "x".repeat(i % 40));
            expected += k.length + v.length;
            fs.add(producer.send(new ProducerRecord<>("mem", 0, k, v)));
        }
        // overwrite 1000 keys with a value of another size, and delete 1000
        for (int i = 0; i < 1000; i++) {
            byte[] k = utf8("key-" + i);
            byte[] old = utf8("value-" + i + "-" + "x".repeat(i % 40));
            expected += 3 - old.length;
            fs.add(producer.send(new ProducerRecord<>("mem", 0, k, utf8("new"))));
        }
        for (int i = 1000; i < 2000; i++) {
            byte[] k = utf8("key-" + i);
            expected -= k.length + utf8("value-" + i + "-" + "x".repeat(i % 40)).length;
            fs.add(producer.send(new ProducerRecord<>("mem", 0, k, null)));
        }
        produceAll(fs);
        Sidecar s = sidecar("caches:\n" + cacheYaml("m", "mem", "main: true"));
        SidecarClient c = awaitReady(s);
        Cache cache = s.caches().get(0);
        assertThat(cache.store().size()).isEqualTo(199_000);
        // Counted bytes are exactly the payload: key UTF-8 + value lengths (stated overhead: 0 bytes per entry;
        // the JVM heap per entry is measured in bench/cache-sidecar).
        assertThat(cache.store().bytes()).isEqualTo(expected);
        assertThat(c.text("/cache/v1/raw/key-5")).isEqualTo("new");
        assertThat(c.status("/cache/v1/raw/key-1500")).isEqualTo(404);
        assertThat(c.text("/cache/v1/raw/key-199999")).isEqualTo("value-199999-" + "x".repeat(199_999 % 40));
        String metricLine = c.text("/q/metrics").lines()
                .filter(l -> l.startsWith("mirror_v3_cache_bytes{cache=\"m\"")).findFirst().orElseThrow();
        assertThat(Double.parseDouble(metricLine.substring(metricLine.lastIndexOf(' ') + 1))).isEqualTo(expected);
    }
}
