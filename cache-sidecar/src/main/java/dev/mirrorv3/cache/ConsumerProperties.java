package dev.mirrorv3.cache;

import dev.mirrorv3.cache.config.CacheConfig;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/** The Kafka consumer settings a cache reads its topic with: the configured ones, and those the sidecar sets. */
final class ConsumerProperties {
    private ConsumerProperties() {
    }

    static Properties forCache(CacheConfig config) {
        Properties props = new Properties();
        props.putAll(config.kafkaProperties());
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // Records removed by retention while we read: continue at the new low watermark, never jump to the end.
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // A cache waits for its topic; it never creates it.
        props.putIfAbsent(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "cache-sidecar-" + config.name());
        // Bootstrap throughput (cache-sidecar/README.md, "Bootstrap throughput"): large polls hand the applier thread
        // few batches (each hand-over wakes a thread), and an 8 MiB fetch arrives through a 2 MiB socket buffer (Kafka's
        // consumer perf tool's default) instead of the client's 64 KiB, which takes about a hundred wake-ups of both
        // the broker and this consumer per fetch.
        props.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                String.valueOf(defaultMaxPollRecords(Runtime.getRuntime().maxMemory())));
        props.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(8 * 1024 * 1024));
        props.putIfAbsent(ConsumerConfig.RECEIVE_BUFFER_CONFIG, String.valueOf(2 * 1024 * 1024));
        if (config.groupId() != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        }
        return props;
    }

    /**
     * Records per poll unless {@code max.poll.records} is set: as many as keep the record objects of the at most four
     * polls alive at once (one being filled, two queued, one being applied; about 250 bytes each beside the fetch
     * buffers they are sliced from) within 2.5 % of the heap, between 500 and 10000. A 128 MiB heap gets 3355, 1 GiB
     * 10000: on a small heap the third that the default {@code memory.max-bytes} leaves outside the store also holds
     * the fetch buffers, and larger polls there ran G1 into a full collection at the budget.
     */
    static int defaultMaxPollRecords(long maxHeapBytes) {
        return (int) Math.max(500, Math.min(10_000, maxHeapBytes / 40_000));
    }
}
