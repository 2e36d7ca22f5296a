package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.Compression;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.RecordTypeCheck;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.kafka.Backoff;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.GroupOffsetSeeder;
import dev.mirrorv3.kafka.RetryPauses;
import dev.mirrorv3.kafka.SourceOffsets;
import dev.mirrorv3.kafka.mirror.MirrorPositions;
import dev.mirrorv3.kafka.mirror.MirrorPositions.Pair;
import dev.mirrorv3.kafka.mirror.MirrorPositions.Position;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies source partitions to the same-numbered partitions of a destination topic with the same offsets.
 * The destination's high watermark is the position: {@code open()} seeks the source there. Records stream through one
 * idempotent producer (acks=all, many in flight); every delivery must land at its source offset, else the task fails
 * naming both offsets. The first failed delivery aborts the producer, so nothing queued behind it reaches the
 * destination; a transient failure then re-reads the high watermark until it is stable, rewinds the consumer there,
 * drops the rest of the batch and backs off; the task stays RUNNING (README, "Transient failures").
 */
public class KafkaSinkTask extends SinkTask {
    private static final Logger log = LoggerFactory.getLogger(KafkaSinkTask.class);
    private static final long IN_FLIGHT_POLL_MS = 500;
    /**
     * How long the destination's high watermarks must stay the same before a recovery rewinds to them, when records
     * were lost in flight: a request already on its way to a broker that hung is appended when the broker wakes up,
     * and a batch in the leader's log counts once the followers have it.
     */
    static final long SETTLE_MS = 1000;
    private static final String RECREATE = "The destination no longer holds the source's offsets: make sure this connector is"
            + " the only writer of the destination topic, delete it and create it again, then restart the task";

    private final Clock clock;
    private KafkaSinkConfig config;
    private String connectorName;
    private Session session;
    private SourceOffsets sourceOffsets;
    private SourceOffsets destinationOffsets;
    private MirrorPositions positions;
    private KafkaSinkMetrics metrics;
    private Backoff backoff;
    /** Positioning retries back off on their own: records flowing for the other partitions say nothing about them. */
    private Backoff openBackoff;
    private RetryPauses retryPauses;
    private RecordTypeCheck typeCheck;
    private boolean sourceTimestamps;

    private final Map<TopicPartition, Mirror> mirrors = new HashMap<>();
    private final Set<TopicPartition> pending = new LinkedHashSet<>();
    private final Set<TopicPartition> repositioned = new HashSet<>();
    /** A failure that fails the task: recorded by the producer's I/O thread or by open(), thrown from put(). */
    private final AtomicReference<RuntimeException> fatal = new AtomicReference<>();
    /** The first transient delivery failure since the last recovery. */
    private final AtomicReference<Throwable> transientFailure = new AtomicReference<>();
    /** Set when the destination holds what this task did not write: nothing more may be sent, not even on close. */
    private volatile boolean destinationCorrupted;
    private boolean recovering;
    private boolean rewound;
    private boolean backedOff;
    /** The destination high watermarks read last in this recovery, while records lost in flight may still land. */
    private Map<TopicPartition, Long> settling;
    private long nextAttemptMs;
    private long nextOpenAttemptMs;
    private long nextHeartbeatMs;

    public KafkaSinkTask() {
        this(Clock.systemUTC());
    }

    KafkaSinkTask(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String version() {
        return KafkaSinkConnector.versionString();
    }

    @Override
    public void start(Map<String, String> props) {
        config = new KafkaSinkConfig(props);
        connectorName = props.getOrDefault("name", "kafka-sink");
        backoff = new Backoff(config.retryBackoffInitialMs(), config.retryBackoffMaxMs());
        openBackoff = new Backoff(config.retryBackoffInitialMs(), config.retryBackoffMaxMs());
        retryPauses = new RetryPauses(context::pause, context::resume);
        sourceOffsets = new SourceOffsets(config.sourceAdminConfig("mirror-v3-kafka-sink-source-" + connectorName), config.adminTimeout());
        destinationOffsets = new SourceOffsets(config.destinationAdminConfig("mirror-v3-kafka-sink-destination-" + connectorName),
                config.adminTimeout());
        positions = new MirrorPositions(sourceOffsets, destinationOffsets, config.destinationBootstrap(), config.adminTimeout());
        sourceTimestamps = config.sourceTimestamps();
        if (config.keysType() != ValueType.BYTES || config.valuesType() != ValueType.BYTES) {
            typeCheck = new RecordTypeCheck(new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED, config.keysType(),
                    config.valuesType()));
        }
        metrics = new KafkaSinkMetrics(context, connectorName, retryPauses::count);
        session = new Session(createProducer(config.producerConfig(producerClientId())));
        seedGroupOffsets(props);
        nextHeartbeatMs = clock.millis() + config.heartbeatIntervalMs();
        pollWithin(Long.MAX_VALUE); // the first poll, which joins the group and opens the partitions
        log.info("Kafka sink task of {} started: destination {}, timestamps from the {}", connectorName, config.destinationBootstrap(),
                sourceTimestamps ? "source" : "destination producer");
    }

    /**
     * Runs before the consumer first joins its group (Connect subscribes lazily, on the first poll); the connector restarts
     * the tasks when a topic grows, so that new partitions are seeded here too. A failure fails the task with what to do.
     */
    private void seedGroupOffsets(Map<String, String> props) {
        try {
            GroupOffsetSeeder.seedForSinkTask(sourceOffsets.admin(), sourceOffsets, props, connectorName, config.adminTimeout(),
                    KafkaSinkConfig.ADMIN_TIMEOUT_MS);
        } catch (GroupOffsetSeeder.GroupSeedingException e) {
            throw new ConnectException(e.getMessage(), e);
        }
    }

    private String producerClientId() {
        return "mirror-v3-kafka-sink-" + connectorName;
    }

    /** The destination producer; tests override this to observe or delay sends. */
    protected Producer<byte[], byte[]> createProducer(Map<String, Object> producerConfig) {
        return new KafkaProducer<>(producerConfig);
    }

    /** Called before each record is sent; tests override it to hold a task in the middle of a batch. */
    protected void beforeSend(TopicPartition source, long offset) {
    }

    @Override
    public void open(Collection<TopicPartition> partitions) {
        pending.addAll(partitions);
        nextOpenAttemptMs = 0;
        try {
            openPending(false);
        } catch (RuntimeException e) {
            // An exception from open() reaches Connect only after its consumer has fetched from the group's offset;
            // pause instead and fail from the next put() with this message.
            context.pause(partitions.toArray(new TopicPartition[0]));
            fatal.compareAndSet(null, e);
            context.timeout(1); // the next poll returns at once, and put() fails with the message
        }
    }

    /**
     * Positions the pending partitions at their destination's high watermark and resumes them, whichever path calls it:
     * Connect pauses again after a rebalance what we paused before, even if it was closed in between. During a
     * recovery they stay paused until it ends. A transient failure keeps them paused and pending for a later put().
     */
    private void openPending(boolean fromPut) {
        if (pending.isEmpty() || clock.millis() < nextOpenAttemptMs) {
            return;
        }
        List<TopicPartition> batch = List.copyOf(pending);
        List<Pair> pairs = batch.stream().map(this::pair).toList();
        Map<TopicPartition, Position> resolved;
        try {
            resolved = resolvePositions(pairs);
        } catch (RuntimeException e) {
            if (!Failures.isTransient(e)) {
                throw fatal(e);
            }
            long delay = openBackoff.next();
            nextOpenAttemptMs = clock.millis() + delay;
            metrics.restart();
            retryPauses.pause(batch);
            context.timeout(delay);
            log.warn("cannot position {} yet: paused, retrying in {} ms (attempt {}): {}", batch, delay, openBackoff.attempts(),
                    Failures.describe(e));
            return;
        }
        openBackoff.reset();
        for (Pair p : pairs) {
            Position pos = resolved.get(p.source());
            Mirror m = new Mirror(p.source(), p.destination(), pos.next(), pos.sourceHighWatermark());
            mirrors.put(p.source(), m);
            pending.remove(p.source());
            context.offset(p.source(), pos.next());
            metrics.opened(p.source(), m.acked::get, m.records::get, m.bytes::get, () -> m.sourceHwm);
            if (fromPut) {
                repositioned.add(p.source()); // the rest of this batch predates the seek
            }
            log.info("starting mirror {}: destination {} on {}, position from the destination's high watermark, resolved next offset {}"
                    + " (source log start {}, high watermark {})", p.source(), p.destination(), config.destinationBootstrap(), pos.next(),
                    pos.sourceLogStart(), pos.sourceHighWatermark());
        }
        if (recovering) {
            retryPauses.pause(batch); // records fetched now would be dropped by the recovery, which resumes them at its end
            return;
        }
        List<TopicPartition> retried = retryPauses.resume(batch);
        if (!retried.isEmpty()) {
            log.info("positioned {} after a retry: resumed", retried);
        }
    }

    /** Where each pair continues; tests override this to make positioning fail. */
    protected Map<TopicPartition, Position> resolvePositions(List<Pair> pairs) {
        return positions.resolve(pairs);
    }

    private Pair pair(TopicPartition source) {
        return new Pair(source, new TopicPartition(config.destinationTopic(source.topic()), source.partition()));
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        throwIfFatal();
        if (recovering) {
            continueRecovery();
            return;
        }
        openPending(true);
        boolean failed = false;
        for (SinkRecord r : records) {
            if (fatal.get() != null) {
                break; // thrown below
            }
            if (transientFailure.get() != null) {
                failed = true;
                break; // the rest of the batch is dropped: recovery rewinds to the destination's high watermark
            }
            TopicPartition tp = new TopicPartition(r.originalTopic(), r.originalKafkaPartition());
            Mirror m = mirrors.get(tp);
            if (m == null || repositioned.contains(tp)) {
                continue;
            }
            long offset = r.originalKafkaOffset();
            if (offset < m.expected) {
                continue; // a re-delivery of a record already sent
            }
            if (offset > m.expected) {
                throw fatal(new ConnectException("the source has an offset hole at " + m.expected + " in " + tp + " (the next record"
                        + " is at offset " + offset + "; compaction, a transaction marker or an aborted record): a Kafka destination"
                        + " cannot reproduce it, and " + m.destination + " stays complete up to offset " + (m.expected - 1) + ". Back"
                        + " such topics up to a blob destination instead"));
            }
            ProducerRecord<byte[], byte[]> pr = toProducerRecord(r, m);
            beforeSend(tp, offset);
            try {
                session.producer.send(pr, new Delivery(session, m, offset, payloadBytes(pr)));
            } catch (RuntimeException e) {
                if (session.aborted()) {
                    failed = true; // a failed delivery aborted the producer under this send: recover (or fail) below
                    break;
                }
                if (!Failures.isTransient(e)) {
                    throw fatal(new ConnectException("cannot send the record of " + tp + " offset " + offset + " to " + m.destination
                            + ": " + Failures.describe(e), e));
                }
                transientFailure.compareAndSet(null, e);
                failed = true;
                break;
            }
            m.expected++;
            m.sinceHeartbeat++;
        }
        repositioned.clear();
        throwIfFatal();
        if (failed || transientFailure.get() != null) {
            startRecovery();
            return;
        }
        if (!records.isEmpty() && backoff.attempts() > 0) {
            backoff.reset(); // records flow again after a recovery
        }
        heartbeat();
        pollWithin(inFlight() ? IN_FLIGHT_POLL_MS : nextHeartbeatMs - clock.millis());
    }

    /**
     * Asks Connect for the next poll within {@code delayMs}, by the next positioning retry, and never later than
     * retry.backoff.initial.ms: a rebalance runs inside a poll, and a transient failure of the open() it calls is
     * retried only after that poll.
     */
    private void pollWithin(long delayMs) {
        long delay = Math.min(delayMs, config.retryBackoffInitialMs());
        if (!pending.isEmpty()) {
            delay = Math.min(delay, nextOpenAttemptMs - clock.millis());
        }
        context.timeout(Math.max(1, delay));
    }

    private ProducerRecord<byte[], byte[]> toProducerRecord(SinkRecord r, Mirror m) {
        byte[] key = bytes(r.key(), r, "key", "key.converter");
        byte[] value = bytes(r.value(), r, "value", "value.converter");
        Long ts = sourceTimestamps && r.timestamp() != null && r.timestamp() >= 0 ? r.timestamp() : null;
        if (typeCheck != null) {
            typeCheck.check(new BackupRecord(m.source.topic(), m.source.partition(), r.originalKafkaOffset(), ts,
                    TimestampType.NOT_AVAILABLE, key, value, List.of()));
        }
        RecordHeaders headers = new RecordHeaders();
        for (Header h : r.headers()) {
            headers.add(new RecordHeader(h.key(), bytes(h.value(), r, "header '" + h.key() + "'", "header.converter")));
        }
        return new ProducerRecord<>(m.destination.topic(), m.destination.partition(), ts, key, value, headers);
    }

    private static byte[] bytes(Object o, SinkRecord r, String field, String converterSetting) {
        if (o == null || o instanceof byte[]) {
            return (byte[]) o;
        }
        throw new DataException("record at " + r.originalTopic() + "/" + r.originalKafkaPartition() + " offset " + r.originalKafkaOffset()
                + " has a " + field + " of type " + o.getClass().getSimpleName() + ", not bytes: the Kafka sink copies exact bytes;"
                + " set " + converterSetting + "=" + KafkaSinkConfigValidator.BYTE_ARRAY_CONVERTER);
    }

    private static long payloadBytes(ProducerRecord<byte[], byte[]> pr) {
        long n = (pr.key() == null ? 0 : pr.key().length) + (pr.value() == null ? 0 : pr.value().length);
        for (org.apache.kafka.common.header.Header h : pr.headers()) {
            n += h.key().length() + (h.value() == null ? 0 : h.value().length);
        }
        return n;
    }

    private boolean inFlight() {
        for (Mirror m : mirrors.values()) {
            if (m.acked.get() < m.expected) {
                return true;
            }
        }
        return false;
    }

    // --- transient destination failures --------------------------------------------------------------------------

    private void startRecovery() {
        recovering = true;
        rewound = false;
        backedOff = false;
        settling = null;
        pauseAll();
        Throwable cause = transientFailure.get();
        log.warn("transient failure writing to {}: {}; the producer is aborted (nothing queued behind a failed record may reach"
                + " the destination), continuing from the destination's high watermark once it is stable", config.destinationBootstrap(),
                cause == null ? "a send failed" : Failures.describe(cause));
        attemptRewind();
    }

    private void continueRecovery() {
        long now = clock.millis();
        if (now < nextAttemptMs) {
            context.timeout(nextAttemptMs - now);
            return;
        }
        if (!rewound) {
            attemptRewind();
            if (!rewound) {
                return;
            }
        }
        recovering = false;
        transientFailure.set(null);
        resumeAll();
        log.info("destination {} reachable again: continuing {} from the destination's high watermark", config.destinationBootstrap(),
                describePositions());
        context.timeout(IN_FLIGHT_POLL_MS);
    }

    /**
     * Makes sure the aborted producer has stopped (every delivery has completed: acknowledged, or lost in flight),
     * re-reads each destination high watermark and rewinds the source there. When records were lost in flight, the
     * high watermarks must read the same twice, {@link #SETTLE_MS} apart, first: some of those records may still land
     * (always in send order, at their own offsets: the aborted producer neither re-sends nor bumps its epoch). Then
     * backs off once, unless a backoff was already waited. A transient failure of these steps backs off and tries
     * again; the destination holding what this task did not write fails the task.
     */
    private void attemptRewind() {
        try {
            session.abortAndAwait();
            throwIfFatal();
            List<Mirror> all = List.copyOf(mirrors.values());
            Map<TopicPartition, Long> hwms = positions.destinationHighWatermarks(all.stream().map(m -> new Pair(m.source, m.destination)).toList());
            boolean lostInFlight = false;
            for (Mirror m : all) {
                long h = hwms.get(m.destination);
                long acked = m.acked.get();
                if (h < acked || h > m.expected || (!m.failed && h != acked)) {
                    destinationCorrupted = true;
                    throw fatal(new ConnectException("destination " + m.destination + " has high watermark " + h + " after a transient"
                            + " failure, and this task had " + acked + " acknowledged and " + m.expected + " sent for " + m.source
                            + ": another writer on the destination, or records lost by the destination. " + RECREATE));
                }
                lostInFlight |= m.failed;
            }
            if (lostInFlight && !hwms.equals(settling)) {
                settling = hwms;
                nextAttemptMs = clock.millis() + SETTLE_MS;
                context.timeout(SETTLE_MS);
                log.info("destination {} high watermarks {}: reading them again in {} ms, records lost in flight may still land",
                        config.destinationBootstrap(), hwms, SETTLE_MS);
                return;
            }
            for (Mirror m : all) {
                long h = hwms.get(m.destination);
                m.expected = h;
                m.acked.set(h);
                m.failed = false;
                context.offset(m.source, h);
            }
            // A fresh producer continues: the old one is closed, and carried the outage with it anyway (metadata and
            // reconnect backoffs), which delayed the first write after the destination came back by seconds.
            session = new Session(createProducer(config.producerConfig(producerClientId())));
            rewound = true;
            if (backedOff) {
                nextAttemptMs = 0;
                return; // a backoff was waited in this recovery: continue now
            }
        } catch (RuntimeException e) {
            if (!Failures.isTransient(e)) {
                throw fatal(e);
            }
            settling = null; // two reads in a row must agree
            log.warn("destination {} still unavailable: {}", config.destinationBootstrap(), Failures.describe(e));
        }
        long delay = backoff.next();
        backedOff = true;
        metrics.restart();
        nextAttemptMs = clock.millis() + delay;
        context.timeout(delay);
        log.warn("retrying the destination {} in {} ms (attempt {})", config.destinationBootstrap(), delay, backoff.attempts());
    }

    private void pauseAll() {
        retryPauses.pause(List.copyOf(mirrors.keySet()));
    }

    private void resumeAll() {
        retryPauses.resume(List.copyOf(mirrors.keySet()));
    }

    private String describePositions() {
        List<String> parts = new ArrayList<>();
        mirrors.values().forEach(m -> parts.add(m.source + " at " + m.expected));
        return String.join(", ", parts);
    }

    // --- heartbeat, commits, shutdown ------------------------------------------------------------------------------

    private void heartbeat() {
        long now = clock.millis();
        if (config.heartbeatIntervalMs() <= 0 || now < nextHeartbeatMs) {
            return;
        }
        nextHeartbeatMs = now + config.heartbeatIntervalMs();
        try {
            Map<TopicPartition, Long> hwms = sourceOffsets.highWatermarks(List.copyOf(mirrors.keySet()));
            hwms.forEach((tp, h) -> {
                Mirror m = mirrors.get(tp);
                if (m != null) {
                    m.sourceHwm = h;
                }
            });
        } catch (RuntimeException e) {
            log.debug("cannot read source high watermarks for the lag metric: {}", Failures.describe(e));
        }
        for (Mirror m : mirrors.values()) {
            log.info("heartbeat {}: next offset {} acknowledged by {}, {} record(s) sent since the last heartbeat, source high watermark {}",
                    m.source, m.acked.get(), m.destination, m.sinceHeartbeat, m.sourceHwm);
            m.sinceHeartbeat = 0;
        }
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        Map<TopicPartition, OffsetAndMetadata> durable = new HashMap<>();
        for (TopicPartition tp : currentOffsets.keySet()) {
            Mirror m = mirrors.get(tp);
            if (m != null) {
                durable.put(tp, new OffsetAndMetadata(m.acked.get()));
            }
        }
        return durable;
    }

    @Override
    public void close(Collection<TopicPartition> partitions) {
        // The next owner of these partitions reads the destination's high watermark: nothing of ours may be in flight.
        if (session != null && !destinationCorrupted) {
            if (session.aborted()) {
                session.abortAndAwait(); // a closed producer cannot flush: wait until its aborted deliveries have completed
            } else {
                session.producer.flush();
            }
        }
        retryPauses.closed(partitions);
        for (TopicPartition tp : partitions) {
            pending.remove(tp);
            mirrors.remove(tp);
            metrics.closed(tp);
        }
        if (mirrors.isEmpty()) {
            recovering = false;
            transientFailure.set(null);
        }
        throwIfFatal();
    }

    @Override
    public void stop() {
        if (session != null) {
            // After a mismatch, records not yet sent are dropped rather than added behind another writer's.
            session.producer.close(destinationCorrupted || session.aborted() ? Duration.ZERO : Duration.ofSeconds(10));
        }
        if (metrics != null) {
            metrics.close();
        }
        if (sourceOffsets != null) {
            sourceOffsets.close();
        }
        if (destinationOffsets != null) {
            destinationOffsets.close();
        }
        log.info("Kafka sink task of {} stopped", connectorName);
    }

    private void throwIfFatal() {
        RuntimeException f = fatal.get();
        if (f != null) {
            throw fatal(f);
        }
    }

    private ConnectException fatal(RuntimeException e) {
        ConnectException ce = e instanceof ConnectException c && !(e instanceof org.apache.kafka.connect.errors.RetriableException)
                ? c : new ConnectException(Failures.describe(e), e);
        fatal.compareAndSet(null, ce);
        return ce;
    }

    /** One opened partition: where its copy stands. {@code expected} is the task thread's; the rest is shared. */
    private static final class Mirror {
        final TopicPartition source;
        final TopicPartition destination;
        /** The source offset of the next record to send (= the destination offset it must get). */
        long expected;
        /** The destination offset after the last record acknowledged at its source offset. */
        final AtomicLong acked;
        final AtomicLong records = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
        volatile boolean failed;
        volatile long sourceHwm;
        long sinceHeartbeat;

        Mirror(TopicPartition source, TopicPartition destination, long next, long sourceHwm) {
            this.source = source;
            this.destination = destination;
            this.expected = next;
            this.acked = new AtomicLong(next);
            this.sourceHwm = sourceHwm;
        }
    }

    /**
     * One destination producer, until its first failed delivery aborts it. {@link KafkaProducer#close(Duration)} with
     * zero from a callback (the producer's I/O thread) does not block: the sender stops after its current iteration,
     * without re-sending, bumping its epoch or resetting sequences, and fails every batch not yet complete. Requests
     * already written may still be appended, but only in their sequence order: a prefix of what was sent.
     */
    private static final class Session {
        final Producer<byte[], byte[]> producer;
        private final AtomicBoolean aborted = new AtomicBoolean();
        private boolean awaited;

        Session(Producer<byte[], byte[]> producer) {
            this.producer = producer;
        }

        boolean aborted() {
            return aborted.get();
        }

        /** Stops the producer at once (any thread, first call only): nothing more is sent. */
        void abort() {
            if (aborted.compareAndSet(false, true)) {
                producer.close(Duration.ZERO);
            }
        }

        /** On the task thread: aborts, and waits until the I/O thread has ended, so every callback has run. */
        void abortAndAwait() {
            if (!awaited) {
                aborted.set(true);
                producer.close(Duration.ZERO); // joins the I/O thread (also when a callback aborted it already)
                awaited = true;
            }
        }
    }

    /** Checks one delivery (on the producer's I/O thread, or the task's for a send refused at once); in send order per partition. */
    private final class Delivery implements Callback {
        private final Session session;
        private final Mirror mirror;
        private final long sentFor;
        private final long payload;

        Delivery(Session session, Mirror mirror, long sentFor, long payload) {
            this.session = session;
            this.mirror = mirror;
            this.sentFor = sentFor;
            this.payload = payload;
        }

        @Override
        public void onCompletion(RecordMetadata md, Exception e) {
            if (e == null && md.offset() == sentFor) {
                if (!mirror.failed) {
                    mirror.acked.set(sentFor + 1);
                    mirror.records.incrementAndGet();
                    mirror.bytes.addAndGet(payload);
                }
                return;
            }
            mirror.failed = true;
            if (e == null) {
                destinationCorrupted = true;
                fatal.compareAndSet(null, new ConnectException("destination " + mirror.destination + " stored the record of " + mirror.source
                        + " offset " + sentFor + " at offset " + md.offset() + ": another writer on the destination topic (a second"
                        + " connector, a zombie task of this one, a producer), or a record lost or duplicated. " + RECREATE));
            } else if (session.aborted()) {
                return; // failed by the abort (or expired with it): lost in flight, the recovery re-reads the destination
            } else if (Failures.isTransient(e)) {
                transientFailure.compareAndSet(null, e);
            } else {
                fatal.compareAndSet(null, new ConnectException("destination " + mirror.destination + " did not store the record of "
                        + mirror.source + " offset " + sentFor + ": " + Failures.describe(e), e));
            }
            // The first failed delivery: whatever is queued behind it must not reach the destination (an expired batch
            // followed by a later one that lands would put that one at the wrong offset).
            session.abort();
        }
    }
}
