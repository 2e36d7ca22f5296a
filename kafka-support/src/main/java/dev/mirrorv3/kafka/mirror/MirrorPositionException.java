package dev.mirrorv3.kafka.mirror;

import org.apache.kafka.common.KafkaException;

/**
 * A Kafka → Kafka copy with preserved offsets cannot continue (or start) where the clusters are: a lost position, a
 * destination ahead of its source, a missing or too small destination topic. Never transient, never a silent jump.
 */
public final class MirrorPositionException extends KafkaException {
    private static final long serialVersionUID = 1L;

    public MirrorPositionException(String message) {
        super(message);
    }
}
