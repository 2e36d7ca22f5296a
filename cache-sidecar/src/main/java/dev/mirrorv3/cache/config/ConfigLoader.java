package dev.mirrorv3.cache.config;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads the YAML config file, or kafka-keyvalue's environment variables, into a {@link SidecarConfig}. Every
 * problem is collected with the name of its setting and reported at once in a {@link ConfigException}.
 *
 * <p>String values in the file may refer to environment variables as {@code ${NAME}} or
 * {@code ${NAME:-default}}, so secrets need not be written into it.
 */
public final class ConfigLoader {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Pattern ENV_REF = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");
    /** kkv read extra consumer properties as {@code mp.messaging.incoming.topic.*}; so do we in env mode. */
    private static final String KKV_KAFKA_ENV_PREFIX = "MP_MESSAGING_INCOMING_TOPIC_";

    private final Function<String, String> env;
    private final List<String> errors = new ArrayList<>();

    private ConfigLoader(Function<String, String> env) {
        this.env = env;
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
        if (!loader.errors.isEmpty()) {
            throw new ConfigException(loader.errors);
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
        ConfigLoader loader = new ConfigLoader(environment::get);
        SidecarConfig config = loader.parseEnv(environment);
        if (!loader.errors.isEmpty()) {
            throw new ConfigException(loader.errors);
        }
        return config;
    }

    // ---------------------------------------------------------------- YAML

    private SidecarConfig parse(JsonNode root) {
        if (root == null || root.isMissingNode() || root.isNull()) {
            errors.add("config file is empty: it needs at least 'caches'");
            return null;
        }
        if (!root.isObject()) {
            errors.add("config file: expected a mapping at the top level");
            return null;
        }
        knownKeys(root, "", Set.of("http", "metrics", "shutdown", "memory", "caches"));
        JsonNode http = object(root, "http");
        knownKeys(http, "http.", Set.of("host", "port", "io-threads"));
        String host = string(http, "http.host", "host", "0.0.0.0");
        int httpPort = integer(http, "http.port", "port", SidecarConfig.DEFAULT_HTTP_PORT, 0, 65535);
        int ioThreads = integer(http, "http.io-threads", "io-threads", Runtime.getRuntime().availableProcessors(), 1,
                256);
        JsonNode metrics = object(root, "metrics");
        knownKeys(metrics, "metrics.", Set.of("port"));
        int metricsPort = integer(metrics, "metrics.port", "port", SidecarConfig.DEFAULT_METRICS_PORT, -1, 65535);
        JsonNode shutdown = object(root, "shutdown");
        knownKeys(shutdown, "shutdown.", Set.of("deadline-ms"));
        Duration deadline = Duration.ofMillis(integer(shutdown, "shutdown.deadline-ms", "deadline-ms",
                (int) SidecarConfig.DEFAULT_SHUTDOWN_DEADLINE.toMillis(), 0, Integer.MAX_VALUE));
        JsonNode memoryNode = object(root, "memory");
        knownKeys(memoryNode, "memory.", Set.of("max-bytes", "exceeded-exit-after-ms"));
        JsonNode maxBytesNode = memoryNode == null ? null : memoryNode.get("max-bytes");
        long maxBytes = maxBytesNode == null || maxBytesNode.isNull() ? 0
                : bytes("memory.max-bytes", substitute("memory.max-bytes", maxBytesNode.asText()));
        SidecarConfig.Memory memory = new SidecarConfig.Memory(maxBytes, Duration.ofMillis(integer(memoryNode,
                "memory.exceeded-exit-after-ms", "exceeded-exit-after-ms",
                (int) SidecarConfig.Memory.DEFAULT_EXCEEDED_EXIT_AFTER.toMillis(), 0, Integer.MAX_VALUE)));

        List<CacheConfig> caches = new ArrayList<>();
        JsonNode cachesNode = root.get("caches");
        if (cachesNode == null || cachesNode.isNull()) {
            errors.add("caches: required, a mapping of cache name to its settings");
        } else if (!cachesNode.isObject() || cachesNode.isEmpty()) {
            errors.add("caches: expected a non-empty mapping of cache name to its settings");
        } else {
            Iterator<Map.Entry<String, JsonNode>> it = cachesNode.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                CacheConfig cache = parseCache(e.getKey(), e.getValue());
                if (cache != null) {
                    caches.add(cache);
                }
            }
            List<String> mains = caches.stream().filter(CacheConfig::main).map(CacheConfig::name).toList();
            if (mains.size() > 1) {
                errors.add("caches.*.main: at most one cache may be main, found " + String.join(", ", mains));
            }
            if (httpPort != 0 && httpPort == metricsPort) {
                errors.add("metrics.port: must differ from http.port (" + httpPort + ")");
            }
        }
        return new SidecarConfig(host, httpPort, ioThreads, metricsPort, deadline, memory, caches);
    }

    private CacheConfig parseCache(String name, JsonNode node) {
        String p = "caches." + name + ".";
        validateName(name, "caches." + name);
        if (node == null || !node.isObject()) {
            errors.add("caches." + name + ": expected a mapping of settings");
            return null;
        }
        knownKeys(node, p, Set.of("main", "bootstrap-servers", "topic", "partitions", "group-id", "offset-reset",
                "properties", "notify"));
        boolean main = bool(node, p + "main", "main", false);
        String bootstrap = required(node, p + "bootstrap-servers", "bootstrap-servers");
        String topic = required(node, p + "topic", "topic");
        List<Integer> partitions = new ArrayList<>();
        JsonNode parts = node.get("partitions");
        if (parts != null && !parts.isNull()) {
            if (!parts.isArray()) {
                errors.add(p + "partitions: expected a list of partition numbers, e.g. [0, 1]");
            } else {
                for (JsonNode part : parts) {
                    if (!part.canConvertToInt() || !part.isIntegralNumber() || part.asInt() < 0) {
                        errors.add(p + "partitions: '" + part.asText() + "' is not a partition number (>= 0)");
                    } else if (partitions.contains(part.asInt())) {
                        errors.add(p + "partitions: partition " + part.asInt() + " is listed twice");
                    } else {
                        partitions.add(part.asInt());
                    }
                }
            }
        }
        String groupId = string(node, p + "group-id", "group-id", null);
        String reset = string(node, p + "offset-reset", "offset-reset", "latest");
        if (reset != null && !reset.equals("latest") && !reset.equals("earliest")) {
            errors.add(p + "offset-reset: '" + reset + "' is not one of latest, earliest");
        }
        Map<String, String> props = new LinkedHashMap<>();
        JsonNode propsNode = node.get("properties");
        if (propsNode != null && !propsNode.isNull()) {
            if (!propsNode.isObject()) {
                errors.add(p + "properties: expected a mapping of Kafka consumer properties");
            } else {
                propsNode.fields().forEachRemaining(e -> {
                    if (e.getValue().isContainerNode()) {
                        errors.add(p + "properties." + e.getKey() + ": expected a scalar value");
                    } else {
                        props.put(e.getKey(), substitute(p + "properties." + e.getKey(), e.getValue().asText()));
                    }
                });
                for (String forced : List.of("key.deserializer", "value.deserializer", "enable.auto.commit",
                        "group.id", "bootstrap.servers", "auto.offset.reset")) {
                    if (props.containsKey(forced)) {
                        errors.add(p + "properties." + forced + ": set by the sidecar, remove it"
                                + (forced.equals("group.id") ? " (use group-id)" : "")
                                + (forced.equals("bootstrap.servers") ? " (use bootstrap-servers)" : "")
                                + (forced.equals("auto.offset.reset") ? " (use offset-reset)" : ""));
                    }
                }
            }
        }
        NotifyConfig notify = parseNotify(p + "notify", node.get("notify"));
        return new CacheConfig(name, main, bootstrap, topic, partitions, groupId, reset, props,
                notify == null ? NotifyConfig.none() : notify);
    }

    private NotifyConfig parseNotify(String p, JsonNode node) {
        if (node == null || node.isNull()) {
            return NotifyConfig.none();
        }
        if (!node.isObject()) {
            errors.add(p + ": expected a mapping");
            return null;
        }
        String dot = p + ".";
        knownKeys(node, dot, Set.of("targets", "static-targets", "linger-ms", "max-batch-bytes", "request-timeout-ms",
                "retry-times", "retry-backoff-ms", "on-failure"));
        List<URI> targets = urls(node, dot + "targets", "targets");
        List<URI> statics = urls(node, dot + "static-targets", "static-targets");
        Duration linger = Duration.ofMillis(integer(node, dot + "linger-ms", "linger-ms",
                (int) NotifyConfig.DEFAULT_LINGER.toMillis(), 0, 60_000));
        int maxBytes = integer(node, dot + "max-batch-bytes", "max-batch-bytes", NotifyConfig.DEFAULT_MAX_BATCH_BYTES,
                1024, NotifyConfig.MAX_BATCH_BYTES_LIMIT);
        Duration timeout = Duration.ofMillis(integer(node, dot + "request-timeout-ms", "request-timeout-ms",
                (int) NotifyConfig.DEFAULT_REQUEST_TIMEOUT.toMillis(), 1, 600_000));
        int retries = integer(node, dot + "retry-times", "retry-times", NotifyConfig.DEFAULT_RETRY_TIMES, 0, 100);
        Duration backoff = Duration.ofMillis(integer(node, dot + "retry-backoff-ms", "retry-backoff-ms",
                (int) NotifyConfig.DEFAULT_RETRY_BACKOFF.toMillis(), 1, 600_000));
        String onFailure = string(node, dot + "on-failure", "on-failure", "skip");
        NotifyConfig.OnFailure of = NotifyConfig.OnFailure.SKIP;
        if ("exit".equals(onFailure)) {
            of = NotifyConfig.OnFailure.EXIT;
        } else if (onFailure != null && !"skip".equals(onFailure)) {
            errors.add(dot + "on-failure: '" + onFailure + "' is not one of skip, exit");
        }
        return new NotifyConfig(targets, statics, linger, maxBytes, timeout, retries, backoff, of);
    }

    // ---------------------------------------------------------------- environment (kkv)

    private SidecarConfig parseEnv(Map<String, String> e) {
        String bootstrap = requiredEnv(e, "KAFKA_BOOTSTRAP");
        String topic = requiredEnv(e, "KAFKA_INCOMING_TOPIC");
        String groupId = requiredEnv(e, "KAFKA_GROUP_ID");
        String reset = e.getOrDefault("ONUPDATE_AFTER_OFFSET", "latest");
        if (!reset.equals("latest") && !reset.equals("earliest")) {
            errors.add("ONUPDATE_AFTER_OFFSET: '" + reset + "' is not one of latest, earliest");
        }
        int httpPort = envInt(e, "QUARKUS_HTTP_PORT", SidecarConfig.DEFAULT_HTTP_PORT, 0, 65535);
        int metricsPort = envInt(e, "MIRROR_V3_METRICS_PORT", SidecarConfig.DEFAULT_METRICS_PORT, -1, 65535);
        String path = e.getOrDefault("ON_UPDATE_PATH", NotifyConfig.DEFAULT_PATH);
        if (!path.startsWith("/")) {
            errors.add("ON_UPDATE_PATH: '" + path + "' must start with /");
        }
        int servicePort = envInt(e, "TARGET_SERVICE_PORT", 8080, 1, 65535);
        List<URI> targets = new ArrayList<>();
        String service = blankToNull(e.get("TARGET_SERVICE_NAME"));
        if (service != null) {
            String namespace = blankToNull(e.get("TARGET_SERVICE_NAMESPACE"));
            if (namespace == null) {
                errors.add("TARGET_SERVICE_NAMESPACE: required when TARGET_SERVICE_NAME is set");
            } else {
                // A headless Service's DNS name resolves to the addresses of its ready pods.
                targets.add(uri("TARGET_SERVICE_NAME", "http://" + service + "." + namespace + ".svc:" + servicePort
                        + path));
            }
        }
        List<URI> statics = new ArrayList<>();
        String staticHost = blankToNull(e.get("TARGET_STATIC_HOST"));
        if (staticHost != null) {
            // kkv posts the static host on TARGET_SERVICE_PORT and ignores TARGET_STATIC_PORT (a bug); we honour
            // TARGET_STATIC_PORT when it is set and fall back to TARGET_SERVICE_PORT otherwise.
            int staticPort = envInt(e, "TARGET_STATIC_PORT", servicePort, 1, 65535);
            statics.add(uri("TARGET_STATIC_HOST", "http://" + staticHost + ":" + staticPort + path));
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
        String maxBytes = blankToNull(e.get("MIRROR_V3_MEMORY_MAX_BYTES"));
        SidecarConfig.Memory memory = new SidecarConfig.Memory(
                maxBytes == null ? 0 : bytes("MIRROR_V3_MEMORY_MAX_BYTES", maxBytes),
                Duration.ofMillis(envInt(e, "MIRROR_V3_MEMORY_EXCEEDED_EXIT_AFTER_MS",
                        (int) SidecarConfig.Memory.DEFAULT_EXCEEDED_EXIT_AFTER.toMillis(), 0, Integer.MAX_VALUE)));
        return new SidecarConfig("0.0.0.0", httpPort, Runtime.getRuntime().availableProcessors(), metricsPort,
                SidecarConfig.DEFAULT_SHUTDOWN_DEADLINE, memory,
                List.of(cache));
    }

    private String requiredEnv(Map<String, String> e, String name) {
        String v = blankToNull(e.get(name));
        if (v == null) {
            errors.add(name + ": required in the kafka-keyvalue environment mode (or pass --config FILE)");
        }
        return v;
    }

    private int envInt(Map<String, String> e, String name, int def, int min, int max) {
        String v = blankToNull(e.get(name));
        if (v == null) {
            return def;
        }
        try {
            int i = Integer.parseInt(v.trim());
            if (i < min || i > max) {
                errors.add(name + ": " + i + " is out of range " + min + ".." + max);
                return def;
            }
            return i;
        } catch (NumberFormatException ex) {
            errors.add(name + ": '" + v + "' is not an integer");
            return def;
        }
    }

    // ---------------------------------------------------------------- helpers

    private void validateName(String name, String setting) {
        if (!NAME.matcher(name).matches()) {
            errors.add(setting + ": cache name '" + name + "' must match " + NAME.pattern()
                    + " (it is a URL path segment)");
        }
        if (CacheConfig.RESERVED_NAMES.contains(name)) {
            errors.add(setting + ": cache name '" + name + "' collides with the path segments "
                    + String.join(" | ", CacheConfig.RESERVED_NAMES) + " of the main cache's routes");
        }
    }

    private void knownKeys(JsonNode node, String prefix, Set<String> known) {
        if (node == null || !node.isObject()) {
            return;
        }
        node.fieldNames().forEachRemaining(k -> {
            if (!known.contains(k)) {
                errors.add(prefix + k + ": unknown setting (known: " + String.join(", ", new TreeSet<>(known)) + ")");
            }
        });
    }

    private JsonNode object(JsonNode parent, String name) {
        JsonNode n = parent.get(name);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isObject()) {
            errors.add(name + ": expected a mapping");
            return null;
        }
        return n;
    }

    private String required(JsonNode node, String setting, String field) {
        String v = string(node, setting, field, null);
        if (v == null || v.isBlank()) {
            errors.add(setting + ": required");
        }
        return v;
    }

    private String string(JsonNode node, String setting, String field, String def) {
        JsonNode n = node == null ? null : node.get(field);
        if (n == null || n.isNull()) {
            return def;
        }
        if (n.isContainerNode()) {
            errors.add(setting + ": expected a single value");
            return def;
        }
        return substitute(setting, n.asText());
    }

    private boolean bool(JsonNode node, String setting, String field, boolean def) {
        JsonNode n = node == null ? null : node.get(field);
        if (n == null || n.isNull()) {
            return def;
        }
        String s = n.isBoolean() ? String.valueOf(n.booleanValue()) : substitute(setting, n.asText());
        if ("true".equals(s)) {
            return true;
        }
        if ("false".equals(s)) {
            return false;
        }
        errors.add(setting + ": '" + s + "' is not true or false");
        return def;
    }

    private int integer(JsonNode node, String setting, String field, int def, int min, int max) {
        JsonNode n = node == null ? null : node.get(field);
        if (n == null || n.isNull()) {
            return def;
        }
        String s = n.isIntegralNumber() ? n.asText() : substitute(setting, n.asText());
        try {
            long v = Long.parseLong(s.trim());
            if (v < min || v > max) {
                errors.add(setting + ": " + v + " is out of range " + min + ".." + max);
                return def;
            }
            return (int) v;
        } catch (NumberFormatException e) {
            errors.add(setting + ": '" + s + "' is not an integer");
            return def;
        }
    }

    private static final Pattern BYTES = Pattern.compile("([0-9]+)\\s*(|Ki|Mi|Gi|Ti)");

    /** A byte count, plain or with a binary suffix as Kubernetes writes it ({@code 512Mi}); at least 1 MiB. */
    private long bytes(String setting, String text) {
        Matcher m = BYTES.matcher(text.trim());
        if (!m.matches()) {
            errors.add(setting + ": '" + text + "' is not a byte count (e.g. 268435456 or 256Mi)");
            return 0;
        }
        int shift = switch (m.group(2)) {
            case "Ki" -> 10;
            case "Mi" -> 20;
            case "Gi" -> 30;
            case "Ti" -> 40;
            default -> 0;
        };
        try {
            long n = Long.parseLong(m.group(1));
            if (n > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            long v = n << shift;
            if (v < 1 << 20) {
                errors.add(setting + ": " + v + " bytes is below the minimum of 1Mi");
                return 0;
            }
            return v;
        } catch (NumberFormatException e) {
            errors.add(setting + ": '" + text + "' is too large");
            return 0;
        }
    }

    private List<URI> urls(JsonNode node, String setting, String field) {
        JsonNode n = node.get(field);
        List<URI> out = new ArrayList<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isArray()) {
            errors.add(setting + ": expected a list of http:// URLs");
            return out;
        }
        for (JsonNode u : n) {
            URI uri = uri(setting, substitute(setting, u.asText()));
            if (uri != null) {
                out.add(uri);
            }
        }
        return out;
    }

    private URI uri(String setting, String text) {
        try {
            URI uri = new URI(text);
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                errors.add(setting + ": '" + text + "' is not an http:// or https:// URL");
                return null;
            }
            if (uri.getHost() == null) {
                errors.add(setting + ": '" + text + "' has no host name");
                return null;
            }
            return uri;
        } catch (URISyntaxException e) {
            errors.add(setting + ": '" + text + "' is not a URL: " + e.getReason());
            return null;
        }
    }

    private String substitute(String setting, String value) {
        if (value == null || value.indexOf("${") < 0) {
            return value;
        }
        Matcher m = ENV_REF.matcher(value);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = env.apply(m.group(1));
            if (v == null) {
                v = m.group(2);
            }
            if (v == null) {
                errors.add(setting + ": environment variable " + m.group(1) + " is not set");
                v = "";
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(v));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
