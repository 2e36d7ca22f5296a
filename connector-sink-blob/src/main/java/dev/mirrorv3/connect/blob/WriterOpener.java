package dev.mirrorv3.connect.blob;

import java.util.Collection;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Positions opened partitions: a chain ({@link PartitionOpener}) or snapshots ({@link SnapshotOpener}) per compaction;
 * {@link PartitionWriters} binds what they open to the strategy that commits it.
 *
 * @param <W> what an opened partition is
 */
interface WriterOpener<W> {
    Map<TopicPartition, W> open(Collection<TopicPartition> partitions);
}
