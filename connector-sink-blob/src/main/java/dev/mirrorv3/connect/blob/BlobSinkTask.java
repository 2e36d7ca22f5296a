package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.Version;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.SharedEncodings;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreFactory;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.PartitionRetry;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.RetryPauses;
import dev.mirrorv3.kafka.config.ConnectorConfigFragment;
import dev.mirrorv3.kafka.config.DestinationSettings;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import dev.mirrorv3.kafka.metrics.PluginMetricsRegistry;
import dev.mirrorv3.kafka.metrics.TaskMetrics;
import dev.mirrorv3.kafka.sink.PositionedSinkTask;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thin Connect glue around the write path ({@link PartitionWriters}: a writer per opened partition, a chain or
 * snapshots). The chain is the position: {@code open} seeks to its end, {@code preCommit} reports only durable offsets,
 * {@code close} flushes; the open, pause, retry and commit skeleton is {@link PositionedSinkTask}'s.
 * Transient failures keep the buffers and ask Connect to re-deliver after a growing {@code context.timeout}
 * (Connect's WorkerSinkTask re-delivers the batch after a RetriableException); a failure that belongs to one partition
 * (its chain, its position, one of its records) isolates that partition ({@link PositionedSinkTask#isolate}); anything
 * else fails the task with a message that says what to do.
 * A chain's objects are encoded and committed on chain-core's FlushPipeline threads (flush.threads); a commit's outcome
 * is taken on the task thread at the next {@code put()} or {@code close()}, and only then counts ({@link PipelinedCommits};
 * docs/blob-sink.md, "Pipelined flush").
 */
public class BlobSinkTask extends PositionedSinkTask<Map<Integer, BoundWriter<?>>> {
    private static final Logger log = LoggerFactory.getLogger(BlobSinkTask.class);

    private BlobSinkConfig config;
    private String connectorName;
    private PartitionSelection selection;
    private LogOffsets sourceOffsets;
    /** The task's series; with several destinations each destination has its own too. */
    private TaskMetrics metrics;
    /** Write retries; positioning retries back off on their own in the base. */
    private PartitionRetry writeRetry;
    private TeeWriters writers;
    private SharedEncodings encodings;

    public BlobSinkTask() {
        this(Clock.systemUTC());
    }

    BlobSinkTask(Clock clock) {
        super(clock);
    }

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        BlobSinkConfig.FRAGMENTS.refuseAtStart(props); // a stored config never went through validate()
        config = new BlobSinkConfig(props);
        connectorName = props.getOrDefault("name", "blob-sink");
        selection = PartitionSelection.of(config.partitions());
        writeRetry = new PartitionRetry(config.retryBackoffInitialMs(), Math.max(config.retryBackoffInitialMs(),
                config.retryBackoffMaxMs()), this::retried, ConnectFailures.KINDS);
        startPositioning(config.retryBackoffInitialMs(), config.retryBackoffMaxMs(), config.heartbeatIntervalMs());
        sourceOffsets = new LogOffsets(config.sourceAdminConfig(), config.adminTimeout());
        List<DestinationSettings> destinations = config.destinations();
        // A tee's destinations in the same format encode an object of the same records once (docs/blob-sink.md, "Several
        // destinations"): the bytes wait for the others in at most half of one destination's share of buffer.max.bytes.
        encodings = new SharedEncodings(config.bufferMaxBytes() / destinations.size() / 2);
        DestinationLane.Shared shared = new DestinationLane.Shared(context, connectorName, clock, sourceOffsets, this::createStore,
                fatalFailure()::record, encodings);
        List<DestinationLane> lanes = new ArrayList<>();
        for (DestinationSettings d : destinations) {
            int lane = lanes.size();
            lanes.add(config.tee()
                    ? new DestinationLane(shared, d, config.forDestination(d, destinations.size()),
                            new RetryPauses(tps -> List.of(tps).forEach(tp -> writers.hold(lane, tp)), tps -> { }), () -> 0)
                    : new DestinationLane(shared, d, config, retryPauses(), retryPauses()::count));
        }
        metrics = config.tee() ? new TaskMetrics(PluginMetricsRegistry.open(() -> context.pluginMetrics(), connectorName),
                "store or source cluster") { } : lanes.get(0).metrics;
        startIsolation(config.partitionFailure(), config.partitionRetryMaxMs(), connectorName, metrics);
        seedGroupOffsets(sourceOffsets, props, connectorName, config.adminTimeout(), ConnectorConfigFragment.ADMIN_TIMEOUT_MS);
        writers = new TeeWriters(lanes, clock, config);
        for (int i = 0; i < lanes.size() && config.tee(); i++) {
            int lane = i;
            lanes.get(i).writers.holdInsteadOfWaiting(tp -> writers.hold(lane, tp));
        }
        pollWithin(Long.MAX_VALUE); // the first poll, which joins the group and opens the partitions
        for (DestinationLane l : lanes) {
            log.info("blob sink task of {} started: {}{}, format {}, flush {}, encryption {}", connectorName, l.describe(),
                    config.snapshots() ? " (compaction=log: snapshots, spill dir " + config.spillDir(connectorName) + ")" : "",
                    l.config.envelope(), l.config.flushPolicy() + " on " + (config.flushThreads() == 0 ? "the task thread"
                            : config.flushThreads() + " thread(s)"), l.encryption.describe());
        }
    }

    /** Objects a destination took as another had encoded them (a tee's destinations in the same format). */
    long objectsEncodedOnce() {
        return encodings.taken();
    }

    /** The store holding one topic's chains; tests override this to inject faults. */
    protected Store createStore(BlobSinkConfig config, String destinationName) {
        return StoreFactory.open(config.originalsStrings(), destinationName); // shared with the restore CLI
    }

    @Override
    protected Collection<TopicPartition> toPosition(Collection<TopicPartition> assigned) {
        PartitionSelection.Split split = selection.split(assigned);
        if (!split.others().isEmpty()) {
            context.pause(split.others().toArray(new TopicPartition[0]));
            log.info("not backing up {} (setting partitions={}): paused", split.others(), selection.allowed());
        }
        return split.mine();
    }

    /** The chain's end of each partition, or a snapshot writer's position; opening reads the chain from the store. */
    @Override
    protected PerPartition<Map<Integer, BoundWriter<?>>> resolve(List<TopicPartition> partitions) {
        return writers.open(partitions);
    }

    @Override
    protected long positioned(TopicPartition tp, Map<Integer, BoundWriter<?>> w) {
        return writers.positioned(tp, w);
    }

    @Override
    protected void afterPositioned(Collection<TopicPartition> partitions) {
        writers.positioned();
    }

    @Override
    protected void retried() {
        metrics.restart();
    }

    @Override
    protected void write(Collection<SinkRecord> records) {
        long now;
        try {
            writers.takeFinished();
            isolateFailed();
            for (SinkRecord r : records) {
                TopicPartition tp = new TopicPartition(r.originalTopic(), r.originalKafkaPartition());
                if (!repositioned(tp) && writers.takes(tp, r.originalKafkaOffset())) { // else not ours, not positioned yet, failed,
                    append(tp, r);                                                  // or a re-delivery
                }
            }
            isolateFailed();
            now = clock.millis();
            writers.flushDue(now);
            writers.checkChainsIfDue(now);
            isolateFailed();
            writers.catchUp(now).forEach(context::offset); // a destination that can write again re-reads what it missed
            heartbeatIfDue(now);
            writeRetry.succeeded();
        } catch (RuntimeException e) {
            ConnectFailures.redeliverIfRetried(writeRetry, e, (delay, attempt, cause) -> {
                context.timeout(delay);
                log.warn("transient failure, keeping {} buffered bytes and retrying in {} ms (attempt {}): {}",
                        writers.bufferedBytes(), delay, attempt, cause);
            });
            throw fatal(e);
        }
        now = clock.millis();
        pollWithin(Math.min(writers.msUntilNextTimer(now), msUntilHeartbeat(now)));
    }

    /** Converts and appends one record; a record that cannot be converted isolates its partition. */
    private void append(TopicPartition tp, SinkRecord r) {
        BackupRecord record;
        try {
            record = RecordConversion.toBackup(r);
        } catch (RuntimeException e) {
            isolate(tp, e);
            return;
        }
        writers.append(tp, record);
    }

    /** Isolates the partitions the write path dropped for a failure of their own (or fails the task). */
    private void isolateFailed() {
        writers.takeFailures().forEach(this::isolate);
    }

    @Override
    protected OptionalLong dropPartition(TopicPartition tp) {
        return writers.drop(tp);
    }

    @Override
    protected void heartbeat() {
        writers.logHeartbeat();
    }

    @Override
    protected OptionalLong durableNext(TopicPartition tp) {
        return writers.durableNext(tp);
    }

    /**
     * Flushes each partition's buffer, after the commit it has running; a failure that fails the task is recorded and
     * thrown once all are closed, one of the partition's own only logged (whoever opens it next checks it again). The
     * other partitions' commits keep running.
     */
    @Override
    protected void closePositioned(Collection<TopicPartition> partitions) {
        writers.takeFinished();
        for (TopicPartition tp : partitions) {
            try {
                writers.close(tp);
            } catch (RuntimeException e) {
                if (ConnectFailures.isTransient(e) || isolates(e)) {
                    log.warn("could not write the buffer of {} on close: {}; its records are not durable and will be read again"
                            + " from the chain's end when the partition is opened next", tp, Failures.describe(e));
                } else {
                    fatal(e); // the first one is thrown
                }
            }
        }
    }

    @Override
    public void stop() {
        if (writers != null) {
            writers.close(); // each destination's commits, passes, metrics and stores, before the admin client they use
        }
        if (encodings != null) {
            encodings.close(); // what waited for a destination that stopped first
            if (config.tee()) {
                log.info("blob sink task of {}: {} object(s) a destination took as another had encoded them", connectorName,
                        encodings.taken());
            }
        }
        if (metrics != null && config.tee()) {
            metrics.close(); // the task's own series; a single destination's are its destination's
        }
        if (sourceOffsets != null) {
            sourceOffsets.close();
        }
        log.info("blob sink task of {} stopped", connectorName);
    }
}
