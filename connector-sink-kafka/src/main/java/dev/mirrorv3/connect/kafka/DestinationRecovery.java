package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.connect.kafka.MirrorPositions.Pair;
import dev.mirrorv3.kafka.Backoff;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PartitionException;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import dev.mirrorv3.kafka.sink.FatalFailure;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka sink's destination producer and its recovery from transient failures. The first failed delivery aborts
 * the producer, so nothing queued behind it reaches the destination (batches expire one by one; a later one that
 * still lands would sit at the wrong offset). The task then starts a recovery, which moves through named states:
 * <pre>
 * FLOWING --start()--> ABORTED --read the destination's high watermarks--> SETTLING    (records were lost in flight)
 *                                                                        | BACKING_OFF (the read failed)
 *                                                                        | REWOUND     (stable: the consumer is rewound)
 * SETTLING, BACKING_OFF --proceed() when due--> read again, as from ABORTED
 * REWOUND --proceed() when due, or at once when a wait was already spent--> FLOWING (partitions resumed)
 * </pre>
 * A delivery that landed at another offset (another writer on that destination partition) aborts the producer as a
 * failed one does; with partition.failure=partition the recovery that follows isolates that partition (and any other
 * whose high watermark no longer matches what this task wrote) before it rewinds the rest, so the one shared producer's
 * abort-on-first-failure still keeps every record off a wrong offset (docs/kafka-sink.md, "A failed partition").
 * Everything runs on the task thread except the delivery callbacks (the producer's I/O thread), which only record.
 * What the recovery does to the Connect consumer goes through {@link Control}, so this class is tested without Connect.
 */
final class DestinationRecovery {
    private static final Logger log = LoggerFactory.getLogger(DestinationRecovery.class);
    /** How soon Connect polls again while records are in flight, and after a recovery. */
    static final long IN_FLIGHT_POLL_MS = 500;
    /**
     * How long the destination's high watermarks must stay the same before a recovery rewinds to them, when records
     * were lost in flight: a request already on its way to a broker that hung is appended when the broker wakes up,
     * and a batch in the leader's log counts once the followers have it.
     */
    static final long SETTLE_MS = 1000;
    static final String RECREATE = "The destination no longer holds the source's offsets: make sure this connector is"
            + " the only writer of the destination topic, delete it and create it again, then restart the task";

    enum State {
        /** No recovery: records flow. */
        FLOWING,
        /** A delivery failed: the producer is aborted, the destination's high watermarks are to be read. */
        ABORTED,
        /** Records were lost in flight: the high watermarks must read the same twice, {@link #SETTLE_MS} apart. */
        SETTLING,
        /** Reading the destination failed transiently: read again after the backoff. */
        BACKING_OFF,
        /** The consumer is rewound to the destination's high watermarks and a fresh producer is ready: resume when due. */
        REWOUND
    }

    /** What a recovery does to the source consumer; the task maps it onto its {@code SinkTaskContext}. */
    interface Control {
        void pause(Collection<TopicPartition> sources);

        void resume(Collection<TopicPartition> sources);

        /** Fetch {@code source} from {@code offset} next ({@code context.offset}). */
        void rewind(TopicPartition source, long offset);

        /** The next poll returns within {@code ms} ({@code context.timeout}). */
        void pollWithin(long ms);

        /** One more retry after a transient failure (the restarts metric). */
        void retried();

        /** Takes {@code source} out for a failure of its own (its destination holds another writer's record), or fails the task. */
        void isolate(TopicPartition source, RuntimeException failure);
    }

    /**
     * How a recovery paces itself and names the destination.
     *
     * @param destinationDescription how messages name the destination cluster (its bootstrap servers)
     * @param closeSettleMs          how long closing partitions during a recovery waits for the destination to settle
     * @param isolate                partition.failure=partition: another writer on a destination partition isolates it
     */
    record Settings(Clock clock, Backoff backoff, String destinationDescription, long closeSettleMs, boolean isolate) {
    }

    private final Clock clock;
    private final Supplier<Producer<byte[], byte[]>> producers;
    private final Function<List<Pair>, Map<TopicPartition, Long>> destinationHighWatermarks;
    private final Supplier<Collection<Mirror>> mirrors;
    private final Control control;
    private final FatalFailure fatal;
    private final Backoff backoff;
    private final String destinationDescription;
    /** What {@link #drain} waits for after an abort. */
    private final SettleBeforeClose closeSettle;
    private final Deliveries deliveries;
    private final boolean isolate;

    /** The producer in use; a fresh one after every recovery. */
    private AbortableProducer current;
    private State state = State.FLOWING;
    /** Whether this recovery has waited a backoff already. */
    private boolean backedOff;
    /** The destination high watermarks read last in this recovery, while records lost in flight may still land. */
    private Map<TopicPartition, Long> settling;
    private long nextAttemptMs;

    /**
     * @param producers                 creates each destination producer (a fresh one after every recovery)
     * @param destinationHighWatermarks reads the destination's high watermarks of the given pairs
     * @param mirrors                   the opened partitions, as they are now
     */
    DestinationRecovery(Supplier<Producer<byte[], byte[]>> producers,
                        Function<List<Pair>, Map<TopicPartition, Long>> destinationHighWatermarks, Supplier<Collection<Mirror>> mirrors,
                        Control control, FatalFailure fatal, Settings settings) {
        this.clock = settings.clock();
        this.producers = producers;
        this.destinationHighWatermarks = destinationHighWatermarks;
        this.mirrors = mirrors;
        this.control = control;
        this.fatal = fatal;
        this.backoff = settings.backoff();
        this.destinationDescription = settings.destinationDescription();
        this.closeSettle = new SettleBeforeClose(destinationHighWatermarks, destinationDescription, settings.closeSettleMs());
        this.deliveries = new Deliveries(fatal, settings.isolate());
        this.isolate = settings.isolate();
        this.current = new AbortableProducer(producers.get());
    }

    State state() {
        return state;
    }

    boolean recovering() {
        return state != State.FLOWING;
    }

    /**
     * Whether a delivery failed transiently, or landed at another offset, since the last recovery: the rest of the batch
     * must not be sent.
     */
    boolean deliveryFailed() {
        return deliveries.transientFailure() != null || deliveries.misplaced();
    }

    /**
     * Sends the record of {@code mirror}'s source at {@code offset}; its delivery is checked in the callback. Returns false
     * when the send failed at once and a recovery must start (transiently, or the producer was aborted under it).
     */
    boolean send(ProducerRecord<byte[], byte[]> record, Mirror mirror, long offset, long payloadBytes) {
        try {
            current.producer().send(record, deliveries.check(current, mirror, offset, payloadBytes));
            return true;
        } catch (RuntimeException e) {
            if (current.aborted()) {
                return false; // a failed delivery aborted the producer under this send
            }
            if (!ConnectFailures.isTransient(e)) {
                throw fatal.fail(new ConnectException("cannot send the record of " + mirror.source + " offset " + offset + " to "
                        + mirror.destination + ": " + Failures.describe(e), e));
            }
            deliveries.failedTransiently(e);
            return false;
        }
    }

    /** Records flowed through put(): the next recovery starts from the initial backoff. */
    void recordsFlowed() {
        if (backoff.attempts() > 0) {
            backoff.reset();
        }
    }

    /** FLOWING -> ABORTED: pauses every partition and makes the first attempt to rewind. */
    void start() {
        state = State.ABORTED;
        backedOff = false;
        settling = null;
        control.pause(sources());
        Throwable cause = deliveries.transientFailure();
        log.warn("transient failure writing to {}: {}; the producer is aborted (nothing queued behind a failed record may reach"
                + " the destination), continuing from the destination's high watermark once it is stable", destinationDescription,
                cause == null ? "a send failed" : Failures.describe(cause));
        attempt();
    }

    /** Called from put() while recovering: the next step when it is due, else a poll that ends when it is. */
    void proceed() {
        long now = clock.millis();
        if (now < nextAttemptMs) {
            control.pollWithin(nextAttemptMs - now);
            return;
        }
        if (state != State.REWOUND) {
            attempt();
            if (state != State.REWOUND) {
                return;
            }
        }
        state = State.FLOWING;
        deliveries.recovered();
        control.resume(sources());
        log.info("destination {} reachable again: continuing {} from the destination's high watermark", destinationDescription,
                describePositions());
        control.pollWithin(IN_FLIGHT_POLL_MS);
    }

    /**
     * Makes sure the aborted producer has stopped (every delivery has completed: acknowledged, or lost in flight),
     * re-reads each destination high watermark and rewinds the source there. When records were lost in flight, the
     * high watermarks must read the same twice, {@link #SETTLE_MS} apart, first: some of those records may still land
     * (always in send order, at their own offsets: the aborted producer neither re-sends nor bumps its epoch). Then
     * backs off once, unless a backoff was already waited. A transient failure of these steps backs off and tries
     * again; a destination partition holding what this task did not write is isolated, or fails the task.
     */
    private void attempt() {
        try {
            current.abortAndAwait();
            fatal.throwIfSet();
            for (Mirror m : List.copyOf(mirrors.get())) {
                if (m.corruption != null) {
                    control.isolate(m.source, m.corruption); // every callback has run: none is marked later
                }
            }
            List<Mirror> all = new ArrayList<>(mirrors.get());
            Map<TopicPartition, Long> hwms = destinationHighWatermarks.apply(all.stream()
                    .map(m -> new Pair(m.source, m.destination)).toList());
            all.removeIf(m -> !matches(m, hwms.get(m.destination)));
            boolean lostInFlight = all.stream().anyMatch(m -> m.failed);
            if (lostInFlight && !hwms.equals(settling)) {
                settling = hwms;
                state = State.SETTLING;
                nextAttemptMs = clock.millis() + SETTLE_MS;
                control.pollWithin(SETTLE_MS);
                log.info("destination {} high watermarks {}: reading them again in {} ms, records lost in flight may still land",
                        destinationDescription, hwms, SETTLE_MS);
                return;
            }
            for (Mirror m : all) {
                long h = hwms.get(m.destination);
                m.expected = h;
                m.acked.set(h);
                m.failed = false;
                control.rewind(m.source, h);
            }
            // A fresh producer continues: the old one is closed, and carried the outage with it anyway (metadata and
            // reconnect backoffs), which delayed the first write after the destination came back by seconds.
            current = new AbortableProducer(producers.get());
            state = State.REWOUND;
            if (backedOff) {
                nextAttemptMs = 0;
                return; // a backoff was waited in this recovery: continue now
            }
        } catch (RuntimeException e) {
            if (!ConnectFailures.isTransient(e)) {
                throw fatal.fail(e);
            }
            settling = null; // two reads in a row must agree
            state = State.BACKING_OFF;
            log.warn("destination {} still unavailable: {}", destinationDescription, Failures.describe(e));
        }
        long delay = backoff.next();
        backedOff = true;
        control.retried();
        nextAttemptMs = clock.millis() + delay;
        control.pollWithin(delay);
        log.warn("retrying the destination {} in {} ms (attempt {})", destinationDescription, delay, backoff.attempts());
    }

    /**
     * Whether the destination's high watermark {@code h} is one this task's deliveries explain: between what was
     * acknowledged and what was sent, and exactly what was acknowledged unless records were lost in flight. Anything else
     * is another writer (or records lost by the destination): that partition is isolated (partition.failure=partition),
     * or the task fails.
     */
    private boolean matches(Mirror m, long h) {
        long acked = m.acked.get();
        if (h >= acked && h <= m.expected && (m.failed || h == acked)) {
            return true;
        }
        RuntimeException held = new PartitionException("destination " + m.destination + " has high watermark " + h + " after a"
                + " transient failure, and this task had " + acked + " acknowledged and " + m.expected + " sent for " + m.source
                + ": another writer on the destination, or records lost by the destination. " + RECREATE);
        if (!isolate) {
            deliveries.corrupted();
            throw fatal.fail(held);
        }
        control.isolate(m.source, held);
        return false;
    }

    /**
     * Before partitions are closed: the next owner reads the destination's high watermark, so nothing of ours may be in
     * flight. An aborted producer cannot flush: wait until its deliveries have completed instead.
     */
    void drain() {
        if (deliveries.destinationCorrupted()) {
            return;
        }
        if (current.aborted()) {
            current.abortAndAwait();
            closeSettle.await(mirrors.get());
        } else {
            current.producer().flush();
        }
    }

    /** Every partition is closed: a recovery has nothing left to rewind, and the aborted producer is replaced. */
    void abandon() {
        state = State.FLOWING;
        deliveries.recovered();
        if (current.aborted() && !deliveries.destinationCorrupted()) {
            current = new AbortableProducer(producers.get()); // the next partitions opened here start with a working producer
        }
    }

    /** On stop: after a mismatch or an abort, records not yet sent are dropped rather than added behind another writer's. */
    void close() {
        current.producer().close(deliveries.destinationCorrupted() || current.aborted() ? Duration.ZERO : Duration.ofSeconds(10));
    }

    private List<TopicPartition> sources() {
        return mirrors.get().stream().map(m -> m.source).toList();
    }

    private String describePositions() {
        List<String> parts = new ArrayList<>();
        mirrors.get().forEach(m -> parts.add(m.source + " at " + m.expected));
        return String.join(", ", parts);
    }
}
