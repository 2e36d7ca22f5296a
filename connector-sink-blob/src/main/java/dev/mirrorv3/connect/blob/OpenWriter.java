package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.chain.write.PartitionWriter;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * One open partition's writer, bound to the strategy that commits its buffers when it was opened (the type keeps the
 * two matched: a pipeline only ever gets a chain). Owned by {@link PartitionWriters}; task thread only.
 *
 * @param <W> the writer
 */
final class OpenWriter<W extends PartitionWriter> {
    private final TopicPartition tp;
    private final W writer;
    private final CommitStrategy<? super W> commits;
    private long recordsSinceHeartbeat;

    OpenWriter(TopicPartition tp, W writer, CommitStrategy<? super W> commits) {
        this.tp = tp;
        this.writer = writer;
        this.commits = commits;
    }

    TopicPartition partition() {
        return tp;
    }

    PartitionWriter writer() {
        return writer;
    }

    /** Appends; returns the payload bytes the task-wide buffer gains. */
    long append(BackupRecord record) {
        recordsSinceHeartbeat++;
        return commits.append(writer, record);
    }

    void flush(FlushTrigger trigger) {
        commits.flush(tp, writer, trigger);
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
        commits.close(tp, writer);
    }

    /** Records appended since the last call (the heartbeat's count). */
    long takeRecordsSinceHeartbeat() {
        long n = recordsSinceHeartbeat;
        recordsSinceHeartbeat = 0;
        return n;
    }
}
