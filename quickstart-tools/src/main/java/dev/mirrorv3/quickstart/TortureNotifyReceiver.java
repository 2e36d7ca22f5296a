package dev.mirrorv3.quickstart;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;

/**
 * The torture suite's notify receiver: a kkv-v1 update target (cache-sidecar/README.md, "Notifications (kkv-v1)") on
 * the loopback address that appends each POSTed body as one line to a file and answers 200. The sidecar's bodies are
 * compact JSON without line breaks, so a line is a batch. {@link TortureCacheCompare} reads the file.
 *
 * <p>Usage: {@code TortureNotifyReceiver <port> <file>}
 */
public final class TortureNotifyReceiver {
    private TortureNotifyReceiver() {
    }

    public static void main(String[] args) throws IOException {
        Usage.exactly(args, 2, "TortureNotifyReceiver <port> <file>");
        Path file = Path.of(args[1]);
        OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0])), 50);
        server.createContext("/", exchange -> {
            try (exchange; InputStream in = exchange.getRequestBody()) {
                if (!"POST".equals(exchange.getRequestMethod())) {
                    exchange.sendResponseHeaders(405, -1);
                    return;
                }
                byte[] body = in.readAllBytes();
                synchronized (out) {
                    out.write(body);
                    out.write('\n');
                    out.flush();
                }
                exchange.sendResponseHeaders(200, -1);
            }
        });
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.start();
        System.out.println("notify receiver on http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort()
                + ", one line per batch in " + file);
    }
}
