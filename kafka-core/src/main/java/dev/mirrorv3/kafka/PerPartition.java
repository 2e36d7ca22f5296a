package dev.mirrorv3.kafka;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * The outcome of a step over many partitions where one partition's failure must not decide for the others (opening
 * them: docs/design.md, "Failures: one classifier, with a scope"): a result for each partition that got one, the
 * failure of each that did not. A transient failure is not kept: it is thrown, and the whole step is retried with the
 * short backoff (a store or cluster that does not answer does so for every partition).
 *
 * @param <T> what a partition gets
 */
public final class PerPartition<T> {
    private final Map<TopicPartition, T> results = new LinkedHashMap<>();
    private final Map<TopicPartition, RuntimeException> failures = new LinkedHashMap<>();
    private final RuntimeFailureKinds runtime;

    /** Where no runtime's own exceptions occur. */
    public PerPartition() {
        this(RuntimeFailureKinds.NONE);
    }

    /** @param runtime what the runtime's own exceptions mean (a Connect task's: kafka-support's ConnectFailures) */
    public PerPartition(RuntimeFailureKinds runtime) {
        this.runtime = runtime;
    }

    /** Runs {@code step} for {@code tp}: keeps its result, or its failure unless that is transient (thrown). */
    public void attempt(TopicPartition tp, Supplier<? extends T> step) {
        try {
            results.put(tp, step.get());
        } catch (RuntimeException e) {
            fail(tp, e);
        }
    }

    /** Runs {@code step} for several partitions at once (one topic's): a failure is each of theirs. */
    public void attemptAll(Collection<TopicPartition> partitions, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            partitions.forEach(tp -> fail(tp, e));
        }
    }

    /** Records {@code tp}'s failure, unless it is transient: that one is thrown. */
    public void fail(TopicPartition tp, RuntimeException e) {
        if (Failures.isTransient(e, runtime)) {
            throw e;
        }
        results.remove(tp);
        failures.put(tp, e);
    }

    public void put(TopicPartition tp, T result) {
        results.put(tp, result);
    }

    public boolean failed(TopicPartition tp) {
        return failures.containsKey(tp);
    }

    /** The partitions that got a result. */
    public Map<TopicPartition, T> results() {
        return results;
    }

    /** The partitions that failed, with their failure. */
    public Map<TopicPartition, RuntimeException> failures() {
        return failures;
    }

    /** These results turned into another type, the failures kept. */
    public <U> PerPartition<U> map(java.util.function.BiFunction<TopicPartition, T, U> f) {
        PerPartition<U> out = new PerPartition<>(runtime);
        results.forEach((tp, t) -> out.attempt(tp, () -> f.apply(tp, t)));
        out.failures.putAll(failures);
        return out;
    }
}
