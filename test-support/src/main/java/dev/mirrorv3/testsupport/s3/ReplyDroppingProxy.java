package dev.mirrorv3.testsupport.s3;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of an HTTP server (an {@link S3TestServer}) that loses replies the way a network does: for a
 * chosen key, it forwards the first PutObject to the server, waits until the server has answered (the object is
 * committed by then), and closes the client's connection without sending that answer. The client's SDK then
 * retries the PutObject on its own and meets its own object ({@code 412} with {@code If-None-Match: *}). Losing
 * the replies of every attempt makes the SDK give up although the object is there.
 *
 * <p>Requests pass unchanged (the SigV4 signature covers the {@code Host} header, which is the proxy's); the
 * proxy serves one request per connection and says so in both directions ({@code Connection: close}), so it needs
 * to understand only the request line and the status lines of the replies, including {@code 100 Continue}. It keeps
 * the head of every request it forwards ({@link #requests()}): what went over the wire, for a test to check.
 */
public final class ReplyDroppingProxy implements AutoCloseable {
    private final InetSocketAddress upstream;
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "reply-dropping-proxy");
        t.setDaemon(true);
        return t;
    });
    /** {@code "<METHOD> /<bucket>/<key>"} → how many more replies to lose. */
    private final Map<String, Integer> toDrop = new ConcurrentHashMap<>();
    private final AtomicInteger dropped = new AtomicInteger();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    /**
     * One request as it came from the client: method, path (without the query), query, and headers (names in lower case).
     */
    public record Request(String method, String path, String query, Map<String, String> headers) {
    }

    private ReplyDroppingProxy(URI upstream) throws IOException {
        this.upstream = new InetSocketAddress(upstream.getHost(), upstream.getPort());
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::accept);
    }

    /** A proxy on a free loopback port forwarding to {@code upstream} (e.g. {@link S3TestServer#endpoint()}). */
    public static ReplyDroppingProxy start(URI upstream) {
        try {
            return new ReplyDroppingProxy(upstream);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the proxy in front of " + upstream, e);
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /**
     * The reply to the next PutObject of {@code bucket/key} (path-style request path) is lost after the server has
     * committed the object; later requests for that key are answered normally.
     */
    public void dropFirstPutReply(String bucket, String key) {
        dropReplies("PUT", bucket, key, 1);
    }

    /**
     * The replies to the next {@code times} requests with this HTTP method for {@code bucket/key} (path-style) are
     * lost after the server has answered them; later ones are answered normally.
     */
    public void dropReplies(String method, String bucket, String key, int times) {
        toDrop.merge(method + " /" + bucket + "/" + key, times, Integer::sum);
    }

    /**
     * Every reply to this HTTP method for {@code bucket/key} is lost until {@link #stopDropping()}: all the attempts
     * of one SDK call, including those the JDK's HTTP client repeats on its own (it re-sends a GET once).
     */
    public void dropEveryReply(String method, String bucket, String key) {
        toDrop.put(method + " /" + bucket + "/" + key, Integer.MAX_VALUE);
    }

    /** Answers every request normally from now on. */
    public void stopDropping() {
        toDrop.clear();
    }

    /** Every request forwarded so far, in the order they arrived. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** How many replies were dropped so far. */
    public int droppedReplies() {
        return dropped.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                threads.execute(() -> serve(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        try (client; Socket up = new Socket(upstream.getAddress(), upstream.getPort())) {
            InputStream fromClient = new BufferedInputStream(client.getInputStream());
            String head = readHead(fromClient);
            if (head == null) {
                return;
            }
            String[] requestLine = head.substring(0, head.indexOf("\r\n")).split(" ");
            String[] target = requestLine[1].split("\\?", 2);
            String path = target[0];
            requests.add(new Request(requestLine[0], path, target.length > 1 ? target[1] : "", headers(head)));
            boolean drop = takeDrop(requestLine[0] + " " + path);
            OutputStream toUpstream = up.getOutputStream();
            toUpstream.write(closingConnection(head));
            toUpstream.flush();
            // The body (after a 100 Continue, if the client asked for one) flows on while replies come back.
            threads.execute(() -> {
                try {
                    fromClient.transferTo(toUpstream);
                } catch (IOException ignored) {
                    // a socket closed: the exchange is over
                }
            });
            InputStream fromUpstream = new BufferedInputStream(up.getInputStream());
            OutputStream toClient = client.getOutputStream();
            while (true) {
                String reply = readHead(fromUpstream);
                if (reply == null) {
                    return;
                }
                int status = Integer.parseInt(reply.split(" ", 3)[1]);
                if (status >= 100 && status < 200) {
                    toClient.write(reply.getBytes(StandardCharsets.ISO_8859_1));
                    toClient.flush();
                    continue;
                }
                if (drop) {
                    dropped.incrementAndGet(); // the server has answered, so it has committed; the client hears nothing
                    return;
                }
                toClient.write(closingConnection(reply));
                fromUpstream.transferTo(toClient);
                toClient.flush();
                return;
            }
        } catch (IOException e) {
            // one side went away: the exchange is over
        }
    }

    private boolean takeDrop(String request) {
        boolean[] taken = {false};
        toDrop.computeIfPresent(request, (r, n) -> {
            taken[0] = true;
            return n > 1 ? n - 1 : null;
        });
        return taken[0];
    }

    /** A request or reply head (up to and including the empty line), or null at the end of the stream. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            last4 = (last4 << 8) | b;
            if (last4 == 0x0D0A0D0A) { // CR LF CR LF
                return head.toString(StandardCharsets.ISO_8859_1);
            }
        }
        if (head.size() == 0) {
            return null;
        }
        throw new IOException("the stream ended inside an HTTP head");
    }

    private static Map<String, String> headers(String head) {
        Map<String, String> headers = new LinkedHashMap<>();
        String[] lines = head.split("\r\n");
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        return headers;
    }

    /** The head with {@code Connection: close} instead of any connection header: one exchange per connection. */
    private static byte[] closingConnection(String head) {
        StringBuilder out = new StringBuilder();
        for (String line : head.substring(0, head.length() - 4).split("\r\n")) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (!lower.startsWith("connection:") && !lower.startsWith("keep-alive:")) {
                out.append(line).append("\r\n");
            }
        }
        return out.append("Connection: close\r\n\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        threads.shutdownNow();
    }
}
