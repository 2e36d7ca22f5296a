package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.connect.kafka.MirrorPositions.Pair;
import dev.mirrorv3.connect.kafka.MirrorPositions.Position;
import dev.mirrorv3.kafka.Backoff;
import dev.mirrorv3.kafka.FailureVerdict;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.PartitionException;
import dev.mirrorv3.kafka.PartitionRetry;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.PositionException;
import dev.mirrorv3.kafka.SourceTopicCheck;
import dev.mirrorv3.kafka.config.ConnectorConfigFragment;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import dev.mirrorv3.kafka.sink.PositionedSinkTask;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies source partitions to the same-numbered partitions of a destination topic with the same offsets.
 * The destination's high watermark is the position: {@code open()} seeks the source there. Records stream through one
 * idempotent producer (acks=all, many in flight); every delivery must land at its source offset, else the task fails
 * naming both offsets (with partition.failure=partition: isolates that partition, as a hole or a record that cannot be
 * converted does; {@link PositionedSinkTask#isolate}). The first failed delivery aborts the producer, so nothing queued
 * behind it reaches the destination; a transient failure then re-reads the high watermark until it is stable, rewinds
 * the consumer there, drops the rest of the batch and backs off; the task stays RUNNING (docs/kafka-sink.md, "Transient
 * failures"). That recovery is
 * {@link DestinationRecovery}'s; the open, pause, retry and commit skeleton is {@link PositionedSinkTask}'s; this class
 * says how a partition is positioned, how a batch is sent and what is durable.
 */
public class KafkaSinkTask extends PositionedSinkTask<Position> {
    private static final Logger log = LoggerFactory.getLogger(KafkaSinkTask.class);
    private static final long IN_FLIGHT_POLL_MS = DestinationRecovery.IN_FLIGHT_POLL_MS;

    private KafkaSinkConfig config;
    private String connectorName;
    private DestinationRecovery recovery;
    private LogOffsets sourceOffsets;
    private LogOffsets destinationOffsets;
    private MirrorPositions positions;
    private KafkaSinkMetrics metrics;
    private DestinationRecords conversion;
    private SourceChecks sources;

    private final Map<TopicPartition, Mirror> mirrors = new HashMap<>();

    public KafkaSinkTask() {
        this(Clock.systemUTC());
    }

    KafkaSinkTask(Clock clock) {
        super(clock);
    }

    @Override
    public String version() {
        return KafkaSinkConnector.versionString();
    }

    @Override
    public void start(Map<String, String> props) {
        KafkaSinkConfig.FRAGMENTS.refuseAtStart(props); // a stored config never went through validate()
        config = new KafkaSinkConfig(props);
        connectorName = props.getOrDefault("name", "kafka-sink");
        startPositioning(config.retryBackoffInitialMs(), config.retryBackoffMaxMs(), config.heartbeatIntervalMs());
        sourceOffsets = new LogOffsets(config.sourceAdminConfig("mirror-v3-kafka-sink-source-" + connectorName), config.adminTimeout());
        destinationOffsets = new LogOffsets(config.destinationAdminConfig("mirror-v3-kafka-sink-destination-" + connectorName),
                config.adminTimeout());
        SourceIdentity identity = new SourceIdentity(sourceOffsets.admin(), destinationOffsets.admin(),
                IdentityTopic.of(config, destinationOffsets.admin(), "mirror-v3-kafka-sink-identity-" + connectorName),
                SourceIdentity.legacyGroupId(connectorName), config.destinationBootstrap(), config.adminTimeout());
        positions = new MirrorPositions(sourceOffsets, destinationOffsets, config.destinationBootstrap(), config.adminTimeout(), identity);
        sources = new SourceChecks(new SourceTopicCheck(sourceOffsets.admin(), config.adminTimeout()),
                new PartitionRetry(config.retryBackoffInitialMs(), config.retryBackoffMaxMs(), this::retried,
                ConnectFailures.KINDS), context::timeout, clock.millis());
        conversion = DestinationRecords.of(config);
        metrics = new KafkaSinkMetrics(context, connectorName, retryPauses()::count);
        startIsolation(config.partitionFailure(), config.partitionRetryMaxMs(), connectorName, metrics);
        recovery = new DestinationRecovery(() -> createProducer(config.producerConfig(producerClientId())),
                positions::destinationHighWatermarks, mirrors::values, new RecoveryControl(), fatalFailure(),
                new DestinationRecovery.Settings(clock, new Backoff(config.retryBackoffInitialMs(), config.retryBackoffMaxMs()),
                        config.destinationBootstrap(), 2 * config.adminTimeout().toMillis(), // well inside Connect's rebalance timeout
                        config.partitionFailure() == FailureVerdict.Isolation.PARTITION));
        seedGroupOffsets(sourceOffsets, props, connectorName, config.adminTimeout(), ConnectorConfigFragment.ADMIN_TIMEOUT_MS);
        pollWithin(Long.MAX_VALUE); // the first poll, which joins the group and opens the partitions
        log.info("Kafka sink task of {} started: destination {}, timestamps from the {}", connectorName, config.destinationBootstrap(),
                conversion.sourceTimestamps() ? "source" : "destination producer");
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

    /** Each partition's destination high watermark, checked against the source's log (see {@code PositionRule}). */
    @Override
    protected PerPartition<Position> resolve(List<TopicPartition> partitions) {
        return resolvePositions(partitions.stream().map(this::pair).toList());
    }

    @Override
    protected long positioned(TopicPartition source, Position pos) {
        Pair p = pair(source);
        Mirror m = new Mirror(source, p.destination(), pos.next(), pos.sourceHighWatermark());
        mirrors.put(source, m);
        sources.positioned(source, pos.sourceTopicId(), p.destination());
        metrics.opened(source, m.acked::get, m.records::get, m.bytes::get, () -> m.sourceHwm);
        log.info("starting mirror {}: destination {} on {}, position from the destination's high watermark, resolved next offset {}"
                + " (source log start {}, high watermark {})", source, p.destination(), config.destinationBootstrap(), pos.next(),
                pos.sourceLogStart(), pos.sourceHighWatermark());
        return pos.next();
    }

    /** During a recovery positioned partitions stay paused: records fetched now would be dropped by it, which resumes them at its end. */
    @Override
    protected boolean holdPositioned() {
        return recovery.recovering();
    }

    @Override
    protected boolean continueRecovery() {
        if (!recovery.recovering()) {
            return false;
        }
        recovery.proceed();
        return true;
    }

    @Override
    protected void retried() {
        metrics.restart();
    }

    /** Where each pair continues; tests override this to make positioning fail. */
    protected PerPartition<Position> resolvePositions(List<Pair> pairs) {
        return positions.resolve(pairs);
    }

    private Pair pair(TopicPartition source) {
        return new Pair(source, new TopicPartition(config.destinationTopic(source.topic()), source.partition()));
    }

    @Override
    protected void write(Collection<SinkRecord> records) {
        checkSources(records);
        boolean failed = false;
        for (SinkRecord r : records) {
            if (fatalFailure().isSet()) {
                break; // thrown below
            }
            if (recovery.deliveryFailed()) {
                failed = true;
                break; // the rest of the batch is dropped: recovery rewinds to the destination's high watermark
            }
            TopicPartition tp = new TopicPartition(r.originalTopic(), r.originalKafkaPartition());
            Mirror m = mirrors.get(tp);
            if (m == null || repositioned(tp)) {
                continue;
            }
            long offset = r.originalKafkaOffset();
            if (offset < m.expected) {
                continue; // a re-delivery of a record already sent
            }
            if (offset > m.expected) {
                isolate(tp, new PartitionException("the source has an offset hole at " + m.expected + " in " + tp + " (the next record"
                        + " is at offset " + offset + "; compaction, a transaction marker or an aborted record): a Kafka destination"
                        + " cannot reproduce it, and " + m.destination + " stays complete up to offset " + (m.expected - 1) + ". Back"
                        + " such topics up to a blob destination instead"));
                continue;
            }
            ProducerRecord<byte[], byte[]> pr;
            try {
                pr = conversion.toProducerRecord(r, m);
            } catch (RuntimeException e) {
                isolate(tp, e); // a record that cannot be converted
                continue;
            }
            beforeSend(tp, offset);
            if (!recovery.send(pr, m, offset, DestinationRecords.payloadBytes(pr))) {
                failed = true; // recover (or fail) below
                break;
            }
            m.expected++;
            m.sinceHeartbeat++;
        }
        fatalFailure().throwIfSet();
        if (failed || recovery.deliveryFailed()) {
            recovery.start();
            return;
        }
        if (!records.isEmpty()) {
            recovery.recordsFlowed();
        }
        long now = clock.millis();
        heartbeatIfDue(now);
        // Every hour: a source topic re-created meanwhile isolates its partitions (or fails the task).
        sources.lookIfDue(now, mirrors.values().stream().collect(Collectors.toMap(m -> m.source, m -> m.expected))).forEach(this::isolate);
        boolean inFlight = mirrors.values().stream().anyMatch(m -> m.acked.get() < m.expected);
        pollWithin(inFlight ? IN_FLIGHT_POLL_MS : msUntilHeartbeat(now));
    }

    /**
     * Before a batch is sent, its source topics must still be those the destination topics copy: records fetched from
     * a topic deleted and created again (the consumer may keep its positions across that) are never sent; every
     * partition of such a topic is isolated (its mirror dropped, so the loop skips its records) or the task fails.
     */
    private void checkSources(Collection<SinkRecord> records) {
        Map<TopicPartition, PositionException> recreated;
        try {
            recreated = sources.beforeSending(records, tp -> mirrors.containsKey(tp) && !repositioned(tp)
                    ? OptionalLong.of(mirrors.get(tp).expected) : OptionalLong.empty());
        } catch (RetriableException e) {
            throw e; // the batch is delivered again after the backoff
        } catch (RuntimeException e) {
            throw fatal(e);
        }
        recreated.forEach(this::isolate);
    }

    /** Maps what a recovery does to the source consumer onto Connect's context. */
    private final class RecoveryControl implements DestinationRecovery.Control {
        @Override
        public void pause(Collection<TopicPartition> sources) {
            retryPauses().pause(sources);
        }

        @Override
        public void resume(Collection<TopicPartition> sources) {
            retryPauses().resume(sources);
        }

        @Override
        public void rewind(TopicPartition source, long offset) {
            context.offset(source, offset);
        }

        @Override
        public void pollWithin(long ms) {
            context.timeout(ms);
        }

        @Override
        public void retried() {
            metrics.restart();
        }

        @Override
        public void isolate(TopicPartition source, RuntimeException failure) {
            KafkaSinkTask.this.isolate(source, failure);
        }
    }

    // --- heartbeat, commits, shutdown ------------------------------------------------------------------------------

    /** Reads the source high watermarks for the lag metric, then logs each mirror's line. */
    @Override
    protected void heartbeat() {
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
            log.info("heartbeat {}: next offset {} acknowledged by {}, {} record(s) sent since the last heartbeat,"
                    + " source high watermark {}",
                    m.source, m.acked.get(), m.destination, m.sinceHeartbeat, m.sourceHwm);
            m.sinceHeartbeat = 0;
        }
    }

    /** What the destination acknowledged at its source offsets. */
    @Override
    protected OptionalLong durableNext(TopicPartition tp) {
        Mirror m = mirrors.get(tp);
        return m == null ? OptionalLong.empty() : OptionalLong.of(m.acked.get());
    }

    /** Forgets a failed partition's mirror: records of it still in flight land at their own offsets or fail. */
    @Override
    protected OptionalLong dropPartition(TopicPartition tp) {
        Mirror m = mirrors.remove(tp);
        sources.closed(tp);
        metrics.closed(tp);
        return m == null ? OptionalLong.empty() : OptionalLong.of(m.acked.get());
    }

    @Override
    protected void closePositioned(Collection<TopicPartition> partitions) {
        if (recovery != null) {
            recovery.drain(); // the next owner of these partitions reads the destination's high watermark
        }
        for (TopicPartition tp : partitions) {
            Mirror m = mirrors.remove(tp);
            sources.closed(tp);
            metrics.closed(tp);
            if (m != null && m.corruption != null) {
                log.error("closing {} whose destination holds a record of another writer: {}", tp, Failures.describe(m.corruption));
            }
        }
        if (mirrors.isEmpty() && recovery != null) {
            recovery.abandon();
        }
    }

    @Override
    public void stop() {
        if (recovery != null) {
            recovery.close();
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
}
