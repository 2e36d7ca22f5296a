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
 * @param memory           the caches' memory budget ({@code memory.*})
 * @param caches           the caches, in config order; at most one is {@link CacheConfig#main()}
 */
public record SidecarConfig(String httpHost, int httpPort, int ioThreads, int metricsPort, Duration shutdownDeadline,
                            Memory memory, List<CacheConfig> caches) {

    /**
     * @param maxBytes          {@code memory.max-bytes}: what all cache stores together may take; 0 derives it from
     *                          the heap (70 % of the old generation's maximum, or of 2/3 of the heap when the
     *                          collector does not bound the old generation: G1)
     * @param exceededExitAfter {@code memory.exceeded-exit-after-ms}: how long the sidecar reports an exceeded budget
     *                          (readiness, metric) before it exits with code 1
     */
    public record Memory(long maxBytes, Duration exceededExitAfter) {
        public static final Duration DEFAULT_EXCEEDED_EXIT_AFTER = Duration.ofSeconds(60);

        public static Memory defaults() {
            return new Memory(0, DEFAULT_EXCEEDED_EXIT_AFTER);
        }
    }

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
        return new SidecarConfig(httpHost, newHttpPort, ioThreads, newMetricsPort, shutdownDeadline, memory, caches);
    }
}
