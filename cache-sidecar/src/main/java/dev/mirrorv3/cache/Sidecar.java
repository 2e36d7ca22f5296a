package dev.mirrorv3.cache;

import dev.mirrorv3.cache.config.CacheConfig;
import dev.mirrorv3.cache.config.SidecarConfig;
import dev.mirrorv3.cache.http.HttpApi;
import dev.mirrorv3.cache.notify.Notifier;
import dev.mirrorv3.cache.store.MemoryBudget;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running sidecar: its caches (one consumer and one notifier thread each), the HTTP API and the metrics server.
 * {@link #requestShutdown(int)} stops it gracefully; {@link #awaitExit()} returns the exit code.
 */
public final class Sidecar implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Sidecar.class);

    /** Where Kubernetes reads a container's termination message (the pod's terminationMessagePath default). */
    private static final java.nio.file.Path TERMINATION_LOG = java.nio.file.Path.of("/dev/termination-log");

    private final SidecarConfig config;
    private final MemoryBudget budget;
    private final List<Cache> caches = new ArrayList<>();
    private final List<CacheConsumer> consumers = new ArrayList<>();
    private final SidecarMetrics metrics;
    private final Undertow undertow;
    private final HTTPServer metricsServer;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final ScheduledExecutorService gcWatch =
            Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "gc-time-watchdog");
                t.setDaemon(true);
                return t;
            });
    /** Why the sidecar is unhealthy as a whole (the GC-time watchdog tripped); null while it is not. */
    private volatile String gcOverloaded;

    private Sidecar(SidecarConfig config) {
        this.config = config;
        this.budget = config.memory().maxBytes() > 0 ? MemoryBudget.of(config.memory().maxBytes())
                : MemoryBudget.fromHeap();
        for (CacheConfig cc : config.caches()) {
            caches.add(new Cache(cc, budget));
        }
        this.metrics = new SidecarMetrics(caches, budget, () -> gcOverloaded);
        this.undertow = startHttp(config, new HttpApi(caches, metrics, this::requestShutdown, () -> gcOverloaded));
        this.metricsServer = startMetricsServer(config, metrics, undertow);
        startCaches();
        startGcWatch();
        LOG.info("cache-sidecar serving {} cache(s) on http://{}:{}/cache/v1{}, metrics on {}", caches.size(),
                config.httpHost(), httpPort(), config.mainCache().map(m -> " (main: " + m.name() + ")").orElse(""),
                metricsServer == null ? "/q/metrics only" : "port " + metricsServer.getPort() + " /metrics");
        LOG.info("Memory budget of the caches: {} bytes ({}); beyond it a cache stops reading and the sidecar exits "
                + "after {} ms (memory.exceeded-exit-after-ms)", budget.maxBytes(), budget.origin(),
                config.memory().exceededExitAfter().toMillis());
    }

    /** The HTTP API on http.host:http.port; a port it cannot listen on ends the start with a message naming it. */
    private static Undertow startHttp(SidecarConfig config, HttpApi api) {
        int cores = Runtime.getRuntime().availableProcessors();
        Undertow undertow = Undertow.builder()
                .addHttpListener(config.httpPort(), config.httpHost())
                .setIoThreads(config.ioThreads())
                .setWorkerThreads(Math.max(8, cores * 4))
                .setServerOption(UndertowOptions.DECODE_URL, false)
                .setServerOption(UndertowOptions.RECORD_REQUEST_START_TIME, false)
                .setHandler(api)
                .build();
        try {
            undertow.start();
        } catch (RuntimeException e) {
            try {
                undertow.stop();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new IllegalStateException("Cannot listen on http.port " + config.httpPort() + " ("
                    + config.httpHost() + "): " + rootMessage(e), e);
        }
        return undertow;
    }

    /** The metrics server on metrics.port, or null when it is disabled (-1); stops the HTTP API when it cannot start. */
    private static HTTPServer startMetricsServer(SidecarConfig config, SidecarMetrics metrics, Undertow undertow) {
        if (config.metricsPort() < 0) {
            return null;
        }
        try {
            return HTTPServer.builder().hostname(config.httpHost()).port(config.metricsPort())
                    .registry(metrics.registry()).buildAndStart();
        } catch (IOException | RuntimeException e) {
            undertow.stop();
            throw new IllegalStateException("Cannot listen on metrics.port " + config.metricsPort() + " ("
                    + config.httpHost() + "): " + rootMessage(e), e);
        }
    }

    /** Each cache's notifier and consumer; the notifiers start first, so that the first changes have a sender. */
    private void startCaches() {
        for (Cache cache : caches) {
            CacheConfig cc = cache.config();
            Notifier notifier = new Notifier(cc.name(), cc.topic(), cc.notifications(), cache::ready,
                    metrics.notifyMetrics(cc.name(), cc.topic()), this::fatal);
            cache.notifier(notifier);
            if (cc.notifications().hasTargets() && cc.groupId() == null) {
                LOG.warn("Cache {}: notify targets without group-id: changes not notified before a stop are not "
                        + "notified after a restart", cc.name());
            }
            consumers.add(new CacheConsumer(cache, notifier, this::fatal, budget, this::exitLater));
        }
        for (Cache cache : caches) {
            cache.notifier().start();
        }
        consumers.forEach(CacheConsumer::start);
    }

    private void startGcWatch() {
        GcTimeWatchdog watchdog = GcTimeWatchdog.ofThisJvm();
        gcWatch.scheduleAtFixedRate(() -> {
            String message = watchdog.sample();
            if (message != null) {
                gcOverloaded = message;
                exitLater(message);
            }
        }, 0, 1, TimeUnit.SECONDS);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.toString();
    }

    /** Starts everything; the caches warm up in the background. */
    public static Sidecar start(SidecarConfig config) {
        // Targets are re-resolved on every attempt: do not let the JVM cache DNS answers for long.
        java.security.Security.setProperty("networkaddress.cache.ttl", "1");
        java.security.Security.setProperty("networkaddress.cache.negative.ttl", "0");
        return new Sidecar(config);
    }

    public int httpPort() {
        return ((InetSocketAddress) undertow.getListenerInfo().get(0).getAddress()).getPort();
    }

    /** The metrics port, or -1 when disabled. */
    public int metricsPort() {
        return metricsServer == null ? -1 : metricsServer.getPort();
    }

    public List<Cache> caches() {
        return List.copyOf(caches);
    }

    public SidecarConfig config() {
        return config;
    }

    /** Starts a graceful stop (once); the exit code of the first request wins. */
    public void requestShutdown(int exitCode) {
        if (!stopping.compareAndSet(false, true)) {
            return;
        }
        LOG.info("Shutting down (exit code {}): flushing notifications for up to {} ms", exitCode,
                config.shutdownDeadline().toMillis());
        Thread t = new Thread(() -> stopAll(exitCode), "sidecar-shutdown");
        t.start();
    }

    /**
     * A cache would exceed the memory budget (it has stopped reading), or the GC-time watchdog tripped: readiness and a
     * metric say why. Logs the message, writes it to the termination log and exits with code 1 after
     * {@code memory.exceeded-exit-after-ms}, so that the orchestrator shows a crash with this reason rather than a pod
     * that never turns ready.
     */
    private void exitLater(String message) {
        long afterMs = config.memory().exceededExitAfter().toMillis();
        LOG.error("{}. Exiting with code 1 in {} ms (memory.exceeded-exit-after-ms)", capitalized(message), afterMs);
        if (java.nio.file.Files.isWritable(TERMINATION_LOG)) {
            try {
                java.nio.file.Files.writeString(TERMINATION_LOG, message + "\n");
            } catch (IOException | RuntimeException e) {
                LOG.warn("Cannot write {}: {}", TERMINATION_LOG, e.toString());
            }
        }
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(afterMs);
            } catch (InterruptedException e) {
                return;
            }
            fatal(message);
        }, "memory-exceeded-exit");
        t.setDaemon(true);
        t.start();
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** The caches' memory budget. */
    public MemoryBudget memoryBudget() {
        return budget;
    }

    private void fatal(String reason) {
        LOG.error("Stopping with exit code 1: {}", reason);
        requestShutdown(1);
    }

    private void stopAll(int exitCode) {
        gcWatch.shutdownNow();
        try {
            Duration deadline = config.shutdownDeadline();
            consumers.forEach(c -> c.stop(deadline));
            for (CacheConsumer c : consumers) {
                try {
                    c.join(deadline.plusSeconds(15));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            caches.forEach(c -> c.notifier().close());
        } finally {
            try {
                undertow.stop();
            } finally {
                if (metricsServer != null) {
                    metricsServer.close();
                }
                LOG.info("Stopped");
                exit.complete(exitCode);
            }
        }
    }

    /** Blocks until stopped; returns the exit code. */
    public int awaitExit() {
        try {
            return exit.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } catch (ExecutionException e) {
            return 1;
        }
    }

    /** As {@link #awaitExit()}, bounded. */
    public int awaitExit(Duration timeout) {
        try {
            return exit.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("The sidecar did not stop within " + timeout, e);
        }
    }

    public boolean stopped() {
        return exit.isDone();
    }

    @Override
    public void close() {
        requestShutdown(0);
        awaitExit();
    }
}
