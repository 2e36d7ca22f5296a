package dev.mirrorv3.cache.http;

import dev.mirrorv3.cache.Cache;
import dev.mirrorv3.cache.SidecarMetrics;
import dev.mirrorv3.cache.config.CacheConfig;
import dev.mirrorv3.cache.store.StoreCursor;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * The HTTP surface, routed on the raw request path so that keys are decoded exactly as kafka-keyvalue decodes them.
 * Point reads run on the I/O thread; listings, metrics and assets stream from a worker thread.
 */
public final class HttpApi implements HttpHandler {

    public static final HttpString LAST_SEEN_OFFSETS = new HttpString("x-kkv-last-seen-offsets");
    static final String OCTET_STREAM = "application/octet-stream";
    static final String TEXT_UTF8 = "text/plain;charset=UTF-8";
    static final String JSON = "application/json";
    private static final byte[] LIVE = "{\"status\":\"UP\",\"checks\":[]}".getBytes(StandardCharsets.UTF_8);
    /** The main cache's point reads: {@code /cache/v1/raw/{key}}. */
    private static final String MAIN_RAW = "/cache/v1/raw/";

    private final List<Cache> caches;
    private final Map<String, Cache> byName = new ConcurrentHashMap<>();
    private final Cache main;
    private final SidecarMetrics metrics;
    private final IntConsumer shutdown;
    private final Supplier<String> gcOverloaded;
    private final ApiDocs docs = new ApiDocs();

    /**
     * @param shutdown     called (on another thread) with the exit code when an admin shutdown is requested
     * @param gcOverloaded why the whole sidecar is unready (its GC-time watchdog tripped), or null
     */
    public HttpApi(List<Cache> caches, SidecarMetrics metrics, IntConsumer shutdown,
                   Supplier<String> gcOverloaded) {
        this.caches = List.copyOf(caches);
        caches.forEach(c -> byName.put(c.name(), c));
        this.main = caches.stream().filter(c -> c.config().main()).findFirst().orElse(null);
        this.metrics = metrics;
        this.shutdown = shutdown;
        this.gcOverloaded = gcOverloaded;
    }

    @Override
    public void handleRequest(HttpServerExchange ex) {
        long start = System.nanoTime();
        String route = route(ex);
        if (!ex.isComplete() || ex.isDispatched()) {
            ex.addExchangeCompleteListener((e, next) -> {
                metrics.observeHttp(route, e.getStatusCode(), System.nanoTime() - start);
                next.proceed();
            });
        } else {
            metrics.observeHttp(route, ex.getStatusCode(), System.nanoTime() - start);
        }
    }

    /** Handles the request (or dispatches it) and returns the route label for metrics. */
    private String route(HttpServerExchange ex) {
        String raw = path(ex.getRequestURI());
        if (isMainPointRead(raw)) {
            // The hot path: the main cache's point read of a key that needs no decoding, without splitting the path.
            // Everything else, a sidecar without a main cache included, takes the general route below.
            return raw(ex, ex.getRequestMethod(), main, raw.substring(MAIN_RAW.length()));
        }
        List<String> segs = PathSegments.split(raw);
        if (segs == null) {
            send(ex, 400, TEXT_UTF8, "Malformed percent-encoding in path\n");
            return "other";
        }
        HttpString method = ex.getRequestMethod();
        String first = segs.get(0);
        int n = segs.size();
        if (first.equals("cache") && n >= 2 && segs.get(1).equals("v1")) {
            return cacheRoute(ex, method, segs.subList(2, n));
        }
        String quarkusRoute = first.equals("q") ? quarkusRoute(ex, method, segs) : null;
        if (quarkusRoute != null) {
            return quarkusRoute;
        }
        String docsRoute = docs.route(ex, method, segs);
        if (docsRoute != null) {
            return docsRoute;
        }
        if (first.equals("_admin") && n >= 3 && n <= 4 && segs.get(1).equals("v1") && segs.get(2).equals("shutdown")) {
            adminShutdown(ex, method, n == 4 ? segs.get(3) : null);
            return "admin";
        }
        send(ex, 404, TEXT_UTF8, "Not found\n");
        return "other";
    }

    /** The request target's path: an absolute-form target ({@code http://host/path}) without its scheme and host. */
    private static String path(String target) {
        if (target.startsWith("/")) {
            return target;
        }
        int slash = target.indexOf('/', target.indexOf("//") + 2);
        return slash < 0 ? "/" : target.substring(slash);
    }

    /** A point read of the main cache whose key needs no decoding: {@code /cache/v1/raw/{key}} without '/' or '%' in it. */
    private boolean isMainPointRead(String raw) {
        return main != null && raw.startsWith(MAIN_RAW) && raw.length() > MAIN_RAW.length()
                && raw.indexOf('/', MAIN_RAW.length()) < 0 && raw.indexOf('%', MAIN_RAW.length()) < 0;
    }

    /** {@code /q/health/ready}, {@code /q/health/live} and {@code /q/metrics} (Quarkus' paths); null for any other. */
    private String quarkusRoute(HttpServerExchange ex, HttpString method, List<String> segs) {
        int n = segs.size();
        if (n == 3 && segs.get(1).equals("health")) {
            if (segs.get(2).equals("ready")) {
                if (get(ex, method)) {
                    String overloaded = gcOverloaded.get();
                    boolean ready = overloaded == null && Readiness.allReady(caches);
                    send(ex, ready ? 200 : 503, JSON, Readiness.body(caches, overloaded));
                }
                return "health";
            }
            if (segs.get(2).equals("live")) {
                if (get(ex, method)) {
                    send(ex, 200, JSON, LIVE);
                }
                return "health";
            }
        }
        if (n == 2 && segs.get(1).equals("metrics")) {
            if (get(ex, method)) {
                ex.dispatch(this::metrics);
            }
            return "metrics";
        }
        return null;
    }

    /** {@code POST /_admin/v1/shutdown[/{exit code}]}: answers 204, then shuts the sidecar down on another thread. */
    private void adminShutdown(HttpServerExchange ex, HttpString method, String exitCode) {
        int code = 0;
        if (exitCode != null) {
            code = exitCode(exitCode);
            if (code < 0) {
                send(ex, 404, TEXT_UTF8, "Exit code must be an integer 0-255\n");
                return;
            }
        }
        if (!Methods.POST.equals(method)) {
            notAllowed(ex, "POST");
            return;
        }
        ex.setStatusCode(204);
        ex.endExchange();
        int exit = code;
        Thread t = new Thread(() -> shutdown.accept(exit), "admin-shutdown");
        t.setDaemon(true);
        t.start();
    }

    private String cacheRoute(HttpServerExchange ex, HttpString method, List<String> rest) {
        if (rest.isEmpty()) {
            send(ex, 404, TEXT_UTF8, "Not found\n");
            return "other";
        }
        // /cache/v1/{op}... is the main cache's, /cache/v1/{name}/{op}... a named cache's
        boolean ofMain = CacheConfig.RESERVED_NAMES.contains(rest.get(0));
        Cache cache = ofMain ? main : byName.get(rest.get(0));
        List<String> sub = ofMain ? rest : rest.subList(1, rest.size());
        if (cache == null || sub.isEmpty()) {
            send(ex, 404, TEXT_UTF8, cache == null ? "No such cache\n" : "Not found\n");
            return "other";
        }
        String op = sub.get(0);
        int n = sub.size();
        if (op.equals("raw") && n == 2 && !sub.get(1).isEmpty()) {
            return raw(ex, method, cache, sub.get(1));
        }
        if ((op.equals("keys") || op.equals("values")) && n == 1) {
            boolean keysOnly = op.equals("keys");
            if (get(ex, method) && ready(ex, cache)) {
                ex.dispatch(e -> list(e, cache, keysOnly));
            }
            return op;
        }
        if (op.equals("offset") && n == 3 && !sub.get(1).isEmpty()) {
            return offset(ex, method, cache, sub.get(1), sub.get(2));
        }
        send(ex, 404, TEXT_UTF8, "Not found\n");
        return "other";
    }

    /** {@code /offset/{topic}/{partition}}: the last offset the cache has seen of the partition, 204 if none. */
    private String offset(HttpServerExchange ex, HttpString method, Cache cache, String topic, String partitionText) {
        int partition = parsePartition(partitionText);
        if (partition < 0) {
            send(ex, 404, TEXT_UTF8, "Not found\n");
            return "offset";
        }
        if (get(ex, method)) {
            var p = topic.equals(cache.topic()) ? cache.partition(partition) : null;
            if (p == null) {
                send(ex, 204, null, "");
            } else {
                ex.getResponseHeaders().put(LAST_SEEN_OFFSETS, cache.offsetsHeader());
                send(ex, 200, TEXT_UTF8, Long.toString(p.lastSeenOffset()));
            }
        }
        return "offset";
    }

    private String raw(HttpServerExchange ex, HttpString method, Cache cache, String key) {
        if (get(ex, method) && ready(ex, cache)) {
            byte[] value = cache.store().get(key);
            if (value == null) {
                send(ex, 404, TEXT_UTF8, "");
            } else {
                ex.getResponseHeaders().put(LAST_SEEN_OFFSETS, cache.offsetsHeader());
                send(ex, 200, OCTET_STREAM, value);
            }
        }
        return "raw";
    }

    private boolean ready(HttpServerExchange ex, Cache cache) {
        if (cache.ready()) {
            return true;
        }
        send(ex, 503, JSON, Readiness.body(List.of(cache), null));
        return false;
    }

    static boolean get(HttpServerExchange ex, HttpString method) {
        if (Methods.GET.equals(method)) {
            return true;
        }
        notAllowed(ex, "GET");
        return false;
    }

    private static void notAllowed(HttpServerExchange ex, String allow) {
        ex.getResponseHeaders().put(Headers.ALLOW, allow);
        send(ex, 405, TEXT_UTF8, "Method not allowed\n");
    }

    /** Streams one line per entry; the store's weakly consistent cursor is safe against concurrent updates. */
    private void list(HttpServerExchange ex, Cache cache, boolean keys) throws IOException {
        ex.startBlocking();
        ex.setStatusCode(200);
        ex.getResponseHeaders().put(Headers.CONTENT_TYPE, keys ? OCTET_STREAM : TEXT_UTF8);
        ex.getResponseHeaders().put(LAST_SEEN_OFFSETS, cache.offsetsHeader());
        try (OutputStream out = new BufferedOutputStream(ex.getOutputStream(), 64 * 1024)) {
            StoreCursor c = cache.store().cursor();
            while (c.next()) {
                if (keys) {
                    c.writeKey(out);
                } else {
                    c.writeValue(out);
                }
                out.write('\n');
            }
        }
    }

    private void metrics(HttpServerExchange ex) throws IOException {
        ex.startBlocking();
        ex.getResponseHeaders().put(Headers.CONTENT_TYPE, metrics.contentType());
        try (OutputStream out = ex.getOutputStream()) {
            metrics.write(out);
        }
    }

    static int parsePartition(String s) {
        if (s.isEmpty() || s.length() > 9) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return -1;
            }
        }
        return Integer.parseInt(s);
    }

    static int exitCode(String s) {
        int v = parsePartition(s);
        return v >= 0 && v <= 255 ? v : -1;
    }

    static void send(HttpServerExchange ex, int status, String type, String body) {
        send(ex, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    static void send(HttpServerExchange ex, int status, String type, byte[] body) {
        ex.setStatusCode(status);
        if (type != null) {
            ex.getResponseHeaders().put(Headers.CONTENT_TYPE, type);
        }
        if (status == 204) {
            ex.endExchange();
            return;
        }
        ex.getResponseSender().send(ByteBuffer.wrap(body));
    }
}
