package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.PositionRule;
import java.util.Collection;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both openers need to position a partition besides its destination: our temporary files removed first, and the
 * source's log start and high watermark, read once for all the partitions being opened, to apply {@link PositionRule}
 * to the destination's next offset.
 */
record PositionInputs(Map<TopicPartition, Long> logStarts, Map<TopicPartition, Long> highWatermarks) {
    private static final Logger log = LoggerFactory.getLogger(PositionInputs.class);

    static PositionInputs read(LogOffsets source, Collection<TopicPartition> partitions) {
        return new PositionInputs(source.logStartOffsets(partitions), source.highWatermarks(partitions));
    }

    /** Removes what an earlier writer of the partition left half written (it never became an object). */
    static void removeTemporaryFiles(Store store, TopicPartition tp) {
        int removed = store.removeTemporaryFiles(tp.partition());
        if (removed > 0) {
            log.info("removed {} temporary file(s) left by an earlier writer in {}", removed, store.location(tp.partition()));
        }
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
