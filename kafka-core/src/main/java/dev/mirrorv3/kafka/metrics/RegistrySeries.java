package dev.mirrorv3.kafka.metrics;

/**
 * Series registered on one {@link PluginMetricsRegistry}, which they own: closing them closes it (and removes every
 * series). The base of a task's metrics ({@link TaskMetrics}) and of a connector's group sync's.
 */
public abstract class RegistrySeries implements AutoCloseable {
    protected final PluginMetricsRegistry metrics;

    protected RegistrySeries(PluginMetricsRegistry metrics) {
        this.metrics = metrics;
    }

    /** Whether the worker exports plugin metrics at all. */
    public final boolean enabled() {
        return metrics.enabled();
    }

    @Override
    public void close() {
        metrics.close();
    }
}
