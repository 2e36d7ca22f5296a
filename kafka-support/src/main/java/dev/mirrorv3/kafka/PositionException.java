package dev.mirrorv3.kafka;

import org.apache.kafka.common.KafkaException;

/**
 * A copy of a partition (a blob chain, a snapshot series, a Kafka destination topic) cannot continue or start where
 * the source is: a lost position, a destination ahead of its source, a destination that cannot start at the source's
 * log start, a missing or too small destination topic. Never transient ({@link Failures}), never a silent jump.
 */
public final class PositionException extends KafkaException {
    private static final long serialVersionUID = 1L;

    public PositionException(String message) {
        super(message);
    }
}
