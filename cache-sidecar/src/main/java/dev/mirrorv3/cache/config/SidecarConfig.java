package dev.mirrorv3.cache.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The whole sidecar: where it listens and which caches it serves.
 *
 * @param httpHost         address the HTTP API binds to ({@code http.host}, default {@code 0.0.0.0})
 * @param httpPort         HTTP API port ({@code http.port}, default 8080; 0 picks a free port)
 * @param ioThreads        HTTP I/O threads ({@code http.io-threads}, default: the available processors)
 * @param metricsPort      Prometheus port ({@code metrics.port}, default 9090; 0 picks a free port, -1 disables)
 * @param shutdownDeadline how long a graceful stop may spend flushing notifications ({@code shutdown.deadline-ms})
 * @param caches           the caches, in config order; at most one is {@link CacheConfig#main()}
 */
public record SidecarConfig(String httpHost, int httpPort, int ioThreads, int metricsPort, Duration shutdownDeadline,
                            List<CacheConfig> caches) {

    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final int DEFAULT_METRICS_PORT = 9090;
    public static final Duration DEFAULT_SHUTDOWN_DEADLINE = Duration.ofSeconds(10);

    public SidecarConfig {
        caches = List.copyOf(caches);
    }

    public Optional<CacheConfig> mainCache() {
        return caches.stream().filter(CacheConfig::main).findFirst();
    }

    public SidecarConfig withPorts(int newHttpPort, int newMetricsPort) {
        return new SidecarConfig(httpHost, newHttpPort, ioThreads, newMetricsPort, shutdownDeadline, caches);
    }
}
