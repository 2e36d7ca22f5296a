package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PartitionRetry;
import dev.mirrorv3.kafka.PositionException;
import dev.mirrorv3.kafka.PositionRule;
import dev.mirrorv3.kafka.SourceTopicCheck;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka sink task's running checks of the source topic's identity ({@link SourceTopicCheck}): before each batch is
 * sent, and every hour for every partition (an idle one too), the source topics must still be those the destination
 * topics copy, the ids the partitions were positioned with. Another id is the condition of every partition of that
 * topic: the task isolates them (or fails, partition.failure=task) with the positioning message (both ids). A check
 * that cannot be made now (the source cluster unreachable) is retried with its own backoff: the batch is delivered
 * again after it, nothing of it sent. Task thread only.
 */
final class SourceChecks {
    private static final Logger log = LoggerFactory.getLogger(KafkaSinkTask.class); // the task's log lines
    /** How often every partition's source topic is looked at, records or not. */
    static final long LOOK_INTERVAL_MS = 3_600_000L;

    private final SourceTopicCheck check;
    private final PartitionRetry retry;
    private final LongConsumer pollWithin;
    private long nextLookMs;

    /**
     * @param retry backs a failed check off (the task's retry backoff settings)
     * @param pollWithin asks Connect for the next poll within that many ms (the retry's delay)
     * @param nowMs the task's start: the first look at every partition is an hour later
     */
    SourceChecks(SourceTopicCheck check, PartitionRetry retry, LongConsumer pollWithin, long nowMs) {
        this.check = check;
        this.retry = retry;
        this.pollWithin = pollWithin;
        this.nextLookMs = nowMs + LOOK_INTERVAL_MS;
    }

    /** The partition was positioned at a copy of the source topic with {@code id}. */
    void positioned(TopicPartition source, String id, TopicPartition destination) {
        check.expect(source, id, new PositionRule.KafkaTopic(destination));
    }

    void closed(TopicPartition source) {
        check.forget(source);
    }

    /**
     * Before a batch is sent: the partitions it sends records of, each from the offset {@code expected} gives it (empty:
     * none of its records is sent). The records are in hand: a look begun now covers them.
     *
     * @return the failure of each partition whose source topic has another id: none of its records may be sent
     * @throws RetriableException the check could not be made: the batch is delivered again after the backoff
     * @throws RuntimeException what fails the task
     */
    Map<TopicPartition, PositionException> beforeSending(Collection<SinkRecord> records, Function<TopicPartition, OptionalLong> expected) {
        long fetchedBy = check.stamp();
        Map<TopicPartition, Long> sending = new HashMap<>();
        for (SinkRecord r : records) {
            TopicPartition tp = new TopicPartition(r.originalTopic(), r.originalKafkaPartition());
            OptionalLong next = expected.apply(tp);
            if (next.isPresent() && r.originalKafkaOffset() >= next.getAsLong()) {
                sending.putIfAbsent(tp, next.getAsLong());
            }
        }
        if (sending.isEmpty()) {
            return Map.of();
        }
        try {
            Map<TopicPartition, PositionException> recreated = check.mismatches(sending, fetchedBy);
            retry.succeeded();
            return recreated;
        } catch (RuntimeException e) {
            ConnectFailures.redeliverIfRetried(retry, e, (delay, attempt, cause) -> {
                pollWithin.accept(delay);
                log.warn("cannot check the source topics of {} before sending: retrying the batch in {} ms (attempt {}): {}",
                        sending.keySet(), delay, attempt, cause);
            });
            throw e;
        }
    }

    /**
     * Every hour, every partition (an idle one's records of a new topic would not be fetched yet): a failed look is
     * logged and tried again an hour later.
     *
     * @return the failure of each partition whose source topic has another id
     */
    Map<TopicPartition, PositionException> lookIfDue(long nowMs, Map<TopicPartition, Long> next) {
        if (nowMs < nextLookMs || next.isEmpty()) {
            return Map.of();
        }
        nextLookMs = nowMs + LOOK_INTERVAL_MS;
        try {
            return check.mismatches(next, check.stamp());
        } catch (RuntimeException e) {
            log.warn("cannot look at the source topics of {} now (again in an hour): {}", next.keySet(), Failures.describe(e));
            return Map.of();
        }
    }
}
