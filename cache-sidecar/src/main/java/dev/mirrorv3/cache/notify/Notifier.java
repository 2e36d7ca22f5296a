package dev.mirrorv3.cache.notify;

import dev.mirrorv3.cache.config.NotifyConfig;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kkv-v1 notify of one cache, on its own thread so delivery never blocks consumption or reads.
 *
 * <p>Changes are merged in a {@link NotifyBuffer}. Once the cache is ready, a batch is sent when its body reaches
 * the size bound or when its oldest change has waited {@code linger}, so a burst's tail is never held back. Each
 * batch goes to every address of every target (host names resolved on every attempt) and every static URL.
 * 2xx: delivered. 4xx: skipped for that address. Connection errors and 5xx: retried with doubling backoff for
 * {@code retryTimes} rounds, then skipped, or the process ends when {@code on-failure: exit}.
 *
 * <p>When a batch empties the buffer, the consumer positions it covers become committable: the group's committed
 * offset records what was notified, so a restart notifies again what was not.
 */
public final class Notifier implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Notifier.class);
    private static final long IDLE_WAIT_MS = 200;

    private final String cacheName;
    private final String topic;
    private final NotifyConfig config;
    private final NotifyBuffer buffer;
    private final BooleanSupplier ready;
    private final NotifyMetrics metrics;
    private final Consumer<String> fatal;
    private final HttpClient http;
    private final AtomicReference<Map<Integer, Long>> committable = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long drainDeadlineNanos = Long.MAX_VALUE;
    private volatile boolean draining;

    /**
     * @param ready whether the cache has caught up (nothing is sent before)
     * @param fatal called with a reason when {@code on-failure: exit} gives up
     */
    public Notifier(String cacheName, String topic, NotifyConfig config, BooleanSupplier ready,
                    NotifyMetrics metrics, Consumer<String> fatal) {
        this.cacheName = cacheName;
        this.topic = topic;
        this.config = config;
        this.buffer = new NotifyBuffer(topic);
        this.ready = ready;
        this.metrics = metrics;
        this.fatal = fatal;
        this.http = config.hasTargets()
                ? HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(config.requestTimeout()).build()
                : null;
        this.thread = new Thread(this::run, "notify-" + cacheName);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Called by the consumer thread after a poll: the changes to notify, and the positions now consumed. */
    public void append(List<KeyChange> changes, Map<Integer, Long> positions) {
        buffer.append(changes, positions);
    }

    /** Positions whose changes are all notified (or skipped), to commit; null if nothing new. */
    public Map<Integer, Long> takeCommittable() {
        return committable.getAndSet(null);
    }

    public int pendingKeys() {
        return buffer.pendingKeys();
    }

    /** Wakes the notifier, e.g. when the cache became ready. */
    public void wakeUp() {
        buffer.wakeUp();
    }

    /**
     * Sends what is pending (if the cache is ready) until the buffer is empty or the deadline passes, then stops.
     * Returns whether everything pending was sent.
     */
    public boolean drain(Duration deadline) {
        drainDeadlineNanos = System.nanoTime() + deadline.toNanos();
        draining = true;
        running = false;
        buffer.wakeUp();
        try {
            thread.join(Math.max(1, deadline.toMillis() + 100));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            thread.interrupt();
        }
        int left = buffer.pendingKeys();
        if (left > 0) {
            LOG.warn("Cache {}: {} changed keys were not notified before shutdown; they are notified again after a "
                    + "restart with the same group id", cacheName, left);
        }
        return left == 0;
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }

    private void run() {
        try {
            while (running || (draining && System.nanoTime() < drainDeadlineNanos)) {
                if (!ready.getAsBoolean()) {
                    if (!running) {
                        return;
                    }
                    buffer.awaitChange(IDLE_WAIT_MS);
                    continue;
                }
                int keys = buffer.pendingKeys();
                if (keys == 0) {
                    Map<Integer, Long> idle = buffer.idlePositions();
                    if (idle != null) {
                        committable.set(idle);
                    }
                    if (!running) {
                        return;
                    }
                    buffer.awaitChange(IDLE_WAIT_MS);
                    continue;
                }
                long ageMs = buffer.pendingAgeNanos() / 1_000_000;
                boolean full = buffer.pendingBodyBytes() >= config.maxBatchBytes() - 256;
                if (!full && !draining && ageMs < config.linger().toMillis()) {
                    buffer.awaitChange(Math.max(1, config.linger().toMillis() - ageMs));
                    continue;
                }
                List<String> oversized = new ArrayList<>();
                UpdateBatch batch = buffer.take(config.maxBatchBytes(), oversized);
                for (String key : oversized) {
                    LOG.error("Cache {}: a changed key of {} characters cannot fit a notification body of at most {} "
                            + "bytes (notify.max-batch-bytes); it is not notified", cacheName, key.length(),
                            config.maxBatchBytes());
                    metrics.skipped();
                }
                if (batch == null) {
                    continue;
                }
                if (!batch.keys().isEmpty()) {
                    deliver(batch);
                }
                if (batch.commitPositions() != null) {
                    committable.set(batch.commitPositions());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("Cache {}: the notifier failed", cacheName, e);
            fatal.accept("notifier of cache " + cacheName + " failed: " + e);
        }
    }

    /** One batch to every address, in retry rounds that resolve the targets again. */
    void deliver(UpdateBatch batch) throws InterruptedException {
        byte[] body = batch.body();
        metrics.batchSent(batch.keys().size(), body.length);
        if (http == null) {
            return; // kkv: without targets, batches are built and counted, then dropped
        }
        Set<URI> done = new HashSet<>();
        for (int attempt = 0; ; attempt++) {
            Map<URI, String> pendingErrors = post(batch, body, done);
            if (pendingErrors.isEmpty()) {
                return;
            }
            if (attempt >= config.retryTimes() || (!running && System.nanoTime() >= drainDeadlineNanos)) {
                giveUp(batch, pendingErrors, attempt + 1);
                return;
            }
            metrics.retried();
            long backoff = config.retryBackoff().toMillis() << Math.min(attempt, 16);
            LOG.info("Cache {}: retrying a notification to {} address(es) in {} ms ({})", cacheName,
                    pendingErrors.size(), backoff, pendingErrors.values().iterator().next());
            Thread.sleep(backoff);
        }
    }

    /**
     * One round: the batch to every address not done yet, in parallel. A 2xx or 4xx answer makes the address done;
     * returns the others with their errors (connection errors, 5xx, targets that did not resolve).
     */
    private Map<URI, String> post(UpdateBatch batch, byte[] body, Set<URI> done) throws InterruptedException {
        String offsetsHeader = batch.offsetsHeader();
        Map<URI, String> pendingErrors = new LinkedHashMap<>();
        Map<URI, CompletableFuture<HttpResponse<Void>>> inFlight = new LinkedHashMap<>();
        for (URI address : resolve(pendingErrors)) {
            if (done.contains(address)) {
                continue;
            }
            HttpRequest request = HttpRequest.newBuilder(address)
                    .timeout(config.requestTimeout())
                    .header("Content-Type", "application/json")
                    .header("x-kkv-topic", topic)
                    .header("x-kkv-offsets", offsetsHeader)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
            inFlight.put(address, http.sendAsync(request, HttpResponse.BodyHandlers.discarding()));
        }
        for (Map.Entry<URI, CompletableFuture<HttpResponse<Void>>> e : inFlight.entrySet()) {
            URI address = e.getKey();
            try {
                int status = e.getValue().get().statusCode();
                if (status >= 200 && status < 300) {
                    metrics.delivered();
                    done.add(address);
                } else if (status >= 400 && status < 500) {
                    LOG.warn("Cache {}: {} answered {} to a notification of {} keys; skipped for that address",
                            cacheName, redact(address), status, batch.keys().size());
                    metrics.skipped();
                    done.add(address);
                } else {
                    pendingErrors.put(address, "HTTP " + status);
                }
            } catch (java.util.concurrent.ExecutionException ex) {
                Throwable cause = ex.getCause() == null ? ex : ex.getCause();
                pendingErrors.put(address, cause.getClass().getSimpleName()
                        + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
            }
        }
        return pendingErrors;
    }

    /**
     * The retries are spent (or the drain deadline has passed): each address counts as failed, and with
     * {@code on-failure: exit} the process ends.
     */
    private void giveUp(UpdateBatch batch, Map<URI, String> pendingErrors, int attempts) {
        for (Map.Entry<URI, String> e : pendingErrors.entrySet()) {
            metrics.failed();
            LOG.error("Cache {}: notification of {} keys to {} failed after {} attempts ({}); {}", cacheName,
                    batch.keys().size(), redact(e.getKey()), attempts, e.getValue(),
                    config.onFailure() == NotifyConfig.OnFailure.EXIT
                            ? "ending the process (notify.on-failure: exit)" : "skipped for that address");
        }
        if (config.onFailure() == NotifyConfig.OnFailure.EXIT) {
            fatal.accept("notification of cache " + cacheName + " failed after " + attempts + " attempts");
            running = false;
        }
    }

    /** A URL for logs: without user info, query or fragment (they may carry credentials). */
    public static String redact(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
                + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    /** Every address of every target, resolved now, plus the static URLs. Resolution errors go to {@code errors}. */
    private List<URI> resolve(Map<URI, String> errors) {
        List<URI> out = new ArrayList<>();
        for (URI target : config.targets()) {
            try {
                for (InetAddress a : InetAddress.getAllByName(target.getHost())) {
                    String host = a.getHostAddress();
                    if (host.indexOf(':') >= 0) {
                        host = "[" + host + "]";
                    }
                    out.add(new URI(target.getScheme(), null, host, target.getPort(), target.getPath(),
                            target.getQuery(), null));
                }
            } catch (UnknownHostException e) {
                errors.put(target, "UnknownHostException: " + target.getHost());
            } catch (URISyntaxException e) {
                errors.put(target, e.getMessage());
            }
        }
        out.addAll(config.staticTargets());
        return out;
    }
}
