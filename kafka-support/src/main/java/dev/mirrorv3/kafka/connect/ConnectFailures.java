package dev.mirrorv3.kafka.connect;

import dev.mirrorv3.kafka.FailureVerdict;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PartitionRetry;
import dev.mirrorv3.kafka.RuntimeFailureKinds;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * {@link Failures} and {@link FailureVerdict} where Connect runs: its RetriableException (a task's "deliver the batch
 * again after a pause", the blob sink's wait for buffer room) is transient and its DataException (a record that cannot
 * be converted) is its partition's, each known by its type, so a class that only bears the name is not taken for it.
 * Every connector asks here, and hands {@link #KINDS} to kafka-core's retries ({@code PartitionRetry},
 * {@code PerPartition}); the Connect-free forms are for code that never meets Connect's exceptions (the architecture
 * test {@code ConnectFreeTest} holds Connect code to this class).
 */
public final class ConnectFailures {
    /** Connect's exceptions, by type. */
    public static final RuntimeFailureKinds KINDS = new RuntimeFailureKinds(t -> t instanceof RetriableException,
            t -> t instanceof DataException);

    private ConnectFailures() {
    }

    /** Whether {@code t} is transient ({@link Failures#isTransient(Throwable, RuntimeFailureKinds)}), Connect's own included. */
    public static boolean isTransient(Throwable t) {
        return Failures.isTransient(t, KINDS);
    }

    /** What {@code t} means for the task ({@link FailureVerdict#of(Throwable, RuntimeFailureKinds)}), Connect's own included. */
    public static FailureVerdict verdict(Throwable t) {
        return FailureVerdict.of(t, KINDS);
    }

    /**
     * A sink's answer to a failed batch: when {@code retry} retries {@code failure} (transient; it backs off and calls
     * {@code pause}), Connect's RetriableException, so that Connect hands the same batch again after the pause; otherwise
     * returns, and the caller fails.
     */
    public static void redeliverIfRetried(PartitionRetry retry, RuntimeException failure, PartitionRetry.Pause pause) {
        if (retry.retry(failure, pause)) {
            throw new RetriableException(Failures.describe(failure), failure);
        }
    }
}
