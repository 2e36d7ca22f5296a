package dev.mirrorv3.cache.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.charset.StandardCharsets;

/**
 * The OpenAPI 3.1 description of the HTTP surface, generated here so that it follows the code; the committed copy is
 * {@code cache-sidecar/config/openapi.json} (a test checks it matches; {@code main} prints it).
 */
public final class OpenApi {

    private static final ObjectMapper JSON_MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private OpenApi() {
    }

    public static void main(String[] args) {
        System.out.print(new String(json(), StandardCharsets.UTF_8));
    }

    public static byte[] json() {
        try {
            return (JSON_MAPPER.writeValueAsString(spec()) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static byte[] yaml() {
        try {
            return new YAMLMapper().writeValueAsBytes(spec());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static ObjectNode spec() {
        ObjectNode root = JSON_MAPPER.createObjectNode();
        root.put("openapi", "3.1.0");
        ObjectNode info = root.putObject("info");
        info.put("title", "mirror-v3 cache-sidecar");
        info.put("version", "1");
        info.put("description", "Key → latest value of compacted Kafka topics over HTTP, compatible with "
                + "Yolean/kafka-keyvalue (/cache/v1) and its kkv-v1 update notifications.");
        ObjectNode paths = root.putObject("paths");
        cachePaths(paths, true);
        cachePaths(paths, false);
        healthPaths(paths);
        shutdownPaths(paths);
        response(get(paths, "/openapi.json", "This description", "OpenAPI 3.1, JSON."), "200", "OpenAPI",
                "application/json", false);
        response(get(paths, "/openapi.yaml", "This description", "OpenAPI 3.1, YAML."), "200", "OpenAPI",
                "application/yaml", false);
        response(get(paths, "/docs", "API UI", "Swagger UI, served from the jar."), "200", "HTML", "text/html",
                false);
        return root;
    }

    /** A cache's routes: under {@code /cache/v1/{cache}} for a named cache, under {@code /cache/v1} for the main one. */
    private static void cachePaths(ObjectNode paths, boolean prefixed) {
        String base = prefixed ? "/cache/v1/{cache}" : "/cache/v1";
        String who = prefixed ? "the named cache" : "the main cache";
        ObjectNode raw = get(paths, base + "/raw/{key}", "Value of a key in " + who,
                "The exact stored bytes. 404 if absent or deleted. 503 with the readiness JSON until the cache "
                        + "has caught up (sticky).");
        params(raw, prefixed, "key");
        response(raw, "200", "The value", "application/octet-stream", true);
        response(raw, "404", "No such key", null, false);
        response(raw, "503", "Not caught up yet", "application/json", false);

        ObjectNode keys = get(paths, base + "/keys", "Every key of " + who,
                "Each key as UTF-8 followed by \\n; empty body for an empty cache. Streamed.");
        params(keys, prefixed);
        response(keys, "200", "One key per line", "application/octet-stream", true);
        response(keys, "503", "Not caught up yet", "application/json", false);

        ObjectNode values = get(paths, base + "/values", "Every value of " + who,
                "Each value's bytes followed by \\n, in the order of /keys. Streamed.");
        params(values, prefixed);
        response(values, "200", "One value per line", "text/plain;charset=UTF-8", true);
        response(values, "503", "Not caught up yet", "application/json", false);

        ObjectNode offset = get(paths, base + "/offset/{topic}/{partition}", "Last seen offset",
                "Offset of the last consumed record of a partition (low watermark - 1 before any). Not gated by "
                        + "readiness. 204 for a topic or partition the cache does not read.");
        params(offset, prefixed, "topic", "partition");
        response(offset, "200", "Decimal offset", "text/plain;charset=UTF-8", true);
        response(offset, "204", "Not a partition of this cache", null, false);
    }

    private static void healthPaths(ObjectNode paths) {
        ObjectNode ready = get(paths, "/q/health/ready", "Readiness",
                "200 once every cache has caught up to the high watermark it saw at startup (sticky), 503 before. A "
                        + "cache that stopped at memory.max-bytes has status memory_budget_exceeded and an unhealthy "
                        + "entry with the message; the sidecar then exits after memory.exceeded-exit-after-ms. 503 with "
                        + "ready 'unhealthy' and a gc_time_exceeded entry per cache when the JVM spent more than half "
                        + "of the last 30 s in garbage collection; it then exits the same way.");
        response(ready, "200", "Ready", "application/json", false);
        response(ready, "503", "Warming, a cache exceeded the memory budget, or the JVM spends most of its time in GC",
                "application/json", false);
        response(get(paths, "/q/health/live", "Liveness", "200 while the process serves HTTP."), "200", "Live",
                "application/json", false);
        response(get(paths, "/q/metrics", "Prometheus metrics",
                "The same as /metrics on the metrics port."), "200", "Prometheus text format", "text/plain", false);
    }

    private static void shutdownPaths(ObjectNode paths) {
        ObjectNode shutdown = op(paths, "/_admin/v1/shutdown", "post", "Graceful shutdown, exit code 0",
                "Stops consuming, flushes pending notifications within the deadline, exits.");
        response(shutdown, "204", "Shutting down", null, false);
        ObjectNode shutdownCode = op(paths, "/_admin/v1/shutdown/{exitcode}", "post",
                "Graceful shutdown with an exit code (0-255)", "As /_admin/v1/shutdown.");
        param(shutdownCode.putArray("parameters"), "exitcode", "integer").put("minimum", 0).put("maximum", 255);
        response(shutdownCode, "204", "Shutting down", null, false);
        response(shutdownCode, "404", "Not an exit code", null, false);
    }

    private static ObjectNode get(ObjectNode paths, String path, String summary, String description) {
        return op(paths, path, "get", summary, description);
    }

    private static ObjectNode op(ObjectNode paths, String path, String method, String summary, String description) {
        ObjectNode o = paths.putObject(path).putObject(method);
        o.put("summary", summary);
        o.put("description", description);
        o.putObject("responses");
        return o;
    }

    private static void params(ObjectNode op, boolean cache, String... names) {
        ArrayNode params = op.putArray("parameters");
        if (cache) {
            param(params, "cache", "string");
        }
        for (String n : names) {
            param(params, n, n.equals("partition") ? "integer" : "string");
        }
    }

    /** A required path parameter; returns its schema. */
    private static ObjectNode param(ArrayNode params, String name, String type) {
        ObjectNode p = params.addObject();
        p.put("name", name);
        p.put("in", "path");
        p.put("required", true);
        return p.putObject("schema").put("type", type);
    }

    private static void response(ObjectNode op, String status, String description, String contentType,
                                 boolean offsetsHeader) {
        ObjectNode r = ((ObjectNode) op.get("responses")).putObject(status);
        r.put("description", description);
        if (offsetsHeader) {
            ObjectNode h = r.putObject("headers").putObject("x-kkv-last-seen-offsets");
            h.put("description", "JSON array of {offset, partition, topic}, one per assigned partition; offset of "
                    + "the last consumed record");
            h.putObject("schema").put("type", "string");
        }
        if (contentType != null) {
            r.putObject("content").putObject(contentType).putObject("schema").put("type", "string");
        }
    }
}
