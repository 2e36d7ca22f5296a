package dev.mirrorv3.cache.config;

import java.util.List;
import java.util.Map;

/**
 * One cache: a topic (all or some partitions) read from its low watermark into key → latest value.
 *
 * @param name             path segment of {@code /cache/v1/{name}/...}
 * @param main             whether the unprefixed {@code /cache/v1/...} paths serve this cache
 * @param bootstrapServers Kafka bootstrap servers
 * @param topic            the topic
 * @param partitions       the partitions to read; empty means all partitions of the topic
 * @param groupId          consumer group whose committed offset records what was notified; null: none
 * @param offsetReset      where notifications start without a committed offset: {@code latest} (changes
 *                         after startup only, kkv's default) or {@code earliest} (every record)
 * @param kafkaProperties  extra Kafka consumer properties (security etc.); never logged
 * @param notifications    kkv-v1 notify settings
 */
public record CacheConfig(String name, boolean main, String bootstrapServers, String topic, List<Integer> partitions,
                          String groupId, String offsetReset, Map<String, String> kafkaProperties,
                          NotifyConfig notifications) {

    /** Names that are path segments of the unprefixed main-cache routes. */
    public static final List<String> RESERVED_NAMES = List.of("raw", "offset", "keys", "values");

    public CacheConfig {
        partitions = List.copyOf(partitions);
        kafkaProperties = Map.copyOf(kafkaProperties);
    }

    public CacheConfig withNotify(NotifyConfig newNotify) {
        return new CacheConfig(name, main, bootstrapServers, topic, partitions, groupId, offsetReset, kafkaProperties,
                newNotify);
    }

    public CacheConfig withGroupId(String newGroupId) {
        return new CacheConfig(name, main, bootstrapServers, topic, partitions, newGroupId, offsetReset,
                kafkaProperties, notifications);
    }
}
