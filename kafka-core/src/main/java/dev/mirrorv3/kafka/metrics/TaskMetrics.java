package dev.mirrorv3.kafka.metrics;

import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.kafka.PartitionFailures;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * The series every mirror-v3 task exports, whatever it copies: the transient failures it retried
 * ({@code mirror-restarts-total}) and, for a sink, the partitions paused meanwhile ({@code partitions-paused-for-retry}),
 * on the task's {@link PluginMetricsRegistry}, and the names of the sinks' shared per-partition series. A connector's
 * metrics class extends it with its own series.
 */
public abstract class TaskMetrics extends RegistrySeries implements PartitionFailures.Listener {
    public static final String RESTARTS_TOTAL = "mirror-restarts-total";
    public static final String PAUSED_FOR_RETRY = "partitions-paused-for-retry";
    /** A sink's per-partition series, named alike in both sinks so that they map to the same {@code mirror_v3_*} series. */
    public static final String OFFSET_VERIFIED = "destination-offset-verified";
    public static final String RECORDS_TOTAL = "destination-records-total";
    public static final String BYTES_TOTAL = "destination-bytes-total";
    public static final String SOURCE_LAG = "source-lag-offsets";
    /** The backup store's requests of the blob sink and the chain source, by operation and outcome. */
    public static final String STORE_REQUESTS_TOTAL = "store-requests-total";
    /** 1 while a partition is failed and isolated (docs/operations.md, "A failed partition"); absent otherwise. */
    public static final String PARTITION_FAILED = "partition-failed";

    private final AtomicLong restarts = new AtomicLong();

    /** @param unavailable what a transient failure found unavailable, for the restarts series' description */
    protected TaskMetrics(PluginMetricsRegistry metrics, String unavailable) {
        super(metrics);
        metrics.gauge(RESTARTS_TOTAL, "Transient failures retried (" + unavailable + " unavailable)", restarts::get);
    }

    /** Registers {@link #PAUSED_FOR_RETRY}; {@code doc} says what the task retries while they are paused. */
    protected final void pausedForRetry(String doc, IntSupplier paused) {
        metrics.gauge(PAUSED_FOR_RETRY, doc, paused::getAsInt);
    }

    /**
     * Registers the request counts of one topic's backup store, one series per operation and outcome (tags {@code topic},
     * {@code operation}, {@code outcome}): what the backup costs in requests.
     *
     * @param stores the request counts of the topic's stores (a task may open more than one), summed
     */
    public final void storeRequests(String topic, Supplier<? extends Collection<StoreRequests>> stores) {
        for (StoreRequests.Operation op : StoreRequests.Operation.values()) {
            for (StoreRequests.Outcome outcome : StoreRequests.Outcome.values()) {
                LinkedHashMap<String, String> tags = new LinkedHashMap<>();
                tags.put("topic", topic);
                tags.put("operation", op.label());
                tags.put("outcome", outcome.label());
                metrics.gauge(STORE_REQUESTS_TOTAL, "Requests to the backup store by operation (PUT, GET, HEAD, LIST, DELETE) and"
                        + " outcome (ok; refused: the store said no; failed: no answer or a server error)", tags,
                        () -> stores.get().stream().mapToLong(r -> r.count(op, outcome)).sum());
            }
        }
    }

    /**
     * A partition failed and is isolated: its {@link #PARTITION_FAILED} series is 1 until it is positioned again or
     * closed. Registered only then, so a healthy task exports no such series.
     */
    @Override
    public void failed(TopicPartition tp) {
        metrics.gauge(tp, PARTITION_FAILED, "1 while the partition is failed and isolated: paused, the task and the other"
                + " partitions go on (the reason is in the task's log and in mirror-v3 status)", () -> 1);
    }

    @Override
    public void cleared(TopicPartition tp) {
        metrics.remove(tp, PARTITION_FAILED);
    }

    /** Counts one transient failure retried. */
    public final void restart() {
        restarts.incrementAndGet();
    }
}
