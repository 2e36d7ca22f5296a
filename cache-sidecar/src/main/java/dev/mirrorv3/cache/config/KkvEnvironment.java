package dev.mirrorv3.cache.config;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * kafka-keyvalue's environment-only mode: one cache, served as main, from kkv's variable names (see
 * {@link ConfigLoader#fromKkvEnvironment}).
 */
final class KkvEnvironment {
    /** kkv read extra consumer properties as {@code mp.messaging.incoming.topic.*}; so do we in env mode. */
    private static final String KKV_KAFKA_ENV_PREFIX = "MP_MESSAGING_INCOMING_TOPIC_";

    private final ConfigValues values;

    KkvEnvironment(ConfigValues values) {
        this.values = values;
    }

    SidecarConfig parse(Map<String, String> e) {
        String bootstrap = requiredEnv(e, "KAFKA_BOOTSTRAP");
        String topic = requiredEnv(e, "KAFKA_INCOMING_TOPIC");
        String groupId = requiredEnv(e, "KAFKA_GROUP_ID");
        String reset = e.getOrDefault("ONUPDATE_AFTER_OFFSET", "latest");
        if (!reset.equals("latest") && !reset.equals("earliest")) {
            values.error("ONUPDATE_AFTER_OFFSET: '" + reset + "' is not one of latest, earliest");
        }
        int httpPort = envInt(e, "QUARKUS_HTTP_PORT", SidecarConfig.DEFAULT_HTTP_PORT, 0, 65535);
        int metricsPort = envInt(e, "MIRROR_V3_METRICS_PORT", SidecarConfig.DEFAULT_METRICS_PORT, -1, 65535);
        String path = e.getOrDefault("ON_UPDATE_PATH", NotifyConfig.DEFAULT_PATH);
        if (!path.startsWith("/")) {
            values.error("ON_UPDATE_PATH: '" + path + "' must start with /");
        }
        int servicePort = envInt(e, "TARGET_SERVICE_PORT", 8080, 1, 65535);
        List<URI> targets = new ArrayList<>();
        String service = ConfigValues.blankToNull(e.get("TARGET_SERVICE_NAME"));
        if (service != null) {
            String namespace = ConfigValues.blankToNull(e.get("TARGET_SERVICE_NAMESPACE"));
            if (namespace == null) {
                values.error("TARGET_SERVICE_NAMESPACE: required when TARGET_SERVICE_NAME is set");
            } else {
                // A headless Service's DNS name resolves to the addresses of its ready pods.
                targets.add(values.uri("TARGET_SERVICE_NAME", "http://" + service + "." + namespace + ".svc:"
                        + servicePort + path));
            }
        }
        List<URI> statics = new ArrayList<>();
        String staticHost = ConfigValues.blankToNull(e.get("TARGET_STATIC_HOST"));
        if (staticHost != null) {
            // kkv posts the static host on TARGET_SERVICE_PORT and ignores TARGET_STATIC_PORT (a bug); we honour
            // TARGET_STATIC_PORT when it is set and fall back to TARGET_SERVICE_PORT otherwise.
            int staticPort = envInt(e, "TARGET_STATIC_PORT", servicePort, 1, 65535);
            statics.add(values.uri("TARGET_STATIC_HOST", "http://" + staticHost + ":" + staticPort + path));
        }
        int retries = envInt(e, "DISPATCHER_RETRY_TIMES", NotifyConfig.DEFAULT_RETRY_TIMES, 0, 100);
        int backoffSeconds = envInt(e, "DISPATCHER_RETRY_BACKOFF_SECONDS", 1, 0, 600);
        Map<String, String> props = new LinkedHashMap<>();
        e.forEach((k, v) -> {
            if (k.startsWith(KKV_KAFKA_ENV_PREFIX) && k.length() > KKV_KAFKA_ENV_PREFIX.length()) {
                String prop = k.substring(KKV_KAFKA_ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
                props.put(prop, v);
            }
        });
        NotifyConfig notify = new NotifyConfig(targets, statics, NotifyConfig.DEFAULT_LINGER,
                NotifyConfig.DEFAULT_MAX_BATCH_BYTES, NotifyConfig.DEFAULT_REQUEST_TIMEOUT, retries,
                backoffSeconds == 0 ? Duration.ofMillis(1) : Duration.ofSeconds(backoffSeconds),
                NotifyConfig.OnFailure.SKIP);
        CacheConfig cache = new CacheConfig("main", true, bootstrap, topic, List.of(), groupId, reset, props, notify);
        String maxBytes = ConfigValues.blankToNull(e.get("MIRROR_V3_MEMORY_MAX_BYTES"));
        SidecarConfig.Memory memory = new SidecarConfig.Memory(
                maxBytes == null ? 0 : values.bytes("MIRROR_V3_MEMORY_MAX_BYTES", maxBytes),
                Duration.ofMillis(envInt(e, "MIRROR_V3_MEMORY_EXCEEDED_EXIT_AFTER_MS",
                        (int) SidecarConfig.Memory.DEFAULT_EXCEEDED_EXIT_AFTER.toMillis(), 0, Integer.MAX_VALUE)));
        return new SidecarConfig("0.0.0.0", httpPort, Runtime.getRuntime().availableProcessors(), metricsPort,
                SidecarConfig.DEFAULT_SHUTDOWN_DEADLINE, memory,
                List.of(cache));
    }

    private String requiredEnv(Map<String, String> e, String name) {
        String v = ConfigValues.blankToNull(e.get(name));
        if (v == null) {
            values.error(name + ": required in the kafka-keyvalue environment mode (or pass --config FILE)");
        }
        return v;
    }

    private int envInt(Map<String, String> e, String name, int def, int min, int max) {
        String v = ConfigValues.blankToNull(e.get(name));
        if (v == null) {
            return def;
        }
        try {
            int i = Integer.parseInt(v.trim());
            if (i < min || i > max) {
                values.error(name + ": " + i + " is out of range " + min + ".." + max);
                return def;
            }
            return i;
        } catch (NumberFormatException ex) {
            values.error(name + ": '" + v + "' is not an integer");
            return def;
        }
    }
}
