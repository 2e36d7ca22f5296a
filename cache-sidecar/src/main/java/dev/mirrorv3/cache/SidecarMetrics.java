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
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

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
        partitionGauge(caches, "mirror_v3_cache_last_seen_offset",
                "Offset of the last record consumed per partition (low watermark - 1 before any)",
                PartitionState::lastSeenOffset);
        partitionGauge(caches, "mirror_v3_cache_lag_offsets",
                "Records behind the partition's current high watermark, as the consumer last knew it",
                PartitionState::lag);
        cacheGauge(caches, "mirror_v3_cache_keys", "Keys held by the cache", c -> c.store().size());
        cacheGauge(caches, "mirror_v3_cache_bytes",
                "Sum of the UTF-8 key and value lengths held by the cache (payload, without JVM overhead)",
                c -> c.store().bytes());
        cacheGauge(caches, "mirror_v3_cache_memory_bytes",
                "Heap the cache's store takes: pages (records, headers, garbage not compacted yet) and index",
                c -> c.store().footprint());
        gauge("mirror_v3_cache_memory_budget_bytes", "memory.max-bytes: what all caches' stores may take together",
                budget::maxBytes);
        cacheGauge(caches, "mirror_v3_cache_memory_budget_exceeded",
                "1 when the cache stopped reading because its store would exceed memory.max-bytes (the "
                        + "sidecar exits after memory.exceeded-exit-after-ms)",
                c -> c.memoryExceeded() != null ? 1 : 0);
        gauge("mirror_v3_cache_gc_time_exceeded",
                "1 when the JVM spent more than half of the last 30 s in garbage collection (the sidecar is "
                        + "unready and exits after memory.exceeded-exit-after-ms)",
                () -> gcOverloaded.get() != null ? 1 : 0);
        cacheGauge(caches, "mirror_v3_cache_ready",
                "1 once the cache has caught up to the high watermark seen at startup (sticky)",
                c -> c.ready() ? 1 : 0);
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

    /** A gauge per assigned partition of every cache. */
    private void partitionGauge(List<Cache> caches, String name, String help, ToDoubleFunction<PartitionState> value) {
        GaugeWithCallback.builder().name(name).help(help)
                .labelNames("cache", "topic", "partition")
                .callback(cb -> caches.forEach(c -> c.partitions().forEach(p -> cb.call(value.applyAsDouble(p),
                        c.name(), c.topic(), Integer.toString(p.partition())))))
                .register(registry);
    }

    /** A gauge per cache. */
    private void cacheGauge(List<Cache> caches, String name, String help, ToDoubleFunction<Cache> value) {
        GaugeWithCallback.builder().name(name).help(help)
                .labelNames("cache", "topic")
                .callback(cb -> caches.forEach(c -> cb.call(value.applyAsDouble(c), c.name(), c.topic())))
                .register(registry);
    }

    /** A gauge of the whole sidecar. */
    private void gauge(String name, String help, DoubleSupplier value) {
        GaugeWithCallback.builder().name(name).help(help)
                .callback(cb -> cb.call(value.getAsDouble()))
                .register(registry);
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
