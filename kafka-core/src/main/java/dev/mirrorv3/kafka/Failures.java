package dev.mirrorv3.kafka;

import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.TransientStoreException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.IllegalGenerationException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownMemberIdException;

/**
 * The one place that decides whether a failure is transient (retry with backoff, keep state) or fatal (fail
 * the task with its message). Consistency failures (chain, position, record type) are never transient.
 * A store has already classified its own failures ({@link TransientStoreException} or another
 * {@link StoreException}; S3: {@code S3Errors}), so the first store exception met in the cause chain decides:
 * a fatal store error (S3 access denied, another writer's object) stays fatal even if an I/O error caused it.
 * Kafka's {@code RetriableException} (org.apache.kafka.common.errors) is transient, and so is a runtime's own "try again
 * later" ({@link RuntimeFailureKinds#retriable}): Connect's RetriableException, which a task throws to have its batch
 * delivered again after a pause, known by its type where Connect runs (kafka-support's {@code ConnectFailures}).
 */
public final class Failures {
    private Failures() {
    }

    /** Kinds of failure that retrying may fix, also as the cause of another. */
    private static final List<Class<?>> TRANSIENT = List.of(RetriableException.class,
            org.apache.kafka.common.errors.TimeoutException.class, TimeoutException.class, ConnectException.class,
            SocketTimeoutException.class, UnknownHostException.class);
    /** The broker refusing to set a group's offsets while it has members or rebalances. */
    private static final List<Class<?>> GROUP_NOT_EMPTY = List.of(GroupNotEmptyException.class, UnknownMemberIdException.class,
            RebalanceInProgressException.class, IllegalGenerationException.class);
    private static final List<Class<?>> AUTHORIZATION = List.of(AuthorizationException.class, AuthenticationException.class);

    /** Transient or not, where no runtime's own exceptions can occur (the restore engine, the CLI, admin calls). */
    public static boolean isTransient(Throwable t) {
        return isTransient(t, RuntimeFailureKinds.NONE);
    }

    /** Transient or not, also where {@code runtime}'s "try again later" can occur (a Connect task: ConnectFailures). */
    public static boolean isTransient(Throwable t, RuntimeFailureKinds runtime) {
        return firstCause(t, c -> c instanceof StoreException || runtime.retriable().test(c) || isOneOf(c, TRANSIENT))
                .map(c -> !(c instanceof StoreException) || c instanceof TransientStoreException)
                .orElse(false);
    }

    /**
     * The broker refused to set a consumer group's offsets because the group has members (or is rebalancing): a state
     * that passes once they leave, e.g. the tasks of a connector being restarted. Not transient in general.
     */
    public static boolean isGroupNotEmpty(Throwable t) {
        return firstCause(t, c -> isOneOf(c, GROUP_NOT_EMPTY)).isPresent();
    }

    /** Refused for lack of a permission (an ACL): fatal, and the message should say which to grant. */
    public static boolean isAuthorization(Throwable t) {
        return firstCause(t, c -> isOneOf(c, AUTHORIZATION)).isPresent();
    }

    /** The first of {@code t} and its causes that {@code matches}, outermost first. */
    private static Optional<Throwable> firstCause(Throwable t, Predicate<Throwable> matches) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (matches.test(c)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    private static boolean isOneOf(Throwable t, List<Class<?>> kinds) {
        return kinds.stream().anyMatch(k -> k.isInstance(t));
    }

    /** The message of the failure and its causes, for one log line or task error. */
    public static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder(String.valueOf(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage()));
        for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() != null && !sb.toString().contains(c.getMessage())) {
                sb.append(": ").append(c.getMessage());
            }
        }
        return sb.toString();
    }
}
