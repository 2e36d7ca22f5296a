package dev.mirrorv3.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** Reads {@code GET /connectors/<name>/status} and reports a failed connector or task. */
public final class ConnectorStatus {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ConnectorStatus() {
    }

    /** A description of the failure (state and the first lines of the trace), or empty if nothing failed. */
    public static Optional<String> failure(String connectUrl, String connector) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(connectUrl + "/connectors/" + connector + "/status"))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return Optional.empty(); // not there yet, or a rebalance in progress: the wait goes on
            }
            JsonNode s = new ObjectMapper().readTree(r.body());
            if ("FAILED".equals(s.path("connector").path("state").asText())) {
                return Optional.of("connector " + connector + " FAILED: " + head(s.path("connector").path("trace").asText()));
            }
            for (JsonNode t : s.path("tasks")) {
                if ("FAILED".equals(t.path("state").asText())) {
                    return Optional.of("task " + connector + "-" + t.path("id").asText() + " FAILED: " + head(t.path("trace").asText()));
                }
            }
            return Optional.empty();
        } catch (java.io.IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static String head(String trace) {
        String[] lines = trace.split("\n");
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(lines.length, 6); i++) {
            b.append(i == 0 ? "" : "\n    ").append(lines[i]);
        }
        return b.toString();
    }
}
