package dev.mirrorv3.restore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.kafka.ConfigProviders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * A connector's name and settings, as kept in GitOps (the REST body {@code {"name":…,"config":{…}}} or the flat map, or
 * a JSON array of those for several connectors in one file) or as the Connect REST API returns them, with {@code ${env:…}}, {@code
 * ${file:…}} and {@code ${directory:…}} resolved by Kafka's own config providers, the way a worker that configures them would.
 */
public record ConnectorConfig(String name, Map<String, String> settings) {
    private static final ObjectMapper JSON = new ObjectMapper();

    static ConnectorConfig fromFile(Path file, String nameOverride) {
        return fromJson(readJson(file), nameOverride, file.toString());
    }

    /**
     * Every connector of the file: one, or each element of a JSON array (then each names itself).
     *
     * @param nameOverride {@code --connector}: the name of a connector the file does not name, or null
     */
    public static List<ConnectorConfig> allFromFile(Path file, String nameOverride) {
        List<JsonNode> roots = roots(file);
        if (nameOverride != null && roots.size() > 1) {
            throw new UsageException(file + " holds " + roots.size() + " connectors, each named in it: drop --connector " + nameOverride);
        }
        List<ConnectorConfig> out = new ArrayList<>();
        for (int i = 0; i < roots.size(); i++) {
            JsonNode root = roots.get(i);
            boolean named = root != null && (root.hasNonNull("name") || root.path("config").hasNonNull("name"));
            out.add(fromJson(root, named ? null : nameOverride, roots.size() == 1 ? file.toString() : file + " [" + i + "]"));
        }
        return out;
    }

    /**
     * Every connector of the file with the name optional (validate): config providers resolved, or not when
     * {@code resolve} is false (validate --offline: the secrets are the worker's).
     */
    public static List<ConnectorConfig> allForValidate(Path file, boolean resolve) {
        List<ConnectorConfig> out = new ArrayList<>();
        for (JsonNode root : roots(file)) {
            Map<String, String> settings = settings(root, file.toString());
            String name = root.hasNonNull("name") ? root.get("name").asText() : settings.getOrDefault("name", "");
            out.add(new ConnectorConfig(name, resolve ? resolve(settings, file.toString()) : Map.copyOf(settings)));
        }
        return out;
    }

    private static List<JsonNode> roots(Path file) {
        JsonNode root = readJson(file);
        if (root == null || !root.isArray()) {
            return java.util.Collections.singletonList(root);
        }
        if (root.isEmpty()) {
            throw new UsageException(file + " is an empty JSON array: expected connector configs");
        }
        List<JsonNode> out = new ArrayList<>();
        root.forEach(out::add);
        return out;
    }

    private static JsonNode readJson(Path file) {
        try {
            return JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UsageException("cannot read the connector config " + file + ": " + e.getMessage(), e);
        }
    }

    /** The connector's config as the Connect cluster stores it, config providers resolved here. */
    public static ConnectorConfig fromConnect(String url, String name, Duration timeout, ConnectAccess access) {
        Map<String, String> stored = new ConnectRest(url, timeout, access).config(name);
        return new ConnectorConfig(name, resolve(stored, "connector " + name + " at " + url));
    }

    static ConnectorConfig fromJson(JsonNode root, String nameOverride, String source) {
        Map<String, String> settings = settings(root, source);
        String name = nameOverride;
        if (name == null && root.hasNonNull("name")) {
            name = root.get("name").asText();
        }
        if (name == null && settings.containsKey("name")) {
            name = settings.get("name");
        }
        if (name == null || name.isBlank()) {
            throw new UsageException(source + " does not name the connector (destination.name defaults to it): pass --connector NAME,"
                    + " or use the REST body {\"name\":…,\"config\":{…}}");
        }
        return new ConnectorConfig(name, resolve(settings, source));
    }

    private static Map<String, String> settings(JsonNode root, String source) {
        if (root == null || !root.isObject()) {
            throw new UsageException(source + " is not a JSON object: expected {\"name\":…,\"config\":{…}} or the flat map of settings");
        }
        JsonNode config = root.has("config") && root.get("config").isObject() ? root.get("config") : root;
        Map<String, String> settings = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = config.properties().iterator(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isNull()) {
                settings.put(e.getKey(), e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString());
            }
        }
        return settings;
    }

    /** Resolves config provider references with Kafka's env, file and directory providers. */
    public static Map<String, String> resolve(Map<String, String> settings, String source) {
        try {
            return ConfigProviders.resolve(settings);
        } catch (ConfigException e) {
            throw new UsageException("cannot resolve the config providers in " + source + ": " + e.getMessage(), e);
        }
    }
}
