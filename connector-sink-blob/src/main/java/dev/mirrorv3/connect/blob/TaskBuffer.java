package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.chain.write.PartitionWriter;
import java.time.Clock;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The task-wide buffer cap, buffer.max.bytes: the payload bytes all writers hold, buffers being encoded and committed
 * included, and the room a record needs before it is appended. Called from the task thread only.
 */
final class TaskBuffer {
    /** Starts writing a partition's buffer (on the pipeline, or on the task thread). */
    interface Flusher {
        void flush(TopicPartition tp, PartitionWriter w, FlushTrigger trigger);
    }

    private final long maxBytes;
    private final long maxWaitMs;
    private final Clock clock;
    private final Map<TopicPartition, PartitionWriter> writers;
    private final PipelinedCommits commits;
    private final BlobSinkMetrics metrics;
    private long bytes;

    /**
     * @param maxWaitMs how long a record may wait for running commits to free room (retry.backoff.max.ms)
     * @param writers the task's open writers (read only here)
     */
    TaskBuffer(long maxBytes, long maxWaitMs, Clock clock, Map<TopicPartition, PartitionWriter> writers, PipelinedCommits commits,
               BlobSinkMetrics metrics) {
        this.maxBytes = maxBytes;
        this.maxWaitMs = maxWaitMs;
        this.clock = clock;
        this.writers = writers;
        this.commits = commits;
        this.metrics = metrics;
    }

    long bytes() {
        return bytes;
    }

    /** Counts bytes appended (positive) or made durable or discarded (negative). */
    void add(long delta) {
        bytes += delta;
        metrics.bufferedBytes(bytes);
    }

    /**
     * Frees room until a record of {@code recordBytes} fits under the cap: starts the largest buffers not being written
     * until the running commits would free enough, then waits for them (a wait on the pipeline, never a spin), re-issuing
     * the frozen commits of partitions whose retry comes due meanwhile, at most retry.backoff.max.ms; after that the batch
     * is delivered again after a pause (a transient failure: the records appended so far are skipped then).
     */
    void makeRoomFor(long recordBytes, Flusher flusher) {
        long waitUntil = -1;
        while (bytes > 0 && bytes + recordBytes > maxBytes) {
            long need = bytes + recordBytes - maxBytes;
            Map.Entry<TopicPartition, PartitionWriter> largest = commits.runningBytes() < need ? largestIdle() : null;
            if (largest != null) {
                if (largest.getValue() instanceof SnapshotWriter s && s.spill() > 0) {
                    bytes = writers.values().stream().mapToLong(PartitionWriter::bufferedBytes).sum();
                    metrics.bufferedBytes(bytes);
                    continue; // snapshot mode spills to disk: a snapshot is written on its own triggers only
                }
                flusher.flush(largest.getKey(), largest.getValue(), FlushTrigger.BUFFER_CAP);
            } else {
                long now = clock.millis();
                waitUntil = waitUntil < 0 ? now + maxWaitMs : waitUntil;
                commits.awaitRoom(now, waitUntil);
            }
            commits.takeFinishedAndThrow();
        }
    }

    /** The writer holding the most buffered bytes that no commit is writing and no retry is waiting for. */
    private Map.Entry<TopicPartition, PartitionWriter> largestIdle() {
        Map.Entry<TopicPartition, PartitionWriter> largest = null;
        for (Map.Entry<TopicPartition, PartitionWriter> e : writers.entrySet()) {
            if (e.getValue().bufferedRecords() > 0 && !commits.running(e.getKey()) && !commits.waitingForRetry(e.getKey())
                    && (largest == null || e.getValue().bufferedBytes() > largest.getValue().bufferedBytes())) {
                largest = e;
            }
        }
        return largest;
    }
}
