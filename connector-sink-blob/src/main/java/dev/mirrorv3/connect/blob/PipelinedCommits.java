package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPipeline;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PartitionRetry;
import dev.mirrorv3.kafka.RetryPauses;
import dev.mirrorv3.kafka.config.ConnectorConfigFragment;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit strategy of chains on chain-core's {@link FlushPipeline} (docs/blob-sink.md, "Pipelined flush"): starts a
 * chain's next commit (a second one behind a running one when a full object waits), takes the finished ones on the
 * task thread (a success is reported as {@link Durable}, a second commit abandoned after the failure of the one before
 * it is ignored: that failure is the one acted on), pauses a
 * partition whose commit failed transiently and re-issues its frozen commit after a backoff of its own while the other
 * partitions go on, keeps the other failures for {@link PartitionWriters} (which isolates the partition or fails the
 * task), and waits on the pipeline when the buffer cap is reached (re-issuing the frozen commits whose retry comes due
 * meanwhile). Called from the task thread only.
 */
final class PipelinedCommits implements CommitStrategy<ChainWriter> {
    private static final Logger log = LoggerFactory.getLogger(BlobSinkTask.class); // the task's log lines

    private final BlobSinkConfig config;
    private final Clock clock;
    private final FlushPipeline<TopicPartition> pipeline;
    /** The chains this pipeline committed for, until they close. */
    private final Map<TopicPartition, ChainWriter> chains = new HashMap<>();
    private final RetryPauses retryPauses;
    private final BlobSinkMetrics metrics;
    private final Durable durable;
    /** Failed commits that are not transient, taken and not yet handed to {@link PartitionWriters}. */
    private final Map<TopicPartition, RuntimeException> failures = new LinkedHashMap<>();
    /** Partitions whose commit failed transiently: paused, their frozen commit re-issued at the time given. */
    private final Map<TopicPartition, Long> retryAt = new HashMap<>();
    private final Map<TopicPartition, PartitionRetry> retries = new HashMap<>();

    PipelinedCommits(BlobSinkConfig config, String connectorName, Clock clock, RetryPauses retryPauses, BlobSinkMetrics metrics,
                     Durable durable) {
        this.config = config;
        this.clock = clock;
        this.pipeline = new FlushPipeline<>(config.flushThreads(), "mirror-v3-flush-" + connectorName);
        this.retryPauses = retryPauses;
        this.metrics = metrics;
        this.durable = durable;
    }

    /** Not read back from the writer: a commit running on another thread may shrink its buffer meanwhile. */
    @Override
    public long append(ChainWriter w, BackupRecord record) {
        return w.append(record) ? record.payloadBytes() : 0;
    }

    /**
     * Starts the chain's next object; while one of its commits runs, a second one behind it only for a full object (a
     * size trigger), with two in flight none (a later put() starts the rest); a partition waiting for its retry starts
     * only when the retry is due, or on close.
     */
    @Override
    public void flush(TopicPartition tp, ChainWriter w, FlushTrigger trigger) {
        chains.put(tp, w);
        if (retryDue(tp) || trigger == FlushTrigger.CLOSE) {
            pipeline.start(tp, w, trigger);
        }
    }

    @Override
    public boolean wouldStart(TopicPartition tp, ChainWriter w) {
        return retryDue(tp) && pipeline.canStart(tp, w);
    }

    /** No retry waits, or it is due. */
    private boolean retryDue(TopicPartition tp) {
        Long at = retryAt.get(tp);
        return at == null || clock.millis() >= at;
    }

    /** A size trigger too: it may have tripped while two commits of the chain ran, and a later put() starts the rest. */
    @Override
    public Optional<FlushTrigger> dueAfterPut(ChainWriter w, long nowMs) {
        Optional<FlushTrigger> size = w.sizeTrigger();
        if (size.isPresent()) {
            return size;
        }
        return w.msUntilTimeTrigger(nowMs) == 0 ? Optional.of(FlushTrigger.TIME) : Optional.empty();
    }

    @Override
    public boolean running(TopicPartition tp) {
        return pipeline.running(tp);
    }

    @Override
    public OptionalLong retryAt(TopicPartition tp) {
        Long at = retryAt.get(tp);
        return at == null ? OptionalLong.empty() : OptionalLong.of(at);
    }

    /** Whether a commit is running, or finished and not taken yet. */
    boolean busy() {
        return pipeline.busy();
    }

    /** Payload bytes of the commits running now (two of a partition included): what their success will take off the buffers. */
    long runningBytes() {
        return pipeline.runningBytes();
    }

    /** Takes the finished commits, then hands over the failures that are not transient, by partition. */
    Map<TopicPartition, RuntimeException> takeFinishedFailures() {
        takeFinished(null);
        Map<TopicPartition, RuntimeException> taken = new LinkedHashMap<>(failures);
        failures.clear();
        return taken;
    }

    /**
     * Takes the pipeline's finished commits: successes count as durable (and resume a partition paused for a retry); a
     * transient failure pauses its partition until its frozen commit is re-issued after a backoff of its own; other
     * failures are kept for {@link #takeFinishedFailures}. Returns the failure of {@code closing}'s commit instead, for the
     * close that waits for it. A commit abandoned behind a failed one is nothing that happened: its records stay
     * buffered, the failure before it is the one acted on (one backoff, one failure counted).
     */
    RuntimeException takeFinished(TopicPartition closing) {
        RuntimeException closingFailure = null;
        for (FlushPipeline.Finished<TopicPartition> f : pipeline.finished()) {
            TopicPartition tp = f.key();
            if (f.abandoned()) {
                continue;
            } else if (f.failed() && tp.equals(closing)) {
                closingFailure = f.failure();
            } else if (f.failed() && chains.containsKey(tp) && retried(tp, f.failure())) {
                continue; // paused until its commit is re-issued
            } else if (f.failed()) {
                failures.put(tp, f.failure());
            } else {
                durable.durable(tp, f.result());
                if (retryAt.remove(tp) != null) {
                    retries.remove(tp);
                    retryPauses.resume(List.of(tp));
                    log.info("wrote {} after a retry: resumed", tp);
                }
            }
        }
        return closingFailure;
    }

    /** A transient failure of {@code tp}'s commit pauses it until the commit is re-issued after a backoff of its own. */
    private boolean retried(TopicPartition tp, RuntimeException failure) {
        PartitionRetry retry = retries.computeIfAbsent(tp, x -> new PartitionRetry(config.retryBackoffInitialMs(),
                config.retryBackoffMaxMs(), () -> metrics.restart(), ConnectFailures.KINDS));
        return retry.retry(failure, (delay, attempt, cause) -> {
            retryAt.put(tp, clock.millis() + delay);
            retryPauses.pause(List.of(tp));
            log.warn("transient failure writing {}: paused, keeping its {} buffered record(s) and re-issuing the commit in {} ms"
                    + " (attempt {}), the other partitions go on: {}", tp, chains.get(tp).bufferedRecords(), delay, attempt, cause);
        });
    }

    /**
     * The partition failed and is dropped: waits for its running commit (bounded by the store's timeouts, as a close),
     * takes what finished (a success still counts as durable) and forgets its failure, its retry and its frozen commit.
     */
    void forget(TopicPartition tp) {
        try {
            pipeline.awaitIdle(tp, Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("interrupted while waiting for the commit of " + tp, e);
        }
        takeFinished(tp);
        failures.remove(tp);
        retryAt.remove(tp);
        retries.remove(tp);
        chains.remove(tp);
    }

    /**
     * The buffer cap is reached and no buffer is left to start but those waiting for a retry: re-issues the frozen
     * commits whose retry is due (the loop after the records, which re-issues them otherwise, is not reached while a
     * record waits for room), else waits for a commit to finish or the next retry to be due (woken by the commit, never
     * a spin) until {@code deadlineMs}; past it, the batch is delivered again after a pause (Connect's
     * RetriableException, transient for {@link Failures}), the task keeps running.
     */
    void awaitRoom(long nowMs, long deadlineMs) {
        if (reissueDue(nowMs)) {
            return; // the caller takes what finished and looks again
        }
        long wakeAt = deadlineMs;
        for (long at : retryAt.values()) {
            wakeAt = at > nowMs ? Math.min(wakeAt, at) : wakeAt; // those due now run already (or their failure waits to be taken)
        }
        if ((nowMs < wakeAt && awaitFinished(wakeAt - nowMs)) || clock.millis() < deadlineMs) {
            return;
        }
        throw new RetriableException(BlobSinkConfig.BUFFER_MAX_BYTES + " (" + config.bufferMaxBytes() + ") is reached by"
                + " buffers being written (" + pipeline.runningBytes() + " bytes) or waiting for a retry ("
                + retryAt.keySet() + "), and none became durable within " + ConnectorConfigFragment.RETRY_BACKOFF_MAX_MS + " ("
                + config.retryBackoffMaxMs() + " ms); check the destination, or raise " + BlobSinkConfig.BUFFER_MAX_BYTES);
    }

    /** Re-issues the frozen commits whose retry is due; true if one started. */
    private boolean reissueDue(long nowMs) {
        boolean started = false;
        for (Map.Entry<TopicPartition, Long> e : retryAt.entrySet()) {
            if (nowMs >= e.getValue()) {
                started |= pipeline.start(e.getKey(), chains.get(e.getKey()), FlushTrigger.BUFFER_CAP);
            }
        }
        return started;
    }

    /**
     * For a destination of a tee, whose other destinations wait with it: waits for a running commit to finish, at most
     * {@code ms}; false at once when a commit waits for a retry or none runs (the destination is in trouble, or only a
     * retry could free room), and false when none finished in time (a commit that hangs: a frozen store).
     */
    boolean awaitProgress(long ms) {
        return retryAt.isEmpty() && pipeline.busy() && awaitFinished(ms);
    }

    /** Waits for a commit to finish; with none running, nothing would wake the wait: sleeps until the next retry is due. */
    private boolean awaitFinished(long ms) {
        try {
            if (!pipeline.busy()) {
                Thread.sleep(ms);
                return false;
            }
            return pipeline.awaitFinished(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("interrupted while waiting for a commit", e);
        }
    }

    /**
     * Forgets the partition's failure and retry, waits for its running commit, then commits the rest of its buffer
     * (its frozen commit first); throws the first failure. No timer of its own: each store call is bounded by the
     * store's timeouts, as a flush on the task thread was.
     */
    @Override
    public void close(TopicPartition tp, ChainWriter chain) {
        failures.remove(tp);
        retryAt.remove(tp);
        retries.remove(tp);
        chains.put(tp, chain);
        try {
            commitRest(tp, chain);
        } finally {
            chains.remove(tp);
        }
    }

    private void commitRest(TopicPartition tp, ChainWriter chain) {
        while (true) {
            try {
                pipeline.awaitIdle(tp, Long.MAX_VALUE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConnectException("interrupted while waiting for the commit of " + tp, e);
            }
            RuntimeException failed = takeFinished(tp);
            if (failed != null) {
                throw failed;
            }
            if (chain.bufferedRecords() == 0) {
                return;
            }
            pipeline.start(tp, chain, FlushTrigger.CLOSE);
        }
    }

    /**
     * Connect closes the partitions (which waits for their commits) before stop(); what still runs here is given
     * Connect's default task.shutdown.graceful.timeout.ms and is never reported durable.
     */
    void stop() {
        pipeline.close(5_000);
    }
}
