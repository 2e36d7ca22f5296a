package dev.mirrorv3.kafka;

import java.util.function.Predicate;

/**
 * What a runtime's own exceptions mean to {@link Failures} and {@link FailureVerdict}, which cannot name them: Kafka
 * Connect's, known by their type in kafka-support ({@code ConnectFailures}). Code that runs without a runtime of its own
 * (the restore engine, the CLI, admin calls) meets none of them: {@link #NONE}.
 *
 * @param retriable the runtime's "try again later" (Connect's RetriableException, which a task throws to have its batch
 *                  delivered again after a pause): transient, as Kafka's RetriableException is
 * @param badRecord a record the runtime could not convert (Connect's DataException): its partition's, for an operator
 */
public record RuntimeFailureKinds(Predicate<Throwable> retriable, Predicate<Throwable> badRecord) {
    /** No runtime's exceptions: only those of kafka-clients, the stores and the JDK mean something. */
    public static final RuntimeFailureKinds NONE = new RuntimeFailureKinds(t -> false, t -> false);
}
