package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.write.FlushResult;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.chain.write.PartitionWriter;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * How a partition's buffers become durable objects: on the task thread ({@link InlineCommits}) or on chain-core's
 * FlushPipeline ({@link PipelinedCommits}). {@link PartitionWriters} asks it for every writer-specific decision, so the
 * task never tells the two apart. A success is reported through the {@link Durable} the strategy was built with.
 * Called from the task thread only.
 *
 * @param <W> the writers it commits
 */
interface CommitStrategy<W extends PartitionWriter> {

    /** Called on the task thread for each object that became durable. */
    interface Durable {
        void durable(TopicPartition tp, FlushResult result);
    }

    /** Appends a record; returns the payload bytes the task-wide buffer gains (0 for a re-delivery). */
    long append(W w, BackupRecord record);

    /**
     * Whether {@link #flush} would start a commit of the partition now: the records' topic is looked at only then (while
     * a partition's commits can take no other, a look per appended record would cost a request each).
     */
    default boolean wouldStart(TopicPartition tp, W w) {
        return true;
    }

    /** Starts writing the partition's buffer for {@code trigger} (or writes it, on the task thread). */
    void flush(TopicPartition tp, W w, FlushTrigger trigger);

    /** The trigger that makes the buffer due at the end of a put(), if any. */
    Optional<FlushTrigger> dueAfterPut(W w, long nowMs);

    /** Whether a commit of the partition runs now. */
    boolean running(TopicPartition tp);

    /** When the partition's failed commit is re-issued, if it waits for a retry. */
    OptionalLong retryAt(TopicPartition tp);

    /** Writes the rest of the partition's buffer before it closes, after the commit it has running; throws the first failure. */
    void close(TopicPartition tp, W w);
}
