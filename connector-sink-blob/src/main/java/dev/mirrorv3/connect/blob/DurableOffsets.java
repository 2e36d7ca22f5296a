package dev.mirrorv3.connect.blob;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;

/**
 * Where each open partition is durable up to (excluding), as the write path reports it, for the metadata snapshots'
 * group offsets, which read it on their own thread ({@link MetaSnapshotter}). A partition that closes leaves it.
 */
final class DurableOffsets {
    private final Map<TopicPartition, Long> next = new ConcurrentHashMap<>();

    /** The partition is durable up to (excluding) {@code offset}. */
    void durable(TopicPartition tp, long offset) {
        next.put(tp, offset);
    }

    void closed(TopicPartition tp) {
        next.remove(tp);
    }

    /** The partition's durable next offset; -1 when it is not open. */
    long get(TopicPartition tp) {
        return next.getOrDefault(tp, -1L);
    }

    /** The open partitions. */
    Set<TopicPartition> partitions() {
        return next.keySet();
    }

    /** Each open partition's durable next offset, as it is now. */
    Map<TopicPartition, Long> now() {
        return Map.copyOf(next);
    }
}
