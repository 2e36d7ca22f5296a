package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.PartitionWriter;
import org.apache.kafka.common.TopicPartition;

/**
 * What one kind of writer does its own way besides committing (which its {@link CommitStrategy} decides): a snapshot
 * writer spills its buffer to disk for the task-wide cap and reports each snapshot's size; a chain does neither (its
 * buffer is written instead). Bound to the writer when its partition is opened ({@link PartitionWriters}), where its
 * type is known, so that no caller asks every writer what it is.
 *
 * @param <W> the writers of this kind
 */
interface WriterKind<W extends PartitionWriter> {
    WriterKind<ChainWriter> CHAINS = new WriterKind<>() {
        @Override
        public long spill(ChainWriter w) {
            return 0;
        }

        @Override
        public void durable(TopicPartition tp, ChainWriter w, BlobSinkMetrics metrics) {
            // a chain's object is counted by the flush metrics alone
        }
    };

    WriterKind<SnapshotWriter> SNAPSHOTS = new WriterKind<>() {
        @Override
        public long spill(SnapshotWriter w) {
            return w.spill();
        }

        @Override
        public void durable(TopicPartition tp, SnapshotWriter w, BlobSinkMetrics metrics) {
            w.lastSnapshot().ifPresent(st -> metrics.snapshot(tp, st.keys(), st.objectBytes(), st.durationMs(), st.tombstones()));
        }
    };

    /** Moves the buffer off the heap for the task-wide cap; returns the heap bytes released: 0 if it must be written instead. */
    long spill(W w);

    /** Reports what a durable object of this kind adds to the flush metrics. */
    void durable(TopicPartition tp, W w, BlobSinkMetrics metrics);
}
