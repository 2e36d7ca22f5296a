package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.restore.RecordMatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The resume check of a follow-restore (docs/chain-source.md): reads the target partition's last record (at h − 1) and requires it
 * to be the backup's record for that position ({@link RecordMatch}), and finds the first record stamped after a cut. One
 * consumer without a group, assigned one partition at a time; not thread-safe.
 */
public final class TargetTail implements AutoCloseable {
    private final Consumer<byte[], byte[]> consumer;
    private final Duration timeout;

    /** @param clientConfig consumer settings of the target cluster (bootstrap servers, security) */
    public TargetTail(Map<String, Object> clientConfig, Duration timeout) {
        Map<String, Object> c = new HashMap<>(clientConfig);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted"); // the high watermark counts every record
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        c.remove(ConsumerConfig.GROUP_ID_CONFIG);
        c.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "mirror-v3-target-tail");
        this.consumer = new KafkaConsumer<>(c);
        this.timeout = timeout;
    }

    /**
     * Requires the target's record at {@code h − 1} to be {@code expected}.
     *
     * @throws RestoreCheckException if it differs or is no longer in the topic
     * @throws org.apache.kafka.common.errors.TimeoutException if it could not be read in time (transient)
     */
    public void verifyLast(TopicPartition tp, long h, BackupRecord expected, String originalOffsetHeader, boolean logAppendTime) {
        BackupRecord actual = recordAt(tp, h - 1);
        RecordMatch.difference(expected, originalOffsetHeader, actual, !logAppendTime).ifPresent(d -> {
            throw new RestoreCheckException("the target holds records that are not this backup's: " + tp + " offset " + (h - 1)
                    + " (its last record) is not the backup's record for that position (backup offset " + expected.offset() + "): " + d
                    + ". Follow into a new, empty topic, or into a topic a restore of this backup filled with the same offsets mode");
        });
    }

    /**
     * The target's first record stamped after {@code timestampMs}, from the broker's time index (ListOffsets by timestamp:
     * the earliest offset whose timestamp is at least {@code timestampMs + 1}); empty when none is. On a CreateTime target
     * a follow-restore filled, its timestamps are the backup's.
     *
     * @throws org.apache.kafka.common.errors.TimeoutException if it could not be read in time (transient)
     */
    public Optional<OffsetAndTimestamp> firstStampedAfter(TopicPartition tp, long timestampMs) {
        return Optional.ofNullable(consumer.offsetsForTimes(Map.of(tp, timestampMs + 1), timeout).get(tp));
    }

    /**
     * The target's record at an offset below its high watermark (also how far a follow-restore is, for status).
     *
     * @throws RestoreCheckException if retention or compaction removed it
     * @throws org.apache.kafka.common.errors.TimeoutException if it could not be read in time (transient)
     */
    public BackupRecord recordAt(TopicPartition tp, long offset) {
        consumer.assign(List.of(tp));
        long logStart = consumer.beginningOffsets(List.of(tp), timeout).get(tp);
        if (logStart > offset) {
            throw removed(tp, offset, "the log starts at offset " + logStart);
        }
        consumer.seek(tp, offset);
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() != offset) {
                        throw removed(tp, offset, "the next record is at offset " + r.offset());
                    }
                    List<RecordHeader> headers = new ArrayList<>();
                    for (Header h : r.headers()) {
                        headers.add(new RecordHeader(h.key(), h.value()));
                    }
                    return new BackupRecord(tp.topic(), tp.partition(), r.offset(), r.timestamp(),
                            TimestampType.CREATE_TIME, r.key(), r.value(), headers);
                }
            }
        } finally {
            consumer.unsubscribe();
        }
        throw new org.apache.kafka.common.errors.TimeoutException("reading the target's last record " + tp + " offset " + offset
                + " timed out after " + timeout);
    }

    private static RestoreCheckException removed(TopicPartition tp, long offset, String why) {
        return new RestoreCheckException("the target's last record (" + tp + " offset " + offset + ") is no longer in the topic"
                + " (retention or compaction removed it; " + why + "), so it cannot be checked against the backup before resuming."
                + " Give a followed topic a retention that keeps its records (retention.ms=-1, cleanup.policy=delete), and follow"
                + " into a new, empty topic");
    }

    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}
