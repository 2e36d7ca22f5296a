package dev.mirrorv3.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The Connect REST calls a timed run makes: deploy a connector's config, delete the connector. */
final class ConnectRest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ConnectRest() {
    }

    static void put(String connectUrl, String name, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(connectUrl + "/connectors/" + name + "/config"))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException("Connect refused connector " + name + " (HTTP " + r.statusCode() + "): " + r.body());
        }
    }

    static void delete(String connectUrl, String name) throws Exception {
        HTTP.send(HttpRequest.newBuilder(URI.create(connectUrl + "/connectors/" + name)).DELETE().build(),
                HttpResponse.BodyHandlers.discarding());
    }
}
