package dev.mirrorv3.kafka;

import java.util.Optional;
import org.apache.kafka.common.KafkaException;

/**
 * A copy of a partition (a blob chain, a snapshot series, a Kafka destination topic) cannot continue or start where
 * the source is: a lost position, a destination ahead of its source, a destination that cannot start at the source's
 * log start, a missing or too small destination topic, a source topic deleted and created again. Never transient
 * ({@link Failures}), never a silent jump. {@link FailureVerdict} scopes it to the partition, or to every partition of
 * {@link #topic()} when the condition is the topic's.
 */
public final class PositionException extends KafkaException {
    private static final long serialVersionUID = 1L;

    /** The topic whose every partition the condition concerns; null when it concerns one partition. */
    private final String topic;

    public PositionException(String message) {
        this(message, null);
    }

    private PositionException(String message, String topic) {
        super(message);
        this.topic = topic;
    }

    /** A condition of every partition of source topic {@code topic} (re-created, a destination topic missing). */
    public static PositionException ofTopic(String topic, String message) {
        return new PositionException(message, topic);
    }

    /** The source topic whose every partition this concerns, when it is not one partition's. */
    public Optional<String> topic() {
        return Optional.ofNullable(topic);
    }
}
