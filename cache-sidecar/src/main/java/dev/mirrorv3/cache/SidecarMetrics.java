package dev.mirrorv3.cache;

import dev.mirrorv3.cache.notify.NotifyMetrics;
import dev.mirrorv3.cache.store.MemoryBudget;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The sidecar's Prometheus metrics ({@code mirror_v3_cache_*}, {@code mirror_v3_notify_*}), in a registry of its own
 * so that two sidecars in one JVM (tests) do not collide.
 */
public final class SidecarMetrics {

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final Histogram httpDuration;
    /** Per route label, the data points by status - 100: the hot path (GET raw) neither allocates nor formats. */
    private final ConcurrentHashMap<String, AtomicReferenceArray<DistributionDataPoint>> httpPoints =
            new ConcurrentHashMap<>();
    private final Counter delivered;
    private final Counter skipped;
    private final Counter failed;
    private final Counter retries;
    private final Counter batches;
    private final Counter batchKeys;

    /** @param gcOverloaded why the sidecar is unready as a whole (its GC-time watchdog tripped), or null */
    public SidecarMetrics(List<Cache> caches, MemoryBudget budget, Supplier<String> gcOverloaded) {
        GaugeWithCallback.builder().name("mirror_v3_cache_last_seen_offset")
                .help("Offset of the last record consumed per partition (low watermark - 1 before any)")
                .labelNames("cache", "topic", "partition")
                .callback(cb -> caches.forEach(c -> c.partitions().forEach(p -> cb.call(p.lastSeenOffset(),
                        c.name(), c.topic(), Integer.toString(p.partition())))))
                .register(registry);
        GaugeWithCallback.builder().name("mirror_v3_cache_lag_offsets")
                .help("Records behind the partition's current high watermark, as the consumer last knew it")
                .labelNames("cache", "topic", "partition")
                .callback(cb -> caches.forEach(c -> c.partitions().forEach(p -> cb.call(p.lag(),
                        c.name(), c.topic(), Integer.toString(p.partition())))))
                .register(registry);
        GaugeWithCallback.builder().name("mirror_v3_cache_keys").help("Keys held by the cache")
                .labelNames("cache", "topic")
                .callback(cb -> caches.forEach(c -> cb.call(c.store().size(), c.name(), c.topic())))
                .register(registry);
        GaugeWithCallback.builder().name("mirror_v3_cache_bytes")
                .help("Sum of the UTF-8 key and value lengths held by the cache (payload, without JVM overhead)")
                .labelNames("cache", "topic")
                .callback(cb -> caches.forEach(c -> cb.call(c.store().bytes(), c.name(), c.topic())))
                .register(registry);
        GaugeWithCallback.builder().name("mirror_v3_cache_memory_bytes")
                .help("Heap the cache's store takes: pages (records, headers, garbage not compacted yet) and index")
                .labelNames("cache", "topic")
                .callback(cb -> caches.forEach(c -> cb.call(c.store().footprint(), c.name(), c.topic())))
                .register(registry);
        GaugeWithCallback.builder().name("mirror_v3_cache_memory_budget_bytes")
                .help("memory.max-bytes: what all caches' stores may take together")
                .callback(cb -> cb.call(budget.maxBytes()))
                .register(registry);
        GaugeWithCallback.builder().name("mirror_v3_cache_memory_budget_exceeded")
                .help("1 when the cache stopped reading because its store would exceed memory.max-bytes (the "
                        + "sidecar exits after memory.exceeded-exit-after-ms)")
                .labelNames("cache", "topic")
                .callback(cb -> caches.forEach(c -> cb.call(c.memoryExceeded() != null ? 1 : 0, c.name(),
                        c.topic())))
                .register(registry);
        GaugeWithCallback.builder().name("mirror_v3_cache_gc_time_exceeded")
                .help("1 when the JVM spent more than half of the last 30 s in garbage collection (the sidecar is "
                        + "unready and exits after memory.exceeded-exit-after-ms)")
                .callback(cb -> cb.call(gcOverloaded.get() != null ? 1 : 0))
                .register(registry);
        GaugeWithCallback.builder().name("mirror_v3_cache_ready")
                .help("1 once the cache has caught up to the high watermark seen at startup (sticky)")
                .labelNames("cache", "topic")
                .callback(cb -> caches.forEach(c -> cb.call(c.ready() ? 1 : 0, c.name(), c.topic())))
                .register(registry);
        httpDuration = Histogram.builder().name("mirror_v3_cache_http_request_duration_seconds")
                .help("HTTP request durations by route and status")
                .labelNames("route", "status")
                .classicOnly()
                .withoutExemplars() // no trace context to take them from; sampling them cost the GET path
                .classicUpperBounds(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
                        5)
                .register(registry);
        delivered = counter("mirror_v3_notify_delivered", "Notification POSTs answered 2xx (per address)");
        skipped = counter("mirror_v3_notify_skipped",
                "Notification POSTs skipped for an address (4xx, or a key too long for any body)");
        failed = counter("mirror_v3_notify_failed",
                "Notification POSTs given up after the retry budget (connection errors, 5xx)");
        retries = counter("mirror_v3_notify_retries", "Retry rounds of notification batches");
        batches = counter("mirror_v3_notify_batches", "Notification batches built");
        batchKeys = counter("mirror_v3_notify_keys", "Keys in notification batches built");
    }

    private Counter counter(String name, String help) {
        return Counter.builder().name(name).help(help).labelNames("cache", "topic").register(registry);
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    /** @param route a label from a fixed set (HttpApi's routes) */
    public void observeHttp(String route, int status, long nanos) {
        int i = status - 100;
        if (i < 0 || i >= 500) {
            httpDuration.labelValues(route, Integer.toString(status)).observe(nanos / 1e9);
            return;
        }
        AtomicReferenceArray<DistributionDataPoint> byStatus =
                httpPoints.computeIfAbsent(route, r -> new AtomicReferenceArray<>(500));
        DistributionDataPoint point = byStatus.get(i);
        if (point == null) {
            point = httpDuration.labelValues(route, Integer.toString(status));
            byStatus.set(i, point);
        }
        point.observe(nanos / 1e9);
    }

    public String contentType() {
        return writer.getContentType();
    }

    public void write(OutputStream out) throws IOException {
        writer.write(out, registry.scrape(), EscapingScheme.UNDERSCORE_ESCAPING);
    }

    public NotifyMetrics notifyMetrics(String cache, String topic) {
        CounterDataPoint d = delivered.labelValues(cache, topic);
        CounterDataPoint s = skipped.labelValues(cache, topic);
        CounterDataPoint f = failed.labelValues(cache, topic);
        CounterDataPoint r = retries.labelValues(cache, topic);
        CounterDataPoint b = batches.labelValues(cache, topic);
        CounterDataPoint k = batchKeys.labelValues(cache, topic);
        return new NotifyMetrics() {
            @Override public void delivered() { d.inc(); }
            @Override public void skipped() { s.inc(); }
            @Override public void failed() { f.inc(); }
            @Override public void retried() { r.inc(); }
            @Override public void batchSent(int keys, int bodyBytes) {
                b.inc();
                k.inc(keys);
            }
        };
    }
}
