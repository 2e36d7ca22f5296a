package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.Version;
import dev.mirrorv3.chain.crypto.KeysDirException;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreFactory;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushResult;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.chain.write.PartitionWriter;
import dev.mirrorv3.kafka.Backoff;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.sink.PositionedSinkTask;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thin Connect glue around {@link ChainWriter}s, one per opened partition. The chain is the position:
 * {@code open} seeks to its end, {@code preCommit} reports only durable offsets, {@code close} flushes; the open,
 * pause, retry and commit skeleton is {@link PositionedSinkTask}'s.
 * Transient failures keep the buffers and ask Connect to re-deliver after a growing {@code context.timeout}
 * (Connect's WorkerSinkTask re-delivers the batch after a RetriableException); everything else fails the task with a message that says what
 * to do.
 * A chain's objects are encoded and committed on chain-core's FlushPipeline threads (flush.threads); a commit's outcome
 * is taken on the task thread at the next {@code put()} or {@code close()}, and only then counts ({@link PipelinedCommits};
 * docs/blob-sink.md, "Pipelined flush").
 */
public class BlobSinkTask extends PositionedSinkTask<PartitionWriter> {
    private static final Logger log = LoggerFactory.getLogger(BlobSinkTask.class);
    /** How often put() is called while commits run (an empty consumer poll costs little). */
    private static final long OUTCOME_POLL_MS = 10;

    private BlobSinkConfig config;
    private String connectorName;
    private EnvelopeFormat format;
    private Set<Integer> allowedPartitions;
    private final Map<String, Store> stores = new HashMap<>();
    private LogOffsets sourceOffsets;
    private WriterOpener opener;
    private BlobSinkMetrics metrics;
    private SourceLagRefresher lagRefresher;
    private MetaSnapshotter metaSnapshotter;
    /** The snapshotter's own stores: it runs on a thread of its own. */
    private final Map<String, Store> metaStores = new java.util.concurrent.ConcurrentHashMap<>();
    /** Write retries; positioning retries back off on their own in the base. */
    private Backoff backoff;

    private final Map<TopicPartition, PartitionWriter> writers = new HashMap<>();
    private final Map<TopicPartition, Long> recordsSinceHeartbeat = new HashMap<>();
    private PipelinedCommits commits;
    private TaskBuffer buffer;
    private long nextChainCheckMs;
    /** Partitions whose periodic chain check is due and waits for their running commit. */
    private final Set<TopicPartition> chainChecksDue = new HashSet<>();

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
        config = new BlobSinkConfig(props);
        connectorName = props.getOrDefault("name", "blob-sink");
        format = config.envelope().format();
        allowedPartitions = new HashSet<>(config.partitions());
        backoff = new Backoff(config.retryBackoffInitialMs(), Math.max(config.retryBackoffInitialMs(), config.retryBackoffMaxMs()));
        startPositioning(config.retryBackoffInitialMs(), config.retryBackoffMaxMs(), config.heartbeatIntervalMs());
        sourceOffsets = new LogOffsets(config.sourceAdminConfig(), config.adminTimeout());
        metrics = new BlobSinkMetrics(context, connectorName, retryPauses()::count);
        if (metrics.enabled() && config.sourceLagIntervalMs() > 0) {
            lagRefresher = new SourceLagRefresher(sourceOffsets, metrics, connectorName, config.sourceLagIntervalMs());
        }
        ObjectEncryption encryption;
        try {
            encryption = config.encryption();
        } catch (KeysDirException e) {
            throw new ConnectException(e.getMessage(), e);
        }
        if (config.metadataIntervalMs() > 0 || config.groupsIntervalMs() > 0) {
            metaSnapshotter = new MetaSnapshotter(sourceOffsets.admin(),
                    t -> metaStores.computeIfAbsent(t, x -> createStore(config, config.destinationName(connectorName, x))), encryption,
                    config.groupSelection(connectorName), config.adminTimeout(), clock, fatalFailure()::record)
                    .schedule(config.metadataIntervalMs(), config.groupsIntervalMs());
        }
        BackupIdentity identity = new BackupIdentity(this::storeFor, encryption, sourceOffsets.admin(), config.adminTimeout(), clock);
        opener = config.snapshots()
                ? new SnapshotOpener(this::storeFor, config.envelope(), encryption, config.flushPolicy(), sourceOffsets, identity, clock,
                        config.spillDir(connectorName), config.bufferMaxBytes())
                : new PartitionOpener(this::storeFor, config.envelope(), encryption, config.flushPolicy(), sourceOffsets, identity, clock);
        seedGroupOffsets(sourceOffsets, props, connectorName, config.adminTimeout(), BlobSinkConfig.ADMIN_TIMEOUT_MS);
        nextChainCheckMs = clock.millis() + config.chainCheckIntervalMs();
        commits = new PipelinedCommits(config, connectorName, clock, writers, retryPauses(), metrics,
                (tp, r) -> durable(tp, writers.get(tp), r));
        buffer = new TaskBuffer(config.bufferMaxBytes(), config.retryBackoffMaxMs(), clock, writers, commits, metrics);
        pollWithin(Long.MAX_VALUE); // the first poll, which joins the group and opens the partitions
        log.info("blob sink task of {} started: destination {}{}, format {}, flush {}, encryption {}", connectorName,
                config.getString(BlobSinkConfig.DESTINATION_TYPE), config.snapshots() ? " (compaction=log: snapshots, spill dir "
                        + config.spillDir(connectorName) + ")" : "", config.envelope(), config.flushPolicy() + " on "
                        + (config.flushThreads() == 0 ? "the task thread" : config.flushThreads() + " thread(s)"),
                encryption.encryptsNewObjects()
                        ? "parquet with key id " + encryption.writeKeyId() + " (keys " + encryption.keys().ids() + ")"
                        : "none" + (encryption.keys().ids().isEmpty() ? ""
                                : " (keys " + encryption.keys().ids() + " to read older objects)"));
    }

    /** The store holding one topic's chains; tests override this to inject faults. */
    protected Store createStore(BlobSinkConfig config, String destinationName) {
        return StoreFactory.open(config.originalsStrings(), destinationName); // shared with the restore CLI
    }

    private Store storeFor(String topic) {
        return stores.computeIfAbsent(topic, t -> createStore(config, config.destinationName(connectorName, t)));
    }

    @Override
    protected Collection<TopicPartition> toPosition(Collection<TopicPartition> assigned) {
        List<TopicPartition> mine = new ArrayList<>();
        List<TopicPartition> others = new ArrayList<>();
        for (TopicPartition tp : assigned) {
            (allowedPartitions.isEmpty() || allowedPartitions.contains(tp.partition()) ? mine : others).add(tp);
        }
        if (!others.isEmpty()) {
            context.pause(others.toArray(new TopicPartition[0]));
            log.info("not backing up {} (setting partitions={}): paused", others, allowedPartitions);
        }
        return mine;
    }

    /** The chain's end of each partition, or a snapshot writer's position; opening reads the chain from the store. */
    @Override
    protected Map<TopicPartition, ? extends PartitionWriter> resolve(List<TopicPartition> partitions) {
        return opener.open(partitions);
    }

    @Override
    protected long positioned(TopicPartition tp, PartitionWriter w) {
        writers.put(tp, w);
        recordsSinceHeartbeat.put(tp, 0L);
        metrics.opened(tp, w.durableNext());
        if (metaSnapshotter != null) {
            metaSnapshotter.durable(tp, w.durableNext());
        }
        return w.durableNext();
    }

    @Override
    protected void afterPositioned(Collection<TopicPartition> partitions) {
        if (lagRefresher != null) {
            lagRefresher.refreshSoon();
        }
        if (metaSnapshotter != null) {
            metaSnapshotter.topicsSoon(config.metadataIntervalMs() > 0);
        }
    }

    @Override
    protected void retried() {
        metrics.restart();
    }

    @Override
    protected void write(Collection<SinkRecord> records) {
        long now;
        try {
            commits.takeFinishedAndThrow();
            for (SinkRecord r : records) {
                TopicPartition tp = new TopicPartition(r.originalTopic(), r.originalKafkaPartition());
                PartitionWriter w = writers.get(tp);
                if (w == null || repositioned(tp) || r.originalKafkaOffset() < w.expectedNext()) {
                    continue; // not ours, not positioned yet, or already buffered or durable (a re-delivery)
                }
                BackupRecord br = RecordConversion.toBackup(r);
                buffer.makeRoomFor(br.payloadBytes(), this::flush);
                if (commits.pipelined(w)) {
                    // not read back from the writer: a commit running on another thread may shrink its buffer meanwhile
                    buffer.add(w.append(br) ? br.payloadBytes() : 0);
                } else {
                    long before = w.bufferedBytes();
                    w.append(br);
                    buffer.add(w.bufferedBytes() - before); // a snapshot's builder may replace a key's record, or spill
                }
                recordsSinceHeartbeat.merge(tp, 1L, Long::sum);
                Optional<FlushTrigger> trigger = w.sizeTrigger();
                if (trigger.isPresent()) {
                    flush(tp, w, trigger.get());
                }
            }
            now = clock.millis();
            for (Map.Entry<TopicPartition, PartitionWriter> e : writers.entrySet()) {
                Optional<FlushTrigger> sizeTrigger = e.getValue().sizeTrigger(); // it may have tripped while a commit ran
                if (sizeTrigger.isPresent() && commits.pipelined(e.getValue())) {
                    flush(e.getKey(), e.getValue(), sizeTrigger.get());
                } else if (e.getValue().msUntilTimeTrigger(now) == 0) {
                    flush(e.getKey(), e.getValue(), FlushTrigger.TIME);
                }
            }
            commits.takeFinishedAndThrow();
            periodicChecks(now);
            backoff.reset();
        } catch (RuntimeException e) {
            if (Failures.isTransient(e)) {
                long delay = backoff.next();
                metrics.restart();
                context.timeout(delay);
                log.warn("transient failure, keeping {} buffered bytes and retrying in {} ms (attempt {}): {}",
                        buffer.bytes(), delay, backoff.attempts(), Failures.describe(e));
                throw new RetriableException(Failures.describe(e), e);
            }
            throw fatal(e);
        }
        pollWithin(nextTimerDelay(clock.millis()));
    }

    /**
     * Starts writing the partition's buffer: a chain's next object on the pipeline (unless one of its commits is
     * running: a later put() starts the rest); a snapshot, or anything with flush.threads=0, on the task thread.
     */
    private void flush(TopicPartition tp, PartitionWriter w, FlushTrigger trigger) {
        if (commits.pipelined(w)) {
            commits.start(tp, (ChainWriter) w, trigger);
        } else {
            flushOnTaskThread(tp, w, trigger);
        }
    }

    /**
     * Writes the partition's buffer on the task thread. A commit that failed earlier goes first, as it was; the records
     * that came since follow if they are due themselves (a size or time trigger), or always on close and for the buffer cap.
     */
    private void flushOnTaskThread(TopicPartition tp, PartitionWriter w, FlushTrigger trigger) {
        boolean everything = trigger == FlushTrigger.CLOSE || trigger == FlushTrigger.BUFFER_CAP;
        while (w.bufferedRecords() > 0) {
            FlushResult r = w.flush(trigger).orElseThrow();
            durable(tp, w, r);
            if (!everything && w.sizeTrigger().isEmpty() && w.msUntilTimeTrigger(clock.millis()) > 0) {
                return;
            }
        }
    }

    /** An object is durable: only now do its offsets reach the metrics and the metadata snapshots (preCommit reads the writer). */
    private void durable(TopicPartition tp, PartitionWriter w, FlushResult r) {
        long next = r.name().to() + 1;
        buffer.add(-r.payloadBytes());
        metrics.flushed(tp, next, r.records(), r.objectBytes(), clock.millis());
        if (metaSnapshotter != null) {
            metaSnapshotter.durable(tp, next);
        }
        if (w instanceof SnapshotWriter s) {
            s.lastSnapshot().ifPresent(st -> metrics.snapshot(tp, st.keys(), st.objectBytes(), st.durationMs(), st.tombstones()));
        }
    }

    private void periodicChecks(long now) {
        if (now >= nextChainCheckMs) {
            chainChecksDue.addAll(writers.keySet());
            nextChainCheckMs = now + config.chainCheckIntervalMs();
        }
        // A partition is listed between its commits: a store may list an upload in progress (S3Proxy's filesystem
        // backend lists <name>-<uuid>; S3 never does), the check compares the listing with this task's last commit, and a
        // commit waiting for its retry has met an outage that a listing would only meet again, outside the retry's backoff.
        chainChecksDue.removeIf(tp -> {
            PartitionWriter w = writers.get(tp);
            if (w != null && (commits.running(tp) || commits.retryAt(tp).isPresent())) {
                return false;
            }
            if (w != null) {
                w.fullCheck(format);
            }
            return true;
        });
        heartbeatIfDue(now);
    }

    @Override
    protected void heartbeat() {
        writers.forEach((tp, w) -> log.info("heartbeat {}: next offset {}, {} record(s) since the last heartbeat, {} buffered",
                tp, w.durableNext(), recordsSinceHeartbeat.put(tp, 0L), w.bufferedRecords()));
    }

    /**
     * The longest the consumer may wait for records before the next put(): until the next timer, and while commits run,
     * {@link #OUTCOME_POLL_MS}, so that a commit's outcome is taken soon after it finishes (its offsets reach the metrics
     * and the metadata snapshots then), not at the next record or timer, up to retry.backoff.initial.ms later.
     */
    private long nextTimerDelay(long now) {
        long delay = Math.min(nextChainCheckMs - now, msUntilHeartbeat(now));
        if (commits.busy()) {
            delay = Math.min(delay, OUTCOME_POLL_MS);
        }
        for (Map.Entry<TopicPartition, PartitionWriter> e : writers.entrySet()) {
            OptionalLong retryAt = commits.retryAt(e.getKey());
            delay = Math.min(delay, retryAt.isPresent() ? retryAt.getAsLong() - now : e.getValue().msUntilTimeTrigger(now));
        }
        return delay;
    }

    @Override
    protected OptionalLong durableNext(TopicPartition tp) {
        PartitionWriter w = writers.get(tp);
        return w == null ? OptionalLong.empty() : OptionalLong.of(w.durableNext());
    }

    /**
     * Flushes each partition's buffer, after the commit it has running; a fatal failure of one is recorded and thrown
     * once all are closed. The other partitions' commits keep running.
     */
    @Override
    protected void closePositioned(Collection<TopicPartition> partitions) {
        commits.takeFinished(null);
        for (TopicPartition tp : partitions) {
            PartitionWriter w = writers.get(tp);
            if (w == null) {
                continue;
            }
            commits.forget(tp); // its frozen commit is re-issued now
            try {
                if (commits.pipelined(w)) {
                    commits.close(tp, (ChainWriter) w);
                } else {
                    flushOnTaskThread(tp, w, FlushTrigger.CLOSE);
                }
            } catch (RuntimeException e) {
                if (!commits.running(tp)) {
                    buffer.add(-w.bufferedBytes()); // what is left after the objects that did commit
                    w.discardBuffer();
                }
                if (Failures.isTransient(e)) {
                    log.warn("could not write the buffer of {} on close: {}; its records are not durable and will be read again"
                            + " from the chain's end when the partition is opened next", tp, Failures.describe(e));
                } else {
                    fatal(e); // the first one is thrown
                }
            }
            writers.remove(tp);
            metrics.closed(tp);
            if (metaSnapshotter != null) {
                metaSnapshotter.closed(tp);
            }
            recordsSinceHeartbeat.remove(tp);
        }
    }

    @Override
    public void stop() {
        if (commits != null) {
            commits.stop();
        }
        if (lagRefresher != null) {
            lagRefresher.close();
        }
        if (metaSnapshotter != null) {
            metaSnapshotter.close(); // before the admin client and the stores it uses
        }
        metaStores.values().forEach(Store::close);
        metaStores.clear();
        if (metrics != null) {
            metrics.close();
        }
        if (sourceOffsets != null) {
            sourceOffsets.close();
        }
        stores.values().forEach(Store::close);
        stores.clear();
        log.info("blob sink task of {} stopped", connectorName);
    }
}
