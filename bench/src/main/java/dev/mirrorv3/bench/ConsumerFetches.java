package dev.mirrorv3.bench;

import java.util.Locale;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * How the sink task's consumer fetched during a run, from the Kafka client's own metrics in the worker (JMX): fetch
 * requests, records and bytes per fetch, the fetch latency, and the share of the task thread's time spent inside
 * {@code poll} waiting. A diagnostic printed beside the run's figures, the same for every sink, never a figure with a
 * goal: it tells a sink that waits on its fetches from one that keeps its consumer busy.
 */
final class ConsumerFetches {
    private final MBeanServerConnection mbs;
    private final ObjectName fetches;
    private final ObjectName consumer;
    private double fetchesAtStart;
    private double bytesAtStart;
    private double recordsAtStart;

    ConsumerFetches(MBeanServerConnection mbs, String connector) throws Exception {
        this.mbs = mbs;
        String client = "connector-consumer-" + connector + "-0"; // Kafka quotes a client id only when it must (Sanitizer)
        this.fetches = new ObjectName("kafka.consumer:type=consumer-fetch-manager-metrics,client-id=" + client);
        this.consumer = new ObjectName("kafka.consumer:type=consumer-metrics,client-id=" + client);
    }

    /** The totals before the run's records (none when the task has not started: its consumer starts at zero). */
    void start() {
        fetchesAtStart = read(fetches, "fetch-total", 0);
        bytesAtStart = read(fetches, "bytes-consumed-total", 0);
        recordsAtStart = read(fetches, "records-consumed-total", 0);
    }

    /** What the consumer did since {@link #start}, in words; "unknown" when the worker has no such metric. */
    String describe() {
        double n = read(fetches, "fetch-total", Double.NaN) - fetchesAtStart;
        if (Double.isNaN(n) || n <= 0) {
            return "consumer fetches unknown (no metric " + fetches + ")";
        }
        double bytes = read(fetches, "bytes-consumed-total", Double.NaN) - bytesAtStart;
        double records = read(fetches, "records-consumed-total", Double.NaN) - recordsAtStart;
        double idle = read(consumer, "poll-idle-ratio-avg", Double.NaN);
        return String.format(Locale.ROOT, "consumer fetches: %.0f requests, %.0f records and %.2f MB per fetch; fetch latency avg %.1f"
                + " ms; the task thread idle in poll %s of the time (poll-idle-ratio-avg), %.1f ms between polls on average", n,
                records / n, bytes / n / 1e6, read(fetches, "fetch-latency-avg", Double.NaN),
                Double.isNaN(idle) ? "an unknown share (the client reports NaN)" : String.format(Locale.ROOT, "%.0f%%", 100 * idle),
                read(consumer, "time-between-poll-avg", Double.NaN));
    }

    private double read(ObjectName name, String attribute, double otherwise) {
        try {
            Object v = mbs.getAttribute(name, attribute);
            return v instanceof Number num ? num.doubleValue() : otherwise;
        } catch (Exception e) {
            return otherwise; // the task's consumer is not registered (yet, or any more)
        }
    }
}
