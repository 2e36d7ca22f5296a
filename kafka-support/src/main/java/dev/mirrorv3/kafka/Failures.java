package dev.mirrorv3.kafka;

import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.TransientStoreException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * The one place that decides whether a failure is transient (retry with backoff, keep state) or fatal (fail
 * the task with its message). Consistency failures (chain, position, record type) are never transient.
 * A store has already classified its own failures ({@link TransientStoreException} or another
 * {@link StoreException}; S3: {@code S3Errors}), so the first store exception met in the cause chain decides:
 * a fatal store error (S3 access denied, another writer's object) stays fatal even if an I/O error caused it.
 */
public final class Failures {
    private Failures() {
    }

    public static boolean isTransient(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof StoreException) {
                return c instanceof TransientStoreException;
            }
            if (c instanceof RetriableException
                    || c instanceof org.apache.kafka.common.errors.TimeoutException
                    || c instanceof TimeoutException
                    || c instanceof ConnectException
                    || c instanceof SocketTimeoutException
                    || c instanceof UnknownHostException) {
                return true;
            }
        }
        return false;
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
