package dev.mirrorv3.cache;

import dev.mirrorv3.cache.config.CacheConfig;
import dev.mirrorv3.cache.notify.Notifier;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits, for a cache with a group, the offsets the notifier has delivered ({@link Notifier#takeCommittable}): at most
 * once a second from the consumer thread, and once synchronously when the cache stops. Nothing for a cache without a
 * group. Called from the consumer thread only (KafkaConsumer is single-threaded).
 */
final class NotifiedOffsetCommits {
    // CacheConsumer's logger: a failed commit's log line keeps the category operators know.
    private static final Logger LOG = LoggerFactory.getLogger(CacheConsumer.class);
    private static final long COMMIT_INTERVAL_MS = 1000;

    private final KafkaConsumer<byte[], ByteBuffer> consumer;
    private final CacheConfig config;
    private final Notifier notifier;
    private Map<TopicPartition, OffsetAndMetadata> lastCommitted = Map.of();
    private long lastCommitMs;

    NotifiedOffsetCommits(KafkaConsumer<byte[], ByteBuffer> consumer, CacheConfig config, Notifier notifier) {
        this.consumer = consumer;
        this.config = config;
        this.notifier = notifier;
    }

    void commitIfDue(boolean sync) {
        if (config.groupId() == null) {
            return;
        }
        long now = System.currentTimeMillis();
        if (!sync && now - lastCommitMs < COMMIT_INTERVAL_MS) {
            return;
        }
        Map<Integer, Long> positions = notifier.takeCommittable();
        if (positions == null) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        positions.forEach((p, o) -> offsets.put(new TopicPartition(config.topic(), p), new OffsetAndMetadata(o)));
        if (offsets.equals(lastCommitted)) {
            return;
        }
        lastCommitMs = now;
        if (sync) {
            consumer.commitSync(offsets, Duration.ofSeconds(10));
            lastCommitted = offsets;
        } else {
            consumer.commitAsync(offsets, (o, e) -> {
                if (e != null) {
                    LOG.warn("Cache {}: committing notified offsets for group {} failed: {}", config.name(),
                            config.groupId(), e.toString());
                }
            });
            lastCommitted = offsets;
        }
    }
}
