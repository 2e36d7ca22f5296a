package dev.mirrorv3.cache;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Plain HTTP calls to a sidecar under test. */
final class SidecarClient {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final String base;

    SidecarClient(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    HttpResponse<byte[]> get(String rawPath) {
        return send(HttpRequest.newBuilder(URI.create(base + rawPath)).GET());
    }

    HttpResponse<byte[]> post(String rawPath) {
        return send(HttpRequest.newBuilder(URI.create(base + rawPath)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    String text(String rawPath) {
        return new String(get(rawPath).body(), StandardCharsets.UTF_8);
    }

    int status(String rawPath) {
        return get(rawPath).statusCode();
    }

    private static HttpResponse<byte[]> send(HttpRequest.Builder b) {
        try {
            return HTTP.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
