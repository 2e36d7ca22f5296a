package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.chain.write.PartitionWriter;
import dev.mirrorv3.kafka.SourceTopicCheck;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * One open partition's writer, bound to the strategy that commits its buffers when it was opened (the type keeps the
 * two matched: a pipeline only ever gets a chain). Before its buffer is committed, whichever trigger and thread commit
 * it, the source topic's id is checked by a look begun after the last record was appended ({@link SourceTopicCheck}):
 * records of a topic deleted and created again under the running task never reach the chain. Owned by
 * {@link PartitionWriters}; task thread only.
 *
 * @param <W> the writer
 */
final class BoundWriter<W extends PartitionWriter> {
    private final TopicPartition tp;
    private final W writer;
    private final WriterKind<W> kind;
    private final CommitStrategy<? super W> commits;
    private final SourceTopicCheck source;
    private long recordsSinceHeartbeat;
    /** The check's stamp at the last append: a look begun after it covers every buffered record. */
    private long appendedBy;

    BoundWriter(TopicPartition tp, W writer, WriterKind<W> kind, CommitStrategy<? super W> commits, SourceTopicCheck source) {
        this.tp = tp;
        this.writer = writer;
        this.kind = kind;
        this.commits = commits;
        this.source = source;
    }

    TopicPartition partition() {
        return tp;
    }

    PartitionWriter writer() {
        return writer;
    }

    /** Moves the buffer off the heap for the task-wide cap (a snapshot's); the heap bytes released, 0 if it must be written. */
    long spill() {
        return kind.spill(writer);
    }

    /** Reports what the durable object of this writer's kind adds to the flush metrics (a snapshot's keys and size). */
    void durable(BlobSinkMetrics metrics) {
        kind.durable(tp, writer, metrics);
    }

    /** Appends; returns the payload bytes the task-wide buffer gains. */
    long append(BackupRecord record) {
        recordsSinceHeartbeat++;
        appendedBy = source.stamp();
        return commits.append(writer, record);
    }

    /** Starts (or writes) a commit, unless the strategy can start none now (two running, a retry not due). */
    void flush(FlushTrigger trigger) {
        if (commits.wouldStart(tp, writer)) {
            checkSource();
            commits.flush(tp, writer, trigger);
        }
    }

    Optional<FlushTrigger> dueAfterPut(long nowMs) {
        return commits.dueAfterPut(writer, nowMs);
    }

    boolean running() {
        return commits.running(tp);
    }

    OptionalLong retryAt() {
        return commits.retryAt(tp);
    }

    /** A commit runs or waits for its retry: the buffer is not the one to start for room, the chain not to be listed now. */
    boolean busy() {
        return running() || retryAt().isPresent();
    }

    void close() {
        checkSource();
        commits.close(tp, writer);
    }

    /** The partition is given up: its records are no longer checked. */
    void closed() {
        source.forget(tp);
    }

    /** Before a commit: the buffered records' topic is still the one the chain holds (a frozen commit was checked when cut). */
    private void checkSource() {
        if (writer.bufferedRecords() > 0) {
            source.check(Map.of(tp, writer.durableNext()), appendedBy);
        }
    }

    /** Records appended since the last call (the heartbeat's count). */
    long takeRecordsSinceHeartbeat() {
        long n = recordsSinceHeartbeat;
        recordsSinceHeartbeat = 0;
        return n;
    }
}
