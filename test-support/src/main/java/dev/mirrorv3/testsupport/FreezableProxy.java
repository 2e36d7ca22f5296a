package dev.mirrorv3.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A TCP proxy in front of one server that can stop forwarding without closing anything, which is how a frozen
 * process (SIGSTOP, a long GC pause, a hung disk) looks to its clients: connections are accepted and stay open, the
 * bytes they send are taken (and kept, also after the client closed its connection), and no reply comes.
 * {@link #thaw()} delivers what was held, in order per connection, and forwards again, as the frozen server would read
 * its socket buffers when it wakes up; {@link #thaw(Duration)} delivers what closed connections sent a little later
 * than the rest (a server that handles them last, or appends them before it can count them as committed). A server that cannot be reached
 * resets the client's connection (as a refused connection would). The target is resolved per connection, so a server restarted on another
 * port is followed. {@link #heldRequests()} counts what clients sent while it was frozen, so that a test can check that
 * its freeze held something (its premise) before it checks the outcome; {@link #heldReplies()} counts the replies it held
 * (a request that was past the proxy when it froze).
 */
public final class FreezableProxy implements AutoCloseable {
    private static final byte[] EOF = new byte[0];

    private final Supplier<InetSocketAddress> target;
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "freezable-proxy");
        t.setDaemon(true);
        return t;
    });
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private boolean frozen; // guarded by gate
    private long closedHeldUntilNanos = System.nanoTime(); // guarded by gate
    private volatile boolean closed;
    private final AtomicInteger heldRequests = new AtomicInteger();
    private final AtomicInteger heldReplies = new AtomicInteger();

    private FreezableProxy(Supplier<InetSocketAddress> target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::acceptLoop);
    }

    /** Starts a proxy on a free loopback port that forwards to {@code target} (asked again for every connection). */
    public static FreezableProxy start(Supplier<InetSocketAddress> target) {
        try {
            return new FreezableProxy(target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the proxy", e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /**
     * How many times a connection had bytes for the server (a request, or a part of one, that a frozen server would have
     * left unread) held until a thaw: each freeze counts every connection it held something of, once; since the start.
     */
    public int heldRequests() {
        return heldRequests.get();
    }

    /**
     * As {@link #heldRequests()}, for the server's side: how many times a connection had a reply (or a part of one) held
     * until a thaw. A freeze that meets a request already past the proxy holds its reply only.
     */
    public int heldReplies() {
        return heldReplies.get();
    }

    /** Stops forwarding in both directions; connections stay open and new ones are accepted. */
    public void freeze() {
        synchronized (gate) {
            frozen = true;
        }
    }

    /** Delivers what was held and forwards again. */
    public void thaw() {
        thaw(Duration.ZERO);
    }

    /** As {@link #thaw()}, but what a client sent before it closed its connection is delivered {@code closedLater} after the rest. */
    public void thaw(Duration closedLater) {
        synchronized (gate) {
            frozen = false;
            closedHeldUntilNanos = System.nanoTime() + closedLater.toNanos();
            gate.notifyAll();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            threads.execute(() -> connect(client));
        }
    }

    private void connect(Socket client) {
        sockets.add(client);
        Socket upstream = new Socket();
        try {
            upstream.connect(target.get(), 5000);
        } catch (IOException | RuntimeException e) {
            reset(client);
            return;
        }
        sockets.add(upstream);
        AtomicInteger open = new AtomicInteger(2);
        Runnable done = () -> {
            if (open.decrementAndGet() == 0) {
                closeQuietly(client);
                closeQuietly(upstream);
            }
        };
        pump(client, upstream, done, heldRequests);
        pump(upstream, client, done, heldReplies);
    }

    /**
     * Copies one direction: a reader that always takes what arrives, a writer that waits while frozen; {@code held} counts
     * the waits.
     */
    private void pump(Socket from, Socket to, Runnable done, AtomicInteger held) {
        BlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
        AtomicBoolean ended = new AtomicBoolean(); // the sender closed its side
        threads.execute(() -> {
            byte[] buffer = new byte[64 * 1024];
            try {
                InputStream in = from.getInputStream(); // not closed here: that would close the socket
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    queue.add(Arrays.copyOf(buffer, n));
                }
            } catch (IOException e) {
                // a reset or our own close: deliver what arrived before it
            }
            ended.set(true);
            queue.add(EOF);
        });
        threads.execute(() -> {
            boolean broken = false;
            try {
                OutputStream out = to.getOutputStream();
                for (byte[] chunk = queue.take(); chunk != EOF; chunk = queue.take()) {
                    awaitThawed(ended, held);
                    if (!broken) {
                        try {
                            out.write(chunk);
                            out.flush();
                        } catch (IOException e) {
                            broken = true; // the receiver is gone: drop the rest of this direction
                        }
                    }
                }
                awaitThawed(ended, new AtomicInteger());
                to.shutdownOutput();
            } catch (IOException e) {
                // the receiver is gone
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                done.run();
            }
        });
    }

    /**
     * Waits while frozen (and what closed connections sent, until its delay passed); a wait for a thaw counts in
     * {@code held} as it starts.
     */
    private void awaitThawed(AtomicBoolean senderEnded, AtomicInteger held) throws InterruptedException {
        boolean counted = false;
        synchronized (gate) {
            while (!closed) {
                long closedWaitMs = TimeUnit.NANOSECONDS.toMillis(closedHeldUntilNanos - System.nanoTime());
                if (frozen) {
                    if (!counted) {
                        held.incrementAndGet();
                        counted = true;
                    }
                    gate.wait();
                } else if (senderEnded.get() && closedWaitMs > 0) {
                    gate.wait(closedWaitMs);
                } else {
                    return;
                }
            }
        }
    }

    private void reset(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (IOException e) {
            // closed anyway below
        }
        closeQuietly(s);
    }

    private void closeQuietly(Socket s) {
        sockets.remove(s);
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    @Override
    public void close() {
        closed = true;
        thaw();
        try {
            server.close();
        } catch (IOException e) {
            // nothing to do
        }
        sockets.forEach(this::closeQuietly);
        threads.shutdownNow();
    }
}
