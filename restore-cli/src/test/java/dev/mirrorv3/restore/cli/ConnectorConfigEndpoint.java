package dev.mirrorv3.restore.cli;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * An HTTP server on a free local port answering {@code GET /connectors/<name>/config} with one connector's stored config,
 * as a Connect worker's REST API does for {@code --connect-url}; any other path answers 404, as for a connector that
 * does not exist.
 */
public final class ConnectorConfigEndpoint implements AutoCloseable {
    private final HttpServer server;

    private ConnectorConfigEndpoint(HttpServer server) {
        this.server = server;
    }

    /** Started, serving {@code config} (the JSON object of the connector's settings) for {@code connector}. */
    public static ConnectorConfigEndpoint serving(String connector, byte[] config) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/connectors/" + connector + "/config", exchange -> {
            exchange.sendResponseHeaders(200, config.length);
            exchange.getResponseBody().write(config);
            exchange.close();
        });
        server.start();
        return new ConnectorConfigEndpoint(server);
    }

    /** The URL to pass as {@code --connect-url}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
