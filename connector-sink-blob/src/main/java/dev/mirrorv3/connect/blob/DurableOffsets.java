package dev.mirrorv3.connect.blob;

import org.apache.kafka.common.TopicPartition;

/** Told where each open partition is durable up to (the metadata snapshots' group offsets), and when it closes. */
interface DurableOffsets {
    DurableOffsets NONE = new DurableOffsets() {
        @Override
        public void durable(TopicPartition tp, long next) {
        }

        @Override
        public void closed(TopicPartition tp) {
        }
    };

    /** The partition is durable up to (excluding) {@code next}. */
    void durable(TopicPartition tp, long next);

    void closed(TopicPartition tp);
}
