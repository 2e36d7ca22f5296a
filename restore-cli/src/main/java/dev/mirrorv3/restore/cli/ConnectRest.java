package dev.mirrorv3.restore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLException;
import org.apache.kafka.common.KafkaException;

/**
 * The few Kafka Connect REST API reads the CLI makes (restore's and decrypt's connector config, status's connectors with
 * their configs as stored and states), authenticated as {@link ConnectAccess} says.
 */
public final class ConnectRest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    private final Duration timeout;
    private final ConnectAccess access;
    private final HttpClient client;

    /** A connector as the worker has it: the stored config (config providers not resolved) and its state. */
    public record Deployed(String name, Map<String, String> config, ConnectorState state) {
    }

    public ConnectRest(String url, Duration timeout, ConnectAccess access) {
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.timeout = timeout;
        this.access = access;
        this.client = access.client(timeout);
    }

    /** Every connector of the cluster ({@code GET /connectors?expand=info&expand=status}, KIP-465), sorted by name. */
    public List<Deployed> all() {
        JsonNode root = get("/connectors?expand=info&expand=status", "the connectors");
        List<Deployed> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.properties().iterator(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            out.add(new Deployed(e.getKey(), strings(e.getValue().path("info").path("config")),
                    ConnectorState.fromJson(e.getValue().path("status"))));
        }
        out.sort(java.util.Comparator.comparing(Deployed::name));
        return out;
    }

    /** One connector ({@code GET /connectors/<name>/config} and {@code /status}). */
    public Deployed one(String name) {
        return new Deployed(name, config(name), ConnectorState.fromJson(get(path(name) + "/status", "connector " + name)));
    }

    /** One connector's config as stored ({@code GET /connectors/<name>/config}): config providers not resolved. */
    public Map<String, String> config(String name) {
        return strings(get(path(name) + "/config", "connector " + name));
    }

    private static String path(String name) {
        return "/connectors/" + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private JsonNode get(String path, String what) {
        URI uri = URI.create(base + path);
        try {
            HttpResponse<String> r = client.send(access.authorize(HttpRequest.newBuilder(uri)).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 404) {
                throw new UsageException(what + " does not exist at " + base + " (GET " + uri + ": 404)");
            }
            if (r.statusCode() != 200) {
                throw new KafkaException("GET " + uri + " answered " + r.statusCode() + access.hintFor(r.statusCode()) + ": " + r.body());
            }
            return JSON.readTree(r.body());
        } catch (SSLException e) {
            throw new KafkaException("cannot read " + what + " from Kafka Connect at " + base + " (GET " + uri + "): " + e + ": set "
                    + ConnectAccess.TRUSTSTORE + " in --connect-config to a truststore that holds the REST listener's certificate"
                    + " (or its CA)", e);
        } catch (IOException e) {
            throw new KafkaException("cannot read " + what + " from Kafka Connect at " + base + " (GET " + uri + "): " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new org.apache.kafka.common.errors.InterruptException(e);
        }
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        object.properties().forEach(e -> {
            if (!e.getValue().isNull()) {
                out.put(e.getKey(), e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString());
            }
        });
        return out;
    }
}
