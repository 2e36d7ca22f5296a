package dev.mirrorv3.kafka;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.crypto.KeysDirException;
import dev.mirrorv3.chain.crypto.MissingKeysException;
import dev.mirrorv3.chain.envelope.EnvelopeDecodeException;
import dev.mirrorv3.chain.envelope.ValueTypeException;
import dev.mirrorv3.chain.store.ObjectExistsException;
import dev.mirrorv3.chain.store.ObjectMissingException;
import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.s3.S3AccessException;
import dev.mirrorv3.chain.write.ChainMovedOnException;
import java.util.Locale;
import java.util.Optional;

/**
 * What a failure means for a task (docs/design.md, "Failures: one classifier, with a scope"): its scope (the partition,
 * a destination of it, or the whole task) and its kind (a transient failure retried at once with the short backoff, a
 * condition that clears by itself and is retried with a long backoff, or one that needs an operator). Decided here for
 * every connector, on top of {@link Failures}' transient-or-not; the first cause in the chain that says something
 * decides, outermost first. Connect-free: what Connect's own exceptions mean comes in as {@link RuntimeFailureKinds}
 * (kafka-support's {@code ConnectFailures}).
 *
 * @param topic the source topic whose every partition a partition-scoped condition concerns (a re-created topic), or null
 * @param refused a store refused a partition's requests (S3 AccessDenied): when it refuses every partition of a task,
 *                the task fails instead
 */
public record FailureVerdict(Scope scope, Kind kind, String topic, boolean refused) {

    /** Where a failure belongs. */
    public enum Scope {
        /** One partition (or every partition of {@link #topic()}): it is isolated, the task and the others go on. */
        PARTITION,
        /** One destination of a partition (several destinations per partition): isolated like a partition. */
        DESTINATION,
        /** The task: it fails (credentials, configuration, every request refused, a failure outside any partition). */
        TASK
    }

    /** How a failure clears. */
    public enum Kind {
        /** I/O that retrying fixes (unreachable, timeouts, throttling): the short retry, state kept. */
        TRANSIENT,
        /**
         * Clears without an operator (a key id not yet in the keys dir, a prefix refused, the chain moved on under a manifest
         * that continues it): retried with a long backoff.
         */
        CLEARS_BY_ITSELF,
        /** Another writer, lost data, a record that cannot be converted: stays failed until an operator retries. */
        NEEDS_OPERATOR
    }

    /** {@code partition.failure}: isolate a partition's failure ({@link #PARTITION}, the default) or fail the task with it. */
    public enum Isolation {
        TASK, PARTITION;

        public static Isolation fromConfig(String value) {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        }

        public String configValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final FailureVerdict TRANSIENT = new FailureVerdict(Scope.PARTITION, Kind.TRANSIENT, null, false);
    private static final FailureVerdict TASK_FAILURE = new FailureVerdict(Scope.TASK, Kind.NEEDS_OPERATOR, null, false);
    private static final FailureVerdict PARTITION_NEEDS_OPERATOR = new FailureVerdict(Scope.PARTITION, Kind.NEEDS_OPERATOR, null, false);

    /** The verdict on {@code t}, as if it happened while working on one partition, where no runtime's exceptions occur. */
    public static FailureVerdict of(Throwable t) {
        return of(t, RuntimeFailureKinds.NONE);
    }

    /** The verdict on {@code t}, as if it happened while working on one partition, where {@code runtime}'s occur. */
    public static FailureVerdict of(Throwable t, RuntimeFailureKinds runtime) {
        if (Failures.isTransient(t, runtime)) {
            return TRANSIENT;
        }
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            Optional<FailureVerdict> v = decide(c, runtime);
            if (v.isPresent()) {
                return v.get();
            }
        }
        return TASK_FAILURE;
    }

    private static Optional<FailureVerdict> decide(Throwable c, RuntimeFailureKinds runtime) {
        if (c instanceof S3AccessException s3) {
            return Optional.of(s3.problem() == S3AccessException.Problem.DENIED
                    ? new FailureVerdict(Scope.PARTITION, Kind.CLEARS_BY_ITSELF, null, true) : TASK_FAILURE);
        }
        if (Failures.isAuthorization(c) || c instanceof KeysDirException) {
            return Optional.of(TASK_FAILURE);
        }
        if (c instanceof MissingKeysException) {
            return Optional.of(new FailureVerdict(Scope.PARTITION, Kind.CLEARS_BY_ITSELF, null, false));
        }
        if (c instanceof ChainMovedOnException) {
            return Optional.of(new FailureVerdict(Scope.PARTITION, Kind.CLEARS_BY_ITSELF, null, false));
        }
        if (c instanceof PositionException p) {
            return Optional.of(new FailureVerdict(Scope.PARTITION, Kind.NEEDS_OPERATOR, p.topic().orElse(null), false));
        }
        if (c instanceof PartitionException || c instanceof ChainException || c instanceof ObjectExistsException
                || c instanceof ObjectMissingException || c instanceof EnvelopeDecodeException || c instanceof ValueTypeException
                || runtime.badRecord().test(c)) {
            return Optional.of(PARTITION_NEEDS_OPERATOR);
        }
        if (c instanceof StoreException) {
            return Optional.of(TASK_FAILURE); // a store's own fatal failure that names no partition's condition
        }
        return Optional.empty();
    }

    /** This verdict where {@code partition.failure} is {@code isolation}: with {@code task} nothing is isolated. */
    public FailureVerdict under(Isolation isolation) {
        return isolation == Isolation.TASK && isolates() ? new FailureVerdict(Scope.TASK, kind, topic, refused) : this;
    }

    /** Whether the failure is isolated to its partition (or destination) rather than retried at once or failing the task. */
    public boolean isolates() {
        return scope != Scope.TASK && kind != Kind.TRANSIENT;
    }

    /** The topic whose every partition the condition concerns, if it is a topic's. */
    public Optional<String> topicWide() {
        return Optional.ofNullable(topic);
    }
}
