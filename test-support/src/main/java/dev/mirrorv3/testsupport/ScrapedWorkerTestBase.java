package dev.mirrorv3.testsupport;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;

/**
 * An observability integration test: one embedded Connect worker whose plugin MBeans are scraped through jmx_exporter's
 * collector loaded with the shipped {@code config/jmx-exporter.yaml} (the same code as the agent, in-process because
 * the embedded worker runs in this JVM), which is what an operator's Prometheus sees.
 */
public abstract class ScrapedWorkerTestBase {
    /** How long a connector may take to show what a test waits for. */
    protected static final Duration WAIT = Duration.ofSeconds(90);

    protected static ConnectTestCluster cluster;
    protected static PrometheusRegistry registry;

    /** Loads the shipped exporter config into a registry of its own and starts one worker. */
    protected static void startScrapedWorker() {
        registry = ObservabilityFiles.exporter();
        cluster = ConnectTestCluster.start(1);
    }

    /** The scrape, in Prometheus' text format. */
    protected static String scrape() {
        return ObservabilityFiles.scrape(registry);
    }
}
