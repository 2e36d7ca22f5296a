package dev.mirrorv3.connect.blob;

import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.PositionRule;
import java.util.Collection;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * What both positioners need to position a partition besides its destination: the source's log start and high watermark,
 * read once for all the partitions being opened, to apply {@link PositionRule} to the destination's next offset.
 */
record PositionInputs(Map<TopicPartition, Long> logStarts, Map<TopicPartition, Long> highWatermarks) {
    static PositionInputs read(LogOffsets source, Collection<TopicPartition> partitions) {
        return new PositionInputs(source.logStartOffsets(partitions), source.highWatermarks(partitions));
    }

    long logStart(TopicPartition tp) {
        return logStarts.get(tp);
    }

    long highWatermark(TopicPartition tp) {
        return highWatermarks.get(tp);
    }

    /**
     * The partition's next offset: the destination's (none: the source's log start), unless the position rule refuses it
     * (a lost position, or the destination ahead).
     */
    long next(TopicPartition tp, String location, OptionalLong destinationNext) {
        return PositionRule.check(tp, new PositionRule.BlobChain(location), destinationNext, logStart(tp), highWatermark(tp));
    }
}
