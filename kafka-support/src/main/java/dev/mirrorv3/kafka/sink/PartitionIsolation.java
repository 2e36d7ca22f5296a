package dev.mirrorv3.kafka.sink;

import dev.mirrorv3.kafka.FailureNote;
import dev.mirrorv3.kafka.FailureVerdict;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PartitionFailures;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;

/**
 * A sink task's side of partition failure isolation (docs/design.md, "Failures: one classifier, with a scope"): the
 * partitions it positions, which of them failed ({@link PartitionFailures}), which partitions a failure concerns and
 * whether it fails the task instead ({@link FailureVerdict} under partition.failure), and the offset {@code preCommit}
 * reports for each, with its {@link FailureNote} as metadata. {@link PositionedSinkTask} pauses and drops.
 */
final class PartitionIsolation {
    private final FailureVerdict.Isolation isolation;
    private final PartitionFailures failures;
    private final Set<TopicPartition> assigned = new LinkedHashSet<>();

    PartitionIsolation(FailureVerdict.Isolation isolation, PartitionFailures failures) {
        this.isolation = isolation;
        this.failures = failures;
    }

    /** Without isolation (a task that never started it): every failure fails the task. */
    static PartitionIsolation none(Clock clock, Logger log) {
        return new PartitionIsolation(FailureVerdict.Isolation.TASK, new PartitionFailures(clock, 1, 1, "", log, new Silent()));
    }

    void assigned(Collection<TopicPartition> partitions) {
        assigned.addAll(partitions);
    }

    void closed(Collection<TopicPartition> partitions) {
        assigned.removeAll(partitions);
        failures.closed(partitions);
    }

    /** The verdict on {@code e} under partition.failure. */
    FailureVerdict verdict(RuntimeException e) {
        return ConnectFailures.verdict(e).under(isolation);
    }

    /**
     * The partitions an isolating {@code verdict} on {@code tp}'s failure takes out: {@code tp}, or every partition of its
     * topic for a condition of the topic; not those failed already unless {@code retrying} says one is being retried.
     */
    List<TopicPartition> affected(TopicPartition tp, FailureVerdict verdict, Predicate<TopicPartition> retrying) {
        List<TopicPartition> all = verdict.topicWide()
                .map(topic -> assigned.stream().filter(a -> a.topic().equals(topic)).toList())
                .filter(l -> !l.isEmpty())
                .orElse(List.of(tp));
        return all.stream().filter(a -> !failures.isFailed(a) || retrying.test(a)).toList();
    }

    /** Records that {@code tp} failed. */
    void fail(TopicPartition tp, FailureVerdict verdict, RuntimeException e, OptionalLong durableNext) {
        failures.fail(tp, verdict, e, durableNext);
    }

    /** The task's failure when the store refuses every partition of the task; empty otherwise. */
    Optional<ConnectException> escalation(FailureVerdict verdict, RuntimeException e) {
        if (verdict.refused() && failures.allRefused(assigned)) {
            return Optional.of(new ConnectException("the store refuses every partition of this task (" + assigned.size() + "): "
                    + Failures.describe(e), e));
        }
        return Optional.empty();
    }

    /** The failed partitions whose retry is due now; each is returned once. */
    List<TopicPartition> dueForRetry(long nowMs) {
        return failures.dueForRetry(nowMs);
    }

    long msUntilNextRetry(long nowMs) {
        return failures.msUntilNextRetry(nowMs);
    }

    void positioned(TopicPartition tp) {
        failures.positioned(tp);
    }

    int count() {
        return failures.count();
    }

    /**
     * What {@code preCommit} reports for {@code tp}: a failed partition's durable offset (where it was assigned when it
     * failed before it was positioned) with its failure's note, never more; a healthy one's durable offset, if positioned.
     */
    Optional<OffsetAndMetadata> offset(TopicPartition tp, OffsetAndMetadata current, OptionalLong durableNext) {
        Optional<PartitionFailures.Failure> failed = failures.failure(tp);
        if (failed.isPresent()) {
            return Optional.of(new OffsetAndMetadata(failed.get().durableNext().orElse(current.offset()), failed.get().note()));
        }
        if (durableNext.isEmpty()) {
            return Optional.empty();
        }
        failures.progressed(tp, durableNext.getAsLong());
        return Optional.of(new OffsetAndMetadata(durableNext.getAsLong(), FailureNote.HEALTHY));
    }

    /** A listener that hears nothing, for a task without isolation. */
    private static final class Silent implements PartitionFailures.Listener {
        @Override
        public void failed(TopicPartition tp) {
        }

        @Override
        public void cleared(TopicPartition tp) {
        }
    }
}
