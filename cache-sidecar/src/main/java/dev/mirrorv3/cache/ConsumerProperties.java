package dev.mirrorv3.cache;

import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;

import dev.mirrorv3.cache.config.CacheConfig;

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
        props.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        props.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(8 * 1024 * 1024));
        if (config.groupId() != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        }
        return props;
    }
}
