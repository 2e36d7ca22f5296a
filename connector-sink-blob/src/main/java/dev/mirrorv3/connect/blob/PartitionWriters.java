package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushResult;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.chain.write.PartitionWriter;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.RetryPauses;
import dev.mirrorv3.kafka.SourceTopicCheck;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blob sink task's write path, with one owner: the open partitions' writers, the payload bytes they buffer (the
 * task-wide cap, {@link BufferCap}), what becomes durable (metrics, {@link DurableOffsets}) and when each partition
 * is written or listed. Each writer is bound, when opened, to the {@link CommitStrategy} that commits it: a chain to
 * chain-core's FlushPipeline ({@link PipelinedCommits}) unless flush.threads=0, a snapshot to the task thread
 * ({@link InlineCommits}); docs/architecture.md, "The write path". A partition whose write, commit or chain check fails
 * for a reason that is not transient is dropped at once (its buffer and frozen commit forgotten, its bytes given back
 * to the cap) and its failure kept for the task ({@link #takeFailures}), which isolates it or fails. Called from the
 * task thread only.
 */
final class PartitionWriters {
    private static final Logger log = LoggerFactory.getLogger(BlobSinkTask.class); // the task's log lines
    /** How often put() is called while commits run (an empty consumer poll costs little). */
    private static final long OUTCOME_POLL_MS = 10;

    private final BlobSinkConfig config;
    private final EnvelopeFormat format;
    private final Clock clock;
    private final BlobSinkMetrics metrics;
    private final DurableOffsets offsets;
    private final BufferCap cap;
    private final PipelinedCommits pipelined;
    private final InlineCommits inline;
    private final ManifestWrites manifests;
    private final Map<TopicPartition, BoundWriter<?>> open = new HashMap<>();
    /** Payload bytes all writers hold, commits running included. */
    private long bufferedBytes;
    private final PeriodicChainChecks chainChecks;
    /** Partitions dropped for a failure the task has not taken yet, with it. */
    private final Map<TopicPartition, RuntimeException> failures = new LinkedHashMap<>();
    /** The durable next offset of each partition dropped for a failure, until the task takes it ({@link #drop}). */
    private final Map<TopicPartition, Long> droppedAt = new HashMap<>();
    /** A tee's destination: holds a partition back instead of waiting or retrying the batch (null: one destination). */
    private Consumer<TopicPartition> hold;

    PartitionWriters(BlobSinkConfig config, String connectorName, Clock clock, RetryPauses retryPauses, BlobSinkMetrics metrics,
                     DurableOffsets offsets) {
        this.config = config;
        this.format = config.envelope().format();
        this.clock = clock;
        this.metrics = metrics;
        this.offsets = offsets;
        this.cap = new BufferCap(config.bufferMaxBytes());
        this.pipelined = new PipelinedCommits(config, connectorName, clock, retryPauses, metrics, this::durable);
        this.inline = new InlineCommits(clock, this::durable);
        this.manifests = new ManifestWrites(config.retryBackoffMaxMs());
        this.chainChecks = new PeriodicChainChecks(config.chainCheckIntervalMs(), clock.millis());
    }

    /**
     * Chains, committed on the pipeline (on the task thread with flush.threads=0).
     *
     * @param source checks before each commit that the records' topic is still the one the chain holds
     */
    Positioner<BoundWriter<?>> chains(Positioner<ChainWriter> positioner, SourceTopicCheck source) {
        return bind(positioner, WriterKind.CHAINS, config.flushThreads() > 0 ? pipelined : inline, source);
    }

    /** Snapshots, committed on the task thread. */
    Positioner<BoundWriter<?>> snapshots(Positioner<SnapshotWriter> positioner, SourceTopicCheck source) {
        return bind(positioner, WriterKind.SNAPSHOTS, inline, source);
    }

    private static <W extends PartitionWriter> Positioner<BoundWriter<?>> bind(Positioner<W> positioner, WriterKind<W> kind,
                                                                                CommitStrategy<? super W> commits,
                                                                                SourceTopicCheck source) {
        return partitions -> positioner.open(partitions).map((tp, w) -> new BoundWriter<>(tp, w, kind, commits, source));
    }

    /**
     * One destination of a tee: a partition whose record finds no room without a wait, or whose write failed transiently,
     * is handed to {@code hold} (it takes no records until the tee lets it catch up) instead of waiting on the pipeline or
     * throwing, so that the other destinations go on.
     */
    void holdInsteadOfWaiting(Consumer<TopicPartition> hold) {
        this.hold = hold;
    }

    /** The partition's open writer, if any (a tee asks it where it continues and whether a retry waits). */
    Optional<BoundWriter<?>> writer(TopicPartition tp) {
        return Optional.ofNullable(open.get(tp));
    }

    /** Takes a positioned partition's writer; returns the offset its records continue from. */
    long open(BoundWriter<?> w) {
        long next = w.writer().durableNext();
        open.put(w.partition(), w);
        metrics.opened(w.partition(), next, clock.millis());
        offsets.durable(w.partition(), next);
        return next;
    }

    OptionalLong durableNext(TopicPartition tp) {
        BoundWriter<?> w = open.get(tp);
        return w == null ? OptionalLong.empty() : OptionalLong.of(w.writer().durableNext());
    }

    /** Whether the partition is open here and the record at {@code offset} is neither buffered nor durable yet. */
    boolean takes(TopicPartition tp, long offset) {
        BoundWriter<?> w = open.get(tp);
        return w != null && offset >= w.writer().expectedNext();
    }

    /**
     * Appends to an open partition once the cap leaves room, and starts writing its buffer if a size trigger trips. A
     * failure that is not transient drops the partition (the task takes it); a transient one is thrown.
     */
    void append(TopicPartition tp, BackupRecord record) {
        if (!makeRoomFor(record.payloadBytes())) {
            hold.accept(tp);
            return;
        }
        BoundWriter<?> w = open.get(tp);
        if (w == null) {
            return; // dropped while room was made
        }
        addBuffered(w.append(record));
        w.writer().sizeTrigger().ifPresent(t -> flush(w, t));
        dropFailed();
    }

    /** Takes the finished commits: successes count as durable, a failure drops its partition. */
    void takeFinished() {
        takePipelineFailures();
        dropFailed();
    }

    /** The end of a put(): starts the buffers that are due, takes the finished commits, writes the manifests due. */
    void flushDue(long now) {
        for (BoundWriter<?> w : open.values()) {
            w.dueAfterPut(now).ifPresent(t -> flush(w, t));
        }
        takeFinished();
        manifests.writeDue(open.values(), now, this::failed);
        dropFailed();
    }

    /**
     * The partitions dropped for a failure that is not transient since the last call, with it: the task isolates each
     * (or fails). Their writers are gone already.
     */
    Map<TopicPartition, RuntimeException> takeFailures() {
        Map<TopicPartition, RuntimeException> taken = new LinkedHashMap<>(failures);
        failures.clear();
        return taken;
    }

    /**
     * Drops a partition the task isolates: its running commit is waited for, its buffer and frozen commit are forgotten
     * (their bytes given back to the cap). Returns its durable next offset (also of one dropped already for its own
     * failure); empty if it was not open.
     */
    OptionalLong drop(TopicPartition tp) {
        Long at = droppedAt.remove(tp);
        if (at != null) {
            return OptionalLong.of(at);
        }
        BoundWriter<?> w = open.get(tp);
        if (w == null) {
            return OptionalLong.empty();
        }
        if (w.running() || w.retryAt().isPresent()) {
            pipelined.forget(tp);
        }
        long durable = w.writer().durableNext();
        addBuffered(-w.writer().bufferedBytes());
        w.writer().discardBuffer();
        open.remove(tp);
        w.closed();
        chainChecks.forget(tp);
        manifests.closed(tp);
        metrics.closed(tp);
        offsets.closed(tp);
        return OptionalLong.of(durable);
    }

    /** Writes or starts writing {@code w}'s buffer; a failure that is not transient is kept, a transient one thrown. */
    private void flush(BoundWriter<?> w, FlushTrigger trigger) {
        try {
            w.flush(trigger);
        } catch (RuntimeException e) {
            failed(w.partition(), e);
        }
    }

    /** Keeps a partition's failure for the task, unless it is transient (thrown: the batch is delivered again). */
    private void failed(TopicPartition tp, RuntimeException e) {
        if (ConnectFailures.isTransient(e) && hold != null) {
            log.warn("transient failure writing {}: holding it back, the other destinations go on: {}", tp, Failures.describe(e));
            hold.accept(tp);
            return;
        }
        if (ConnectFailures.isTransient(e)) {
            throw e;
        }
        failures.putIfAbsent(tp, e);
    }

    private void takePipelineFailures() {
        pipelined.takeFinishedFailures().forEach(this::failed);
    }

    /** Drops the partitions that failed, outside any loop over the open writers. */
    private void dropFailed() {
        for (TopicPartition tp : List.copyOf(failures.keySet())) {
            if (open.containsKey(tp)) {
                drop(tp).ifPresent(next -> droppedAt.put(tp, next));
            }
        }
    }

    /**
     * The periodic chain check ({@link PeriodicChainChecks}), per partition between its commits: a store may list an
     * upload in progress (S3Proxy's filesystem backend lists {@code <name>-<uuid>}; S3 never does), the check compares
     * the listing with this task's last commit, and a commit waiting for its retry has met an outage that a listing would
     * only meet again, outside the retry's backoff.
     */
    void checkChainsIfDue(long now) {
        chainChecks.runDue(now, tp -> open.get(tp) == null || !open.get(tp).busy(), tp -> {
            BoundWriter<?> w = open.get(tp);
            if (w != null) {
                try {
                    w.writer().periodicCheck(format);
                } catch (RuntimeException e) {
                    failed(tp, e);
                }
            }
        });
        dropFailed();
    }

    /**
     * The longest the consumer may wait for records before the next put(): until the next write, retry or chain check,
     * and while commits run, {@link #OUTCOME_POLL_MS}, so that a commit's outcome is taken soon after it finishes (its
     * offsets reach the metrics and the metadata snapshots then), not at the next record or timer, up to
     * retry.backoff.initial.ms later.
     */
    long msUntilNextTimer(long now) {
        long delay = chainChecks.msUntilNext(now);
        if (pipelined.busy()) {
            delay = Math.min(delay, OUTCOME_POLL_MS);
        }
        for (BoundWriter<?> w : open.values()) {
            OptionalLong retryAt = w.retryAt();
            delay = Math.min(delay, retryAt.isPresent() ? retryAt.getAsLong() - now : w.writer().msUntilTimeTrigger(now));
        }
        return delay;
    }

    void logHeartbeat() {
        open.forEach((tp, w) -> log.info("heartbeat {}: next offset {}, {} record(s) since the last heartbeat, {} buffered",
                tp, w.writer().durableNext(), w.takeRecordsSinceHeartbeat(), w.writer().bufferedRecords()));
    }

    long bufferedBytes() {
        return bufferedBytes;
    }

    /**
     * Writes the rest of the partition's buffer, after the commit it has running, and forgets the partition. On a
     * failure, what no commit still holds is dropped (read again from the chain's end when the partition is opened
     * next) and the failure is thrown; the other partitions' commits keep running.
     */
    void close(TopicPartition tp) {
        BoundWriter<?> w = open.get(tp);
        if (w == null) {
            return;
        }
        try {
            w.close();
            manifests.writeOnClose(w);
        } catch (RuntimeException e) {
            if (!w.running()) {
                addBuffered(-w.writer().bufferedBytes()); // what is left after the objects that did commit
                w.writer().discardBuffer();
            }
            throw e;
        } finally {
            open.remove(tp);
            w.closed();
            chainChecks.forget(tp);
            manifests.closed(tp);
            failures.remove(tp);
            metrics.closed(tp);
            offsets.closed(tp);
        }
    }

    void stop() {
        pipelined.stop();
    }

    /**
     * Frees room until a record of {@code recordBytes} fits under the cap (what {@link BufferCap} decides): spills or
     * starts the largest idle buffer, or waits for the running commits (a wait on the pipeline, never a spin),
     * re-issuing the frozen commits whose retry comes due meanwhile, at most retry.backoff.max.ms; after that the
     * batch is delivered again after a pause (a transient failure: the records appended so far are skipped then).
     * A tee's destination waits as long as its commits finish, each within retry.backoff.initial.ms (held back at once,
     * it would re-read what it missed: the source fetched again); false when one hangs or a retry waits, the record
     * does not fit and its partition is held back.
     */
    private boolean makeRoomFor(long recordBytes) {
        long waitUntil = -1;
        while (true) {
            BufferCap.Room<TopicPartition> room = cap.room(bufferedBytes, recordBytes, pipelined.runningBytes(), this::idleBuffers);
            if (room.fits()) {
                return true;
            }
            if (room.toFree().isPresent()) {
                BoundWriter<?> largest = open.get(room.toFree().get());
                if (largest.spill() > 0) {
                    bufferedBytes = open.values().stream().mapToLong(w -> w.writer().bufferedBytes()).sum();
                    metrics.bufferedBytes(bufferedBytes);
                    continue; // snapshot mode spills to disk: a snapshot is written on its own triggers only
                }
                flush(largest, FlushTrigger.BUFFER_CAP);
            } else if (hold != null) {
                if (!pipelined.awaitProgress(config.retryBackoffInitialMs())) {
                    return false; // the record's partition is held back: the other destinations go on
                }
            } else {
                long now = clock.millis();
                waitUntil = waitUntil < 0 ? now + config.retryBackoffMaxMs() : waitUntil;
                pipelined.awaitRoom(now, waitUntil);
            }
            takePipelineFailures();
            dropFailed(); // a failed partition's buffer is room too
        }
    }

    /** The buffered bytes of each partition that holds records no commit writes and no retry waits for. */
    private Map<TopicPartition, Long> idleBuffers() {
        Map<TopicPartition, Long> idle = new LinkedHashMap<>();
        open.forEach((tp, w) -> {
            if (w.writer().bufferedRecords() > 0 && !w.busy()) {
                idle.put(tp, w.writer().bufferedBytes());
            }
        });
        return idle;
    }

    /** An object is durable: only now do its offsets reach the metrics and the metadata snapshots (preCommit reads the writer). */
    private void durable(TopicPartition tp, FlushResult r) {
        long next = r.name().to() + 1;
        chainChecks.wrote(tp);
        addBuffered(-r.payloadBytes());
        metrics.flushed(tp, next, r.records(), r.objectBytes(), clock.millis());
        offsets.durable(tp, next);
        BoundWriter<?> w = open.get(tp);
        if (w != null) {
            w.durable(metrics);
        }
    }

    private void addBuffered(long delta) {
        bufferedBytes += delta;
        metrics.bufferedBytes(bufferedBytes);
    }
}
