package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.write.FlushResult;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.chain.write.PartitionWriter;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * Commits on the task thread: a snapshot, or a chain with flush.threads=0. A failure is thrown to the task (which
 * retries the whole batch, docs/blob-sink.md), so no partition ever waits here for a retry of its own.
 */
record InlineCommits(Clock clock, Durable durable) implements CommitStrategy<PartitionWriter> {

    /** Read back from the writer: a snapshot's builder may replace a key's record, or spill. */
    @Override
    public long append(PartitionWriter w, BackupRecord record) {
        long before = w.bufferedBytes();
        w.append(record);
        return w.bufferedBytes() - before;
    }

    /**
     * Writes the partition's buffer. A commit that failed earlier goes first, as it was; the records that came since
     * follow if they are due themselves (a size or time trigger), or always on close and for the buffer cap.
     */
    @Override
    public void flush(TopicPartition tp, PartitionWriter w, FlushTrigger trigger) {
        boolean everything = trigger == FlushTrigger.CLOSE || trigger == FlushTrigger.BUFFER_CAP;
        while (w.bufferedRecords() > 0) {
            FlushResult r = w.flush(trigger).orElseThrow();
            durable.durable(tp, r);
            if (!everything && w.sizeTrigger().isEmpty() && w.msUntilTimeTrigger(clock.millis()) > 0) {
                return;
            }
        }
    }

    /** Only the time trigger: a size trigger was written when the record that tripped it came. */
    @Override
    public Optional<FlushTrigger> dueAfterPut(PartitionWriter w, long nowMs) {
        return w.msUntilTimeTrigger(nowMs) == 0 ? Optional.of(FlushTrigger.TIME) : Optional.empty();
    }

    @Override
    public boolean running(TopicPartition tp) {
        return false;
    }

    @Override
    public OptionalLong retryAt(TopicPartition tp) {
        return OptionalLong.empty();
    }

    @Override
    public void close(TopicPartition tp, PartitionWriter w) {
        flush(tp, w, FlushTrigger.CLOSE);
    }
}
