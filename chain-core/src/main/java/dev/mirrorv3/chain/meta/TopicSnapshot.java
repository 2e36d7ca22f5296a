package dev.mirrorv3.chain.meta;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A backed-up topic's metadata at one time: what {@code mirror-v3 restore --create-topic} needs to create it again.
 *
 * @param configs every config that is not a broker default (cleanup.policy, retention.*, ...), by name
 */
public record TopicSnapshot(long timeMs, String topic, String topicId, int partitions, int replicationFactor,
        Map<String, String> configs) {

    public TopicSnapshot {
        Objects.requireNonNull(topic, "topic");
        topicId = topicId == null ? "" : topicId;
        if (partitions < 1 || replicationFactor < 1) {
            throw new IllegalArgumentException("topic " + topic + ": partitions " + partitions + " and replication factor "
                    + replicationFactor + " must be at least 1");
        }
        configs = Collections.unmodifiableSortedMap(new TreeMap<>(configs));
    }

    /** The same metadata, whatever the time: a new snapshot is written only when this is false. */
    public boolean sameMetadataAs(TopicSnapshot other) {
        return other != null && topic.equals(other.topic) && topicId.equals(other.topicId) && partitions == other.partitions
                && replicationFactor == other.replicationFactor && configs.equals(other.configs);
    }
}
