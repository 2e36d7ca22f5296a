package dev.mirrorv3.connect.source;

import dev.mirrorv3.kafka.FailureNotes;
import dev.mirrorv3.kafka.FailureVerdict;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PartitionFailures;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.time.Clock;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chain source task's side of partition failure isolation (docs/design.md, "Failures: one classifier, with a
 * scope"): whether a failure of one backup partition isolates it or fails the task ({@link FailureVerdict} under
 * partition.failure), which partitions failed ({@link PartitionFailures}), and the note {@code mirror-v3 status} reads,
 * kept in consumer group {@link FailureNotes#groupId} on the target cluster: written when a partition fails, cleared
 * once it is positioned again (an earlier run's too). Task thread only.
 */
final class FollowIsolation {
    private static final Logger log = LoggerFactory.getLogger(ChainSourceTask.class); // the task's log lines

    private final String name;
    private final FailureVerdict.Isolation isolation;
    private final PartitionFailures failures;
    private final FailureNotes notes;
    /** Target partitions with a failure note from an earlier run, cleared once they are positioned. */
    private final Set<TopicPartition> noted;

    /** @param metrics hears when a partition fails and clears (mirror_v3_partition_failed) */
    FollowIsolation(String name, ChainSourceConfig config, Clock clock, Admin target, PartitionFailures.Listener metrics) {
        this.name = name;
        this.isolation = config.partitionFailure();
        this.failures = new PartitionFailures(clock, config.retryBackoffInitialMs(), config.partitionRetryMaxMs(), "POST /connectors/"
                + name + "/restart?includeTasks=true restarts the connector's tasks, which position and check their partitions"
                + " again (docs/operations.md, \"A failed partition\")", log, metrics);
        this.notes = new FailureNotes(target, FailureNotes.groupId(name), config.adminTimeout());
        this.noted = readNotes();
    }

    /**
     * A failure of one backup partition that is not transient: isolates it (partition.failure=partition and a condition
     * of the partition), or fails the task. The store refusing every partition of the task fails the task.
     *
     * @throws ConnectException the task's failure
     */
    void isolate(PartitionFollow f, RuntimeException e, Collection<PartitionFollow> all) {
        FailureVerdict verdict = ConnectFailures.verdict(e).under(isolation);
        if (!verdict.isolates()) {
            throw new ConnectException(name + ": follow-restore of " + f.follower.location() + " into " + f.target + " stopped: "
                    + Failures.describe(e), e);
        }
        PartitionFailures.Failure failure = failures.fail(f.backup(), verdict, e, OptionalLong.empty());
        f.isolated(failure.retryAtMs());
        try {
            notes.record(f.target, 0, failure.note());
        } catch (RuntimeException n) {
            log.warn("{}: cannot note the failure of {} for mirror-v3 status in consumer group {}: {}", name, f.target,
                    FailureNotes.groupId(name), Failures.describe(n));
        }
        if (verdict.refused() && failures.allRefused(all.stream().map(PartitionFollow::backup).toList())) {
            throw new ConnectException(name + ": the store refuses every partition of this task: " + Failures.describe(e), e);
        }
    }

    /** The partition is positioned: no longer failed, and an earlier run's note of its failure goes. */
    void cleared(PartitionFollow f) {
        failures.positioned(f.backup());
        if (noted.remove(f.target)) {
            try {
                notes.clear(List.of(f.target));
            } catch (RuntimeException e) {
                noted.add(f.target);
                log.debug("{}: cannot clear the failure note of {}: {}", name, f.target, Failures.describe(e));
            }
        }
    }

    /** The target partitions with a failure note from an earlier run; none when the notes cannot be read. */
    private Set<TopicPartition> readNotes() {
        try {
            return new HashSet<>(notes.read().keySet());
        } catch (RuntimeException e) {
            log.debug("{}: cannot read the failure notes in consumer group {}: {}", name, FailureNotes.groupId(name), Failures.describe(e));
            return new HashSet<>();
        }
    }
}
