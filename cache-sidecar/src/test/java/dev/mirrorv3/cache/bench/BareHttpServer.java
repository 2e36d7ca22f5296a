package dev.mirrorv3.cache.bench;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.util.Headers;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * For bench/cache-sidecar: the baseline of the GET benchmark. The same HTTP library as the sidecar (Undertow), the same
 * listener options and I/O threads, answering every request on the I/O thread with one fixed body of the benchmark's
 * value size: no routing, no store, no metrics. What the sidecar's GET costs beyond it is the sidecar's own; what both
 * cost is the machine's (loopback TCP, the HTTP library, wrk beside them on the same cores).
 *
 * <p>Usage: {@code BareHttpServer <port> <io threads, 0 = processors> <body bytes>}; runs until killed.
 */
public final class BareHttpServer {

    private BareHttpServer() {
    }

    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: BareHttpServer <port> <io threads, 0 = processors> <body bytes>");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        byte[] body = new byte[Integer.parseInt(args[2])];
        Arrays.fill(body, (byte) 'x');
        HttpHandler handler = ex -> {
            ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/octet-stream");
            ex.getResponseSender().send(ByteBuffer.wrap(body));
        };
        Undertow.builder()
                .addHttpListener(port, "127.0.0.1")
                .setIoThreads(ioThreads > 0 ? ioThreads : Runtime.getRuntime().availableProcessors())
                .setServerOption(UndertowOptions.DECODE_URL, false)
                .setServerOption(UndertowOptions.RECORD_REQUEST_START_TIME, false)
                .setHandler(handler)
                .build()
                .start();
        System.out.println("LISTENING=" + port);
    }
}
