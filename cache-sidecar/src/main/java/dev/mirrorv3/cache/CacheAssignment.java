package dev.mirrorv3.cache;

import dev.mirrorv3.cache.config.CacheConfig;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a cache starts reading and notifying: its partitions (those configured, or all of the topic's), each read
 * from its low watermark and ready at the high watermark seen now, and notified from the group's committed offset
 * (or, without one, the high watermark for {@code offset-reset: latest}, the low watermark for {@code earliest}).
 *
 * @param partitions the partitions assigned, sorted
 * @param states     their progress, starting at the low watermark
 * @param notifyFrom per partition, the first offset whose change is notified
 */
record CacheAssignment(List<TopicPartition> partitions, List<PartitionState> states, Map<Integer, Long> notifyFrom) {

    private static final Logger LOG = LoggerFactory.getLogger(CacheAssignment.class);

    /**
     * Waits for the cache's topic to exist, then assigns the consumer its partitions and seeks each to its low
     * watermark; null when {@code running} turned false while waiting.
     *
     * @throws IllegalStateException when a configured partition does not exist in the topic
     */
    static CacheAssignment assign(KafkaConsumer<byte[], ByteBuffer> consumer, CacheConfig config,
            BooleanSupplier running) {
        List<PartitionInfo> infos = awaitTopic(consumer, config, running);
        if (!running.getAsBoolean()) {
            return null;
        }
        List<Integer> available = infos.stream().map(PartitionInfo::partition).sorted().toList();
        List<Integer> wanted = config.partitions().isEmpty() ? available : config.partitions();
        for (int p : wanted) {
            if (!available.contains(p)) {
                throw new IllegalStateException("caches." + config.name() + ".partitions: partition " + p
                        + " does not exist in topic " + config.topic() + " (it has " + available.size() + ")");
            }
        }
        List<TopicPartition> tps = wanted.stream().sorted().map(p -> new TopicPartition(config.topic(), p)).toList();
        consumer.assign(tps);
        Map<TopicPartition, Long> begin = consumer.beginningOffsets(tps);
        Map<TopicPartition, Long> end = consumer.endOffsets(tps);
        Map<TopicPartition, OffsetAndMetadata> committed = config.groupId() == null
                ? Map.of() : consumer.committed(Set.copyOf(tps));
        List<PartitionState> states = new ArrayList<>();
        Map<Integer, Long> notifyFrom = new HashMap<>();
        for (TopicPartition tp : tps) {
            long lw = begin.get(tp);
            long hw = end.get(tp);
            OffsetAndMetadata c = committed.get(tp);
            long from = c != null ? c.offset() : "earliest".equals(config.offsetReset()) ? lw : hw;
            notifyFrom.put(tp.partition(), from);
            states.add(new PartitionState(new AssignedPartition(tp.partition(), lw, hw)));
            consumer.seek(tp, lw);
            LOG.info("Cache {}: reading {} from offset {}, ready at {}, notifying changes from offset {}{}",
                    config.name(), tp, lw, hw, from, c != null ? " (committed by group " + config.groupId() + ")" : "");
        }
        return new CacheAssignment(tps, states, notifyFrom);
    }

    /** Records between the low and the high watermarks at start, for sizing the store. */
    long recordsAtStart() {
        return states.stream().mapToLong(st -> st.assigned().recordsAtStart()).sum();
    }

    private static List<PartitionInfo> awaitTopic(KafkaConsumer<byte[], ByteBuffer> consumer, CacheConfig config,
            BooleanSupplier running) {
        long waitingSince = System.currentTimeMillis();
        long lastLog = 0;
        List<PartitionInfo> infos = List.of();
        while (running.getAsBoolean()) {
            infos = consumer.partitionsFor(config.topic(), Duration.ofSeconds(30));
            if (infos != null && !infos.isEmpty()) {
                break;
            }
            if (System.currentTimeMillis() - lastLog > 10_000) {
                LOG.warn("Cache {}: topic {} does not exist (yet) at {}; waiting for it ({} s so far)", config.name(),
                        config.topic(), config.bootstrapServers(), (System.currentTimeMillis() - waitingSince) / 1000);
                lastLog = System.currentTimeMillis();
            }
            CacheConsumer.sleep(500);
        }
        return infos;
    }
}
