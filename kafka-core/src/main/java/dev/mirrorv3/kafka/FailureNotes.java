package dev.mirrorv3.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * Failure notes ({@link FailureNote}) kept as the offset metadata of a consumer group of their own,
 * {@code __mirror-v3.<connector>.failures}, on the cluster a connector writes to, keyed by the partition it writes:
 * where a connector has no consumer offset of its own to carry them (the chain source), so that
 * {@code mirror-v3 status} can name a failed partition. The group never has members; its offset is the partition's
 * high watermark when it failed. Writes are best effort for the connector (a failure to write is logged, never fails
 * the task); the connector's admin client needs Describe and Read on the group.
 */
public record FailureNotes(Admin admin, String groupId, Duration timeout) {
    /** The group of connector {@code connectorName}'s notes. */
    public static String groupId(String connectorName) {
        return "__mirror-v3." + connectorName + ".failures";
    }

    /** Notes that {@code tp} failed, at offset {@code offset}. */
    public void record(TopicPartition tp, long offset, String note) {
        call(admin.alterConsumerGroupOffsets(groupId, Map.of(tp, new OffsetAndMetadata(offset, note))).all());
    }

    /** Removes the notes of {@code partitions} (they are no longer failed). */
    public void clear(Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) {
            call(admin.deleteConsumerGroupOffsets(groupId, Set.copyOf(partitions)).all());
        }
    }

    /** Each noted partition's failure ("partition FAILED since …: reason"); empty when the group does not exist. */
    public Map<TopicPartition, String> read() {
        Map<TopicPartition, OffsetAndMetadata> offsets;
        try {
            offsets = call(admin.listConsumerGroupOffsets(groupId,
                    new ListConsumerGroupOffsetsOptions().timeoutMs((int) timeout.toMillis())).partitionsToOffsetAndMetadata());
        } catch (KafkaException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return Map.of();
            }
            throw e;
        }
        Map<TopicPartition, String> notes = new HashMap<>();
        offsets.forEach((tp, o) -> {
            if (o != null) {
                FailureNote.failure(o.metadata()).ifPresent(n -> notes.put(tp, n));
            }
        });
        return notes;
    }

    private <T> T call(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return AdminWait.await(() -> future.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS),
                    () -> "consumer group " + groupId + ": no answer within " + timeout);
        } catch (ExecutionException e) {
            throw new KafkaException("consumer group " + groupId + ": " + Failures.describe(e.getCause()), e.getCause());
        }
    }
}
