package dev.mirrorv3.cache.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads the YAML config file, or kafka-keyvalue's environment variables, into a {@link SidecarConfig}. Every
 * problem is collected with the name of its setting and reported at once in a {@link ConfigException}.
 *
 * <p>String values in the file may refer to environment variables as {@code ${NAME}} or
 * {@code ${NAME:-default}}, so secrets need not be written into it.
 */
public final class ConfigLoader {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private final ConfigValues values;

    private ConfigLoader(Function<String, String> env) {
        this.values = new ConfigValues(env);
    }

    /** Loads a YAML config file; {@code env} resolves {@code ${NAME}} references. */
    public static SidecarConfig fromYaml(Path file, Function<String, String> env) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException(List.of("--config: cannot read " + file + ": " + e.getMessage()));
        }
        return fromYaml(text, env);
    }

    public static SidecarConfig fromYaml(String yaml, Function<String, String> env) {
        JsonNode root;
        try {
            YAMLMapper mapper = YAMLMapper.builder().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();
            root = mapper.readTree(yaml);
        } catch (JsonProcessingException e) {
            throw new ConfigException(List.of("config file is not valid YAML: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")")));
        }
        ConfigLoader loader = new ConfigLoader(env);
        SidecarConfig config = loader.parse(root);
        if (!loader.values.errors().isEmpty()) {
            throw new ConfigException(loader.values.errors());
        }
        return config;
    }

    /**
     * kafka-keyvalue's environment-only mode: one cache, served as main. Names as in kkv's application.yaml
     * (KAFKA_BOOTSTRAP, KAFKA_INCOMING_TOPIC, KAFKA_GROUP_ID, ONUPDATE_AFTER_OFFSET, QUARKUS_HTTP_PORT,
     * ON_UPDATE_PATH, TARGET_SERVICE_NAME/_NAMESPACE/_PORT, TARGET_STATIC_HOST/_PORT,
     * DISPATCHER_RETRY_TIMES/_BACKOFF_SECONDS), plus MIRROR_V3_METRICS_PORT.
     */
    public static SidecarConfig fromKkvEnvironment(Map<String, String> environment) {
        ConfigValues values = new ConfigValues(environment::get);
        SidecarConfig config = new KkvEnvironment(values).parse(environment);
        if (!values.errors().isEmpty()) {
            throw new ConfigException(values.errors());
        }
        return config;
    }

    private SidecarConfig parse(JsonNode root) {
        if (root == null || root.isMissingNode() || root.isNull()) {
            values.error("config file is empty: it needs at least 'caches'");
            return null;
        }
        if (!root.isObject()) {
            values.error("config file: expected a mapping at the top level");
            return null;
        }
        values.knownKeys(root, "", Set.of("http", "metrics", "shutdown", "memory", "caches"));
        JsonNode http = values.object(root, "http");
        values.knownKeys(http, "http.", Set.of("host", "port", "io-threads"));
        String host = values.string(http, "http.host", "host", "0.0.0.0");
        int httpPort = values.integer(http, "http.port", "port", SidecarConfig.DEFAULT_HTTP_PORT, 0, 65535);
        int ioThreads = values.integer(http, "http.io-threads", "io-threads",
                Runtime.getRuntime().availableProcessors(), 1, 256);
        JsonNode metrics = values.object(root, "metrics");
        values.knownKeys(metrics, "metrics.", Set.of("port"));
        int metricsPort = values.integer(metrics, "metrics.port", "port", SidecarConfig.DEFAULT_METRICS_PORT, -1,
                65535);
        JsonNode shutdown = values.object(root, "shutdown");
        values.knownKeys(shutdown, "shutdown.", Set.of("deadline-ms"));
        Duration deadline = Duration.ofMillis(values.integer(shutdown, "shutdown.deadline-ms", "deadline-ms",
                (int) SidecarConfig.DEFAULT_SHUTDOWN_DEADLINE.toMillis(), 0, Integer.MAX_VALUE));
        JsonNode memoryNode = values.object(root, "memory");
        values.knownKeys(memoryNode, "memory.", Set.of("max-bytes", "exceeded-exit-after-ms"));
        JsonNode maxBytesNode = memoryNode == null ? null : memoryNode.get("max-bytes");
        long maxBytes = maxBytesNode == null || maxBytesNode.isNull() ? 0
                : values.bytes("memory.max-bytes", values.substitute("memory.max-bytes", maxBytesNode.asText()));
        SidecarConfig.Memory memory = new SidecarConfig.Memory(maxBytes, Duration.ofMillis(values.integer(memoryNode,
                "memory.exceeded-exit-after-ms", "exceeded-exit-after-ms",
                (int) SidecarConfig.Memory.DEFAULT_EXCEEDED_EXIT_AFTER.toMillis(), 0, Integer.MAX_VALUE)));

        List<CacheConfig> caches = new ArrayList<>();
        JsonNode cachesNode = root.get("caches");
        if (cachesNode == null || cachesNode.isNull()) {
            values.error("caches: required, a mapping of cache name to its settings");
        } else if (!cachesNode.isObject() || cachesNode.isEmpty()) {
            values.error("caches: expected a non-empty mapping of cache name to its settings");
        } else {
            Iterator<Map.Entry<String, JsonNode>> it = cachesNode.properties().iterator();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                CacheConfig cache = parseCache(e.getKey(), e.getValue());
                if (cache != null) {
                    caches.add(cache);
                }
            }
            List<String> mains = caches.stream().filter(CacheConfig::main).map(CacheConfig::name).toList();
            if (mains.size() > 1) {
                values.error("caches.*.main: at most one cache may be main, found " + String.join(", ", mains));
            }
            if (httpPort != 0 && httpPort == metricsPort) {
                values.error("metrics.port: must differ from http.port (" + httpPort + ")");
            }
        }
        return new SidecarConfig(host, httpPort, ioThreads, metricsPort, deadline, memory, caches);
    }

    private CacheConfig parseCache(String name, JsonNode node) {
        String p = "caches." + name + ".";
        validateName(name, "caches." + name);
        if (node == null || !node.isObject()) {
            values.error("caches." + name + ": expected a mapping of settings");
            return null;
        }
        values.knownKeys(node, p, Set.of("main", "bootstrap-servers", "topic", "partitions", "group-id", "offset-reset",
                "properties", "notify"));
        boolean main = values.bool(node, p + "main", "main", false);
        String bootstrap = values.required(node, p + "bootstrap-servers", "bootstrap-servers");
        String topic = values.required(node, p + "topic", "topic");
        List<Integer> partitions = parsePartitions(p, node.get("partitions"));
        String groupId = values.string(node, p + "group-id", "group-id", null);
        String reset = values.string(node, p + "offset-reset", "offset-reset", "latest");
        if (reset != null && !reset.equals("latest") && !reset.equals("earliest")) {
            values.error(p + "offset-reset: '" + reset + "' is not one of latest, earliest");
        }
        Map<String, String> props = parseProperties(p, node.get("properties"));
        NotifyConfig notify = parseNotify(p + "notify", node.get("notify"));
        return new CacheConfig(name, main, bootstrap, topic, partitions, groupId, reset, props,
                notify == null ? NotifyConfig.none() : notify);
    }

    /** {@code caches.<name>.partitions}: distinct partition numbers; absent, every partition of the topic. */
    private List<Integer> parsePartitions(String p, JsonNode parts) {
        List<Integer> partitions = new ArrayList<>();
        if (parts != null && !parts.isNull()) {
            if (!parts.isArray()) {
                values.error(p + "partitions: expected a list of partition numbers, e.g. [0, 1]");
            } else {
                for (JsonNode part : parts) {
                    if (!part.canConvertToInt() || !part.isIntegralNumber() || part.asInt() < 0) {
                        values.error(p + "partitions: '" + part.asText() + "' is not a partition number (>= 0)");
                    } else if (partitions.contains(part.asInt())) {
                        values.error(p + "partitions: partition " + part.asInt() + " is listed twice");
                    } else {
                        partitions.add(part.asInt());
                    }
                }
            }
        }
        return partitions;
    }

    /** {@code caches.<name>.properties}: scalar Kafka consumer properties, without those the sidecar sets itself. */
    private Map<String, String> parseProperties(String p, JsonNode propsNode) {
        Map<String, String> props = new LinkedHashMap<>();
        if (propsNode != null && !propsNode.isNull()) {
            if (!propsNode.isObject()) {
                values.error(p + "properties: expected a mapping of Kafka consumer properties");
            } else {
                propsNode.properties().forEach(e -> {
                    if (e.getValue().isContainerNode()) {
                        values.error(p + "properties." + e.getKey() + ": expected a scalar value");
                    } else {
                        props.put(e.getKey(), values.substitute(p + "properties." + e.getKey(), e.getValue().asText()));
                    }
                });
                for (String forced : List.of("key.deserializer", "value.deserializer", "enable.auto.commit",
                        "group.id", "bootstrap.servers", "auto.offset.reset")) {
                    if (props.containsKey(forced)) {
                        values.error(p + "properties." + forced + ": set by the sidecar, remove it"
                                + (forced.equals("group.id") ? " (use group-id)" : "")
                                + (forced.equals("bootstrap.servers") ? " (use bootstrap-servers)" : "")
                                + (forced.equals("auto.offset.reset") ? " (use offset-reset)" : ""));
                    }
                }
            }
        }
        return props;
    }

    private NotifyConfig parseNotify(String p, JsonNode node) {
        if (node == null || node.isNull()) {
            return NotifyConfig.none();
        }
        if (!node.isObject()) {
            values.error(p + ": expected a mapping");
            return null;
        }
        String dot = p + ".";
        values.knownKeys(node, dot, Set.of("targets", "static-targets", "linger-ms", "max-batch-bytes",
                "request-timeout-ms", "retry-times", "retry-backoff-ms", "on-failure"));
        List<URI> targets = values.urls(node, dot + "targets", "targets");
        List<URI> statics = values.urls(node, dot + "static-targets", "static-targets");
        Duration linger = Duration.ofMillis(values.integer(node, dot + "linger-ms", "linger-ms",
                (int) NotifyConfig.DEFAULT_LINGER.toMillis(), 0, 60_000));
        int maxBytes = values.integer(node, dot + "max-batch-bytes", "max-batch-bytes",
                NotifyConfig.DEFAULT_MAX_BATCH_BYTES, 1024, NotifyConfig.MAX_BATCH_BYTES_LIMIT);
        Duration timeout = Duration.ofMillis(values.integer(node, dot + "request-timeout-ms", "request-timeout-ms",
                (int) NotifyConfig.DEFAULT_REQUEST_TIMEOUT.toMillis(), 1, 600_000));
        int retries = values.integer(node, dot + "retry-times", "retry-times", NotifyConfig.DEFAULT_RETRY_TIMES, 0,
                100);
        Duration backoff = Duration.ofMillis(values.integer(node, dot + "retry-backoff-ms", "retry-backoff-ms",
                (int) NotifyConfig.DEFAULT_RETRY_BACKOFF.toMillis(), 1, 600_000));
        String onFailure = values.string(node, dot + "on-failure", "on-failure", "skip");
        NotifyConfig.OnFailure of = NotifyConfig.OnFailure.SKIP;
        if ("exit".equals(onFailure)) {
            of = NotifyConfig.OnFailure.EXIT;
        } else if (onFailure != null && !"skip".equals(onFailure)) {
            values.error(dot + "on-failure: '" + onFailure + "' is not one of skip, exit");
        }
        return new NotifyConfig(targets, statics, linger, maxBytes, timeout, retries, backoff, of);
    }

    private void validateName(String name, String setting) {
        if (!NAME.matcher(name).matches()) {
            values.error(setting + ": cache name '" + name + "' must match " + NAME.pattern()
                    + " (it is a URL path segment)");
        }
        if (CacheConfig.RESERVED_NAMES.contains(name)) {
            values.error(setting + ": cache name '" + name + "' collides with the path segments "
                    + String.join(" | ", CacheConfig.RESERVED_NAMES) + " of the main cache's routes");
        }
    }
}
