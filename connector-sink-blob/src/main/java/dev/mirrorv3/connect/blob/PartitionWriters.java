package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushResult;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.chain.write.PartitionWriter;
import dev.mirrorv3.kafka.RetryPauses;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blob sink task's write path, with one owner: the open partitions' writers, the payload bytes they buffer (the
 * task-wide cap, {@link BufferCap}), what becomes durable (metrics, {@link DurableOffsets}) and when each partition
 * is written or listed. Each writer is bound, when opened, to the {@link CommitStrategy} that commits it: a chain to
 * chain-core's FlushPipeline ({@link PipelinedCommits}) unless flush.threads=0, a snapshot to the task thread
 * ({@link InlineCommits}); docs/architecture.md, "The write path". Called from the task thread only.
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
    private final Map<TopicPartition, OpenWriter<?>> open = new HashMap<>();
    /** Payload bytes all writers hold, commits running included. */
    private long bufferedBytes;
    private long nextChainCheckMs;
    /** Partitions whose periodic chain check is due and waits for their running commit. */
    private final Set<TopicPartition> chainChecksDue = new HashSet<>();

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
        this.nextChainCheckMs = clock.millis() + config.chainCheckIntervalMs();
    }

    /** Chains, committed on the pipeline (on the task thread with flush.threads=0). */
    WriterOpener<OpenWriter<?>> chains(WriterOpener<ChainWriter> opener) {
        return config.flushThreads() > 0 ? bind(opener, pipelined) : bind(opener, inline);
    }

    /** Snapshots, committed on the task thread. */
    WriterOpener<OpenWriter<?>> snapshots(WriterOpener<SnapshotWriter> opener) {
        return bind(opener, inline);
    }

    private static <W extends PartitionWriter> WriterOpener<OpenWriter<?>> bind(WriterOpener<W> opener,
                                                                                CommitStrategy<? super W> commits) {
        return partitions -> {
            Map<TopicPartition, OpenWriter<?>> bound = new HashMap<>();
            opener.open(partitions).forEach((tp, w) -> bound.put(tp, new OpenWriter<>(tp, w, commits)));
            return bound;
        };
    }

    /** Takes a positioned partition's writer; returns the offset its records continue from. */
    long open(OpenWriter<?> w) {
        long next = w.writer().durableNext();
        open.put(w.partition(), w);
        metrics.opened(w.partition(), next, clock.millis());
        offsets.durable(w.partition(), next);
        return next;
    }

    OptionalLong durableNext(TopicPartition tp) {
        OpenWriter<?> w = open.get(tp);
        return w == null ? OptionalLong.empty() : OptionalLong.of(w.writer().durableNext());
    }

    /** Whether the partition is open here and the record at {@code offset} is neither buffered nor durable yet. */
    boolean takes(TopicPartition tp, long offset) {
        OpenWriter<?> w = open.get(tp);
        return w != null && offset >= w.writer().expectedNext();
    }

    /** Appends to an open partition once the cap leaves room, and starts writing its buffer if a size trigger trips. */
    void append(TopicPartition tp, BackupRecord record) {
        makeRoomFor(record.payloadBytes());
        OpenWriter<?> w = open.get(tp);
        addBuffered(w.append(record));
        w.writer().sizeTrigger().ifPresent(w::flush);
    }

    /** Takes the finished commits: successes count as durable; throws the first failure that fails the task. */
    void takeFinishedAndThrow() {
        pipelined.takeFinishedAndThrow();
    }

    /**
     * The end of a put(): starts the buffers that are due, then takes the finished commits (throws a failure), then writes
     * the manifests that are due.
     */
    void flushDue(long now) {
        for (OpenWriter<?> w : open.values()) {
            w.dueAfterPut(now).ifPresent(w::flush);
        }
        pipelined.takeFinishedAndThrow();
        manifests.writeDue(open.values(), now);
    }

    /**
     * The periodic chain check, per partition between its commits: a store may list an upload in progress (S3Proxy's
     * filesystem backend lists {@code <name>-<uuid>}; S3 never does), the check compares the listing with this task's
     * last commit, and a commit waiting for its retry has met an outage that a listing would only meet again, outside
     * the retry's backoff.
     */
    void checkChainsIfDue(long now) {
        if (now >= nextChainCheckMs) {
            chainChecksDue.addAll(open.keySet());
            nextChainCheckMs = now + config.chainCheckIntervalMs();
        }
        chainChecksDue.removeIf(tp -> {
            OpenWriter<?> w = open.get(tp);
            if (w != null && w.busy()) {
                return false;
            }
            if (w != null) {
                w.writer().periodicCheck(format);
            }
            return true;
        });
    }

    /**
     * The longest the consumer may wait for records before the next put(): until the next write, retry or chain check,
     * and while commits run, {@link #OUTCOME_POLL_MS}, so that a commit's outcome is taken soon after it finishes (its
     * offsets reach the metrics and the metadata snapshots then), not at the next record or timer, up to
     * retry.backoff.initial.ms later.
     */
    long msUntilNextTimer(long now) {
        long delay = nextChainCheckMs - now;
        if (pipelined.busy()) {
            delay = Math.min(delay, OUTCOME_POLL_MS);
        }
        for (OpenWriter<?> w : open.values()) {
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

    /** Takes the finished commits before partitions close; their failures are thrown by the next put(). */
    void takeFinished() {
        pipelined.takeFinished(null);
    }

    /**
     * Writes the rest of the partition's buffer, after the commit it has running, and forgets the partition. On a
     * failure, what no commit still holds is dropped (read again from the chain's end when the partition is opened
     * next) and the failure is thrown; the other partitions' commits keep running.
     */
    void close(TopicPartition tp) {
        OpenWriter<?> w = open.get(tp);
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
            manifests.closed(tp);
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
     */
    private void makeRoomFor(long recordBytes) {
        long waitUntil = -1;
        while (true) {
            BufferCap.Room<TopicPartition> room = cap.room(bufferedBytes, recordBytes, pipelined.runningBytes(), this::idleBuffers);
            if (room.fits()) {
                return;
            }
            if (room.toFree().isPresent()) {
                OpenWriter<?> largest = open.get(room.toFree().get());
                if (largest.writer().spill() > 0) {
                    bufferedBytes = open.values().stream().mapToLong(w -> w.writer().bufferedBytes()).sum();
                    metrics.bufferedBytes(bufferedBytes);
                    continue; // snapshot mode spills to disk: a snapshot is written on its own triggers only
                }
                largest.flush(FlushTrigger.BUFFER_CAP);
            } else {
                long now = clock.millis();
                waitUntil = waitUntil < 0 ? now + config.retryBackoffMaxMs() : waitUntil;
                pipelined.awaitRoom(now, waitUntil);
            }
            pipelined.takeFinishedAndThrow();
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
        addBuffered(-r.payloadBytes());
        metrics.flushed(tp, next, r.records(), r.objectBytes(), clock.millis());
        offsets.durable(tp, next);
        OpenWriter<?> w = open.get(tp);
        Optional.ofNullable(w).flatMap(x -> x.writer().lastSnapshot())
                .ifPresent(st -> metrics.snapshot(tp, st.keys(), st.objectBytes(), st.durationMs(), st.tombstones()));
    }

    private void addBuffered(long delta) {
        bufferedBytes += delta;
        metrics.bufferedBytes(bufferedBytes);
    }
}
