package dev.mirrorv3.cache.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {

    private static SidecarConfig yaml(String text, Map<String, String> env) {
        return ConfigLoader.fromYaml(text, env::get);
    }

    private static List<String> errors(String text) {
        try {
            yaml(text, Map.of());
        } catch (ConfigException e) {
            return e.errors();
        }
        throw new AssertionError("expected a ConfigException");
    }

    @Test
    void fullConfig() {
        SidecarConfig c = yaml("""
                http: {port: 8090}
                metrics: {port: 9191}
                shutdown: {deadline-ms: 3000}
                caches:
                  users:
                    main: true
                    bootstrap-servers: kafka:9092
                    topic: users
                    partitions: [0, 2]
                    group-id: users-${POD}
                    offset-reset: earliest
                    properties:
                      security.protocol: SASL_SSL
                      sasl.jaas.config: ${JAAS}
                    notify:
                      targets: [http://consumers.ns.svc:8080/kafka-keyvalue/v1/updates]
                      static-targets: [http://extra:8081/hook]
                      linger-ms: 10
                      max-batch-bytes: 50000
                      retry-times: 3
                      retry-backoff-ms: 250
                      on-failure: exit
                  orders:
                    bootstrap-servers: kafka:9092
                    topic: orders
                """, Map.of("POD", "pod-0", "JAAS", "secret-jaas"));
        assertThat(c.httpPort()).isEqualTo(8090);
        assertThat(c.metricsPort()).isEqualTo(9191);
        assertThat(c.shutdownDeadline()).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.caches()).extracting(CacheConfig::name).containsExactly("users", "orders");
        CacheConfig u = c.mainCache().orElseThrow();
        assertThat(u.name()).isEqualTo("users");
        assertThat(u.partitions()).containsExactly(0, 2);
        assertThat(u.groupId()).isEqualTo("users-pod-0");
        assertThat(u.offsetReset()).isEqualTo("earliest");
        assertThat(u.kafkaProperties()).containsEntry("sasl.jaas.config", "secret-jaas");
        NotifyConfig n = u.notifications();
        assertThat(n.targets()).containsExactly(URI.create("http://consumers.ns.svc:8080/kafka-keyvalue/v1/updates"));
        assertThat(n.staticTargets()).containsExactly(URI.create("http://extra:8081/hook"));
        assertThat(n.linger()).isEqualTo(Duration.ofMillis(10));
        assertThat(n.maxBatchBytes()).isEqualTo(50000);
        assertThat(n.retryTimes()).isEqualTo(3);
        assertThat(n.onFailure()).isEqualTo(NotifyConfig.OnFailure.EXIT);
        CacheConfig o = c.caches().get(1);
        assertThat(o.main()).isFalse();
        assertThat(o.partitions()).isEmpty();
        assertThat(o.notifications().hasTargets()).isFalse();
        assertThat(o.offsetReset()).isEqualTo("latest");
    }

    @Test
    void defaults() {
        SidecarConfig c = yaml("caches: {a: {bootstrap-servers: k:9092, topic: t}}", Map.of());
        assertThat(c.httpPort()).isEqualTo(8080);
        assertThat(c.metricsPort()).isEqualTo(9090);
        assertThat(c.mainCache()).isEmpty();
        assertThat(c.caches().get(0).notifications().linger()).isEqualTo(NotifyConfig.DEFAULT_LINGER);
    }

    @Test
    void everyErrorNamesItsSetting() {
        List<String> e = errors("""
                http: {port: 70000}
                bogus: 1
                caches:
                  raw: {bootstrap-servers: k, topic: t}
                  "bad name": {bootstrap-servers: k, topic: t}
                  a:
                    main: true
                    topic: t
                    partitions: [0, x, 0]
                    offset-reset: newest
                    properties: {group.id: g, sasl.password: "${MISSING}"}
                    notify: {targets: [ftp://x/y], max-batch-bytes: 200000, on-failure: halt, linger: 5}
                  b: {main: true, bootstrap-servers: k, topic: t}
                """);
        assertThat(e).anyMatch(s -> s.startsWith("http.port: 70000 is out of range"));
        assertThat(e).anyMatch(s -> s.startsWith("bogus: unknown setting"));
        assertThat(e).anyMatch(s -> s.startsWith("caches.raw: cache name 'raw' collides"));
        assertThat(e).anyMatch(s -> s.startsWith("caches.bad name: cache name 'bad name' must match"));
        assertThat(e).contains("caches.a.bootstrap-servers: required");
        assertThat(e).anyMatch(s -> s.startsWith("caches.a.partitions: 'x' is not a partition number"));
        assertThat(e).contains("caches.a.partitions: partition 0 is listed twice");
        assertThat(e).contains("caches.a.offset-reset: 'newest' is not one of latest, earliest");
        assertThat(e).anyMatch(s -> s.startsWith("caches.a.properties.group.id: set by the sidecar"));
        assertThat(e).contains("caches.a.properties.sasl.password: environment variable MISSING is not set");
        assertThat(e).anyMatch(s -> s.startsWith("caches.a.notify.targets: 'ftp://x/y' is not an http"));
        assertThat(e).anyMatch(s -> s.startsWith("caches.a.notify.max-batch-bytes: 200000 is out of range"));
        assertThat(e).contains("caches.a.notify.on-failure: 'halt' is not one of skip, exit");
        assertThat(e).anyMatch(s -> s.startsWith("caches.a.notify.linger: unknown setting"));
        assertThat(e).anyMatch(s -> s.startsWith("caches.*.main: at most one cache may be main, found a, b"));
        assertThat(String.join("\n", e)).doesNotContain("secret");
    }

    @Test
    void reservedNamesAreRefused() {
        for (String name : CacheConfig.RESERVED_NAMES) {
            assertThat(errors("caches: {" + name + ": {bootstrap-servers: k, topic: t}}"))
                    .anyMatch(s -> s.startsWith("caches." + name + ": cache name '" + name + "' collides"));
        }
    }

    @Test
    void emptyOrBrokenFiles() {
        assertThat(errors("")).anyMatch(s -> s.contains("empty"));
        assertThat(errors("caches: {}")).anyMatch(s -> s.startsWith("caches: expected a non-empty mapping"));
        assertThatThrownBy(() -> yaml("caches: [", Map.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("not valid YAML");
        assertThatThrownBy(() -> yaml("caches: {a: {topic: t}}\ncaches: {}", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("Duplicate");
    }

    @Test
    void kkvEnvironmentMode() {
        SidecarConfig c = ConfigLoader.fromKkvEnvironment(Map.of(
                "KAFKA_BOOTSTRAP", "kafka:9092", "KAFKA_INCOMING_TOPIC", "topic1", "KAFKA_GROUP_ID", "pod-0",
                "QUARKUS_HTTP_PORT", "8090", "TARGET_SERVICE_NAME", "consumers", "TARGET_SERVICE_NAMESPACE", "dev",
                "TARGET_SERVICE_PORT", "3000", "TARGET_STATIC_HOST", "static-host", "ON_UPDATE_PATH", "/hook",
                "MP_MESSAGING_INCOMING_TOPIC_MAX_POLL_RECORDS", "100"));
        assertThat(c.httpPort()).isEqualTo(8090);
        CacheConfig cache = c.mainCache().orElseThrow();
        assertThat(cache.topic()).isEqualTo("topic1");
        assertThat(cache.groupId()).isEqualTo("pod-0");
        assertThat(cache.kafkaProperties()).containsEntry("max.poll.records", "100");
        assertThat(cache.notifications().targets()).containsExactly(URI.create("http://consumers.dev.svc:3000/hook"));
        // kkv posts the static host on TARGET_SERVICE_PORT (it ignores TARGET_STATIC_PORT); so do we when unset
        assertThat(cache.notifications().staticTargets()).containsExactly(URI.create("http://static-host:3000/hook"));
        assertThat(cache.notifications().retryTimes()).isEqualTo(5);
    }

    @Test
    void kkvEnvironmentModeErrors() {
        assertThatThrownBy(() -> ConfigLoader.fromKkvEnvironment(Map.of("TARGET_SERVICE_NAME", "x",
                "QUARKUS_HTTP_PORT", "http")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("KAFKA_BOOTSTRAP: required")
                .hasMessageContaining("KAFKA_INCOMING_TOPIC: required")
                .hasMessageContaining("KAFKA_GROUP_ID: required")
                .hasMessageContaining("TARGET_SERVICE_NAMESPACE: required when TARGET_SERVICE_NAME is set")
                .hasMessageContaining("QUARKUS_HTTP_PORT: 'http' is not an integer");
    }

    @Test
    void memoryBudget_defaultsAndSettings() {
        String cache = "caches:\n  a: {bootstrap-servers: k:9092, topic: a}\n";
        SidecarConfig d = yaml(cache, Map.of());
        assertThat(d.memory().maxBytes()).isZero(); // derived from the heap at start
        assertThat(d.memory().exceededExitAfter()).isEqualTo(Duration.ofSeconds(60));
        SidecarConfig c = yaml("memory: {max-bytes: 256Mi, exceeded-exit-after-ms: 5000}\n" + cache, Map.of());
        assertThat(c.memory().maxBytes()).isEqualTo(256L << 20);
        assertThat(c.memory().exceededExitAfter()).isEqualTo(Duration.ofSeconds(5));
        assertThat(yaml("memory: {max-bytes: '${MAX}'}\n" + cache, Map.of("MAX", "1073741824")).memory().maxBytes())
                .isEqualTo(1L << 30);
        assertThat(errors("memory: {max-bytes: 2GB, size: 1}\n" + cache)).containsExactlyInAnyOrder(
                "memory.size: unknown setting (known: exceeded-exit-after-ms, max-bytes)",
                "memory.max-bytes: '2GB' is not a byte count (e.g. 268435456 or 256Mi)");
        assertThat(errors("memory: {max-bytes: 1000, exceeded-exit-after-ms: -1}\n" + cache)).containsExactlyInAnyOrder(
                "memory.max-bytes: 1000 bytes is below the minimum of 2Mi (a cache holding a record holds a 1 MiB "
                        + "store page and its index)",
                "memory.exceeded-exit-after-ms: -1 is out of range 0..2147483647");
        // 1Mi cannot hold one 1 MiB page with its object header: every cache would exceed it at its first record
        assertThat(errors("memory: {max-bytes: 1Mi}\n" + cache)).containsExactly("memory.max-bytes: 1048576 bytes is "
                + "below the minimum of 2Mi (a cache holding a record holds a 1 MiB store page and its index)");
        assertThat(yaml("memory: {max-bytes: 2Mi}\n" + cache, Map.of()).memory().maxBytes()).isEqualTo(2L << 20);
        SidecarConfig env = ConfigLoader.fromKkvEnvironment(Map.of("KAFKA_BOOTSTRAP", "k:9092",
                "KAFKA_INCOMING_TOPIC", "t", "KAFKA_GROUP_ID", "g", "MIRROR_V3_MEMORY_MAX_BYTES", "64Mi",
                "MIRROR_V3_MEMORY_EXCEEDED_EXIT_AFTER_MS", "100"));
        assertThat(env.memory().maxBytes()).isEqualTo(64L << 20);
        assertThat(env.memory().exceededExitAfter()).isEqualTo(Duration.ofMillis(100));
    }
}
