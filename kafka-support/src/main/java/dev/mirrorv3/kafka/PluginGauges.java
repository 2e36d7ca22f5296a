package dev.mirrorv3.kafka;

import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges through Connect's plugin metrics (KIP-877) that can never stop a task from starting. A worker abandons a task
 * whose {@code stop()} outlives {@code task.shutdown.graceful.timeout.ms} (a broker or store gone under it) and may
 * start the same task again on the same worker at once: the abandoned instance still holds its metrics under the same
 * names in the worker's registry, {@link PluginMetrics#addMetric} refuses a name that exists, and a plugin may only
 * remove the names it registered itself. The new instance then goes without that gauge (a warning says which) until
 * its next registration of it (the next open of the partition, or the next start of the task).
 */
public final class PluginGauges {
    private static final Logger log = LoggerFactory.getLogger(PluginGauges.class);

    private PluginGauges() {
    }

    /** Registers the gauge; false (with a warning) when an earlier instance of this task still holds the name. */
    public static boolean add(PluginMetrics metrics, MetricName name, LongSupplier value) {
        try {
            metrics.addMetric(name, (Gauge<Long>) (config, now) -> value.getAsLong());
            return true;
        } catch (IllegalArgumentException exists) {
            log.warn("metric {} {} is still registered by an earlier instance of this task on this worker (its stop outlived"
                    + " task.shutdown.graceful.timeout.ms): this instance runs without it until it registers it again ({})",
                    name.name(), name.tags(), exists.getMessage());
            return false;
        }
    }

    /** Removes a gauge that {@link #add} may not have registered (the name was held by an earlier instance). */
    public static void remove(PluginMetrics metrics, MetricName name) {
        try {
            metrics.removeMetric(name);
        } catch (IllegalArgumentException notOurs) {
            // Never registered by this instance: nothing of ours to remove.
        }
    }
}
