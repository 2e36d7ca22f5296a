package dev.mirrorv3.kafka;

import org.apache.kafka.common.KafkaException;

/**
 * A condition of one partition's copy that retrying will not fix and that is not about its position: another writer on
 * its destination partition, a hole a Kafka destination cannot reproduce, a target partition that does not exist.
 * Never transient; {@link FailureVerdict} scopes it to the partition (it needs an operator).
 */
public final class PartitionException extends KafkaException {
    private static final long serialVersionUID = 1L;

    public PartitionException(String message) {
        super(message);
    }

    public PartitionException(String message, Throwable cause) {
        super(message, cause);
    }
}
