package dev.mirrorv3.connect.blob;

import dev.mirrorv3.kafka.PerPartition;
import java.util.Collection;
import org.apache.kafka.common.TopicPartition;

/**
 * Positions opened partitions: a chain ({@link ChainPositioner}) or snapshots ({@link SnapshotPositioner}) per compaction;
 * {@link PartitionWriters} binds what they open to the strategy that commits it.
 *
 * @param <W> what an opened partition is
 */
interface Positioner<W> {
    /** Each partition's writer, or why it cannot be opened; a transient failure is thrown (all are retried). */
    PerPartition<W> open(Collection<TopicPartition> partitions);
}
