package dev.mirrorv3.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** A real HTTP server that records kkv-v1 notification POSTs and answers with a configurable status. */
final class RecordingTarget implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    /** One received POST; {@code observed} is what the hook saw while the request was being received. */
    record Received(String method, String path, Map<String, List<String>> headers, String body, Object observed) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        List<String> keys() {
            List<String> keys = new ArrayList<>();
            json().get("updates").fieldNames().forEachRemaining(keys::add);
            return keys;
        }
    }

    private final HttpServer server;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    final AtomicInteger status = new AtomicInteger(204);
    volatile Function<JsonNode, Object> hook = body -> null;

    RecordingTarget(String address, int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(address, port), 50);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", exchange -> {
            int answer = status.get(); // read before recording, so a test changing it afterwards never races
            try (InputStream in = exchange.getRequestBody()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                Object observed = null;
                if (body.startsWith("{")) {
                    observed = hook.apply(JSON.readTree(body));
                }
                received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                        Map.copyOf(exchange.getRequestHeaders()), body, observed));
                exchange.sendResponseHeaders(answer, -1);
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    static RecordingTarget onFreePort(String address) throws IOException {
        return new RecordingTarget(address, 0);
    }

    int port() {
        return server.getAddress().getPort();
    }

    String url() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + port()
                + "/kafka-keyvalue/v1/updates";
    }

    Received next(Duration timeout) throws InterruptedException {
        Received r = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (r == null) {
            throw new AssertionError("no notification POST within " + timeout);
        }
        return r;
    }

    Received poll(Duration timeout) throws InterruptedException {
        return received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    int count() {
        return received.size();
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
