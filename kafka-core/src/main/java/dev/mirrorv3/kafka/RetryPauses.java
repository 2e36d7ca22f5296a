package dev.mirrorv3.kafka;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions a sink task keeps paused because it is retrying them (positioning them after a transient failure,
 * or a recovery). Connect's {@code WorkerSinkTaskContext} remembers every partition a task pauses and pauses it again
 * after each rebalance, also one that was closed and assigned again; only the task's resume forgets it. So every path
 * that positions a partition must {@link #resume} it, or it stays paused for good while nothing fails. Connect-free:
 * the task passes its context's pause and resume. {@link #count()} is safe from a metrics thread.
 */
public final class RetryPauses {
    private final Consumer<TopicPartition[]> pause;
    private final Consumer<TopicPartition[]> resume;
    private final Set<TopicPartition> paused = ConcurrentHashMap.newKeySet();

    public RetryPauses(Consumer<TopicPartition[]> pause, Consumer<TopicPartition[]> resume) {
        this.pause = pause;
        this.resume = resume;
    }

    /** Pauses partitions until they are positioned (or the recovery that holds them ends). */
    public void pause(Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) {
            pause.accept(partitions.toArray(new TopicPartition[0]));
            paused.addAll(partitions);
        }
    }

    /**
     * Resumes positioned partitions, all of them: one this task never paused in this assignment may still be paused
     * by Connect after a rebalance. Returns those this task was retrying (for its log line).
     */
    public List<TopicPartition> resume(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return List.of();
        }
        resume.accept(partitions.toArray(new TopicPartition[0]));
        return partitions.stream().filter(paused::remove).toList();
    }

    /** Forgets closed partitions; if they come back, open() pauses or resumes them again. */
    public void closed(Collection<TopicPartition> partitions) {
        paused.removeAll(partitions);
    }

    /** How many partitions are paused for a retry now. */
    public int count() {
        return paused.size();
    }

    public Set<TopicPartition> partitions() {
        return Set.copyOf(paused);
    }
}
