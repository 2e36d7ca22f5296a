package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.write.PartitionWriter;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/** Positions opened partitions: a chain ({@link PartitionOpener}) or snapshots ({@link SnapshotOpener}) per compaction. */
interface WriterOpener {
    Map<TopicPartition, ? extends PartitionWriter> open(Collection<TopicPartition> partitions);
}
