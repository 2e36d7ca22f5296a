package dev.mirrorv3.kafka.sink;

import dev.mirrorv3.kafka.Failures;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * The failure that fails a sink task: recorded by any thread (a producer's I/O thread, {@code open()}), thrown from the
 * task thread. The first one wins, so the message names the cause rather than a consequence.
 */
public final class FatalFailure {
    private final AtomicReference<RuntimeException> first = new AtomicReference<>();

    /** Records {@code e} unless a failure is recorded already. */
    public void record(RuntimeException e) {
        first.compareAndSet(null, e);
    }

    public boolean isSet() {
        return first.get() != null;
    }

    /** Records {@code e} as a task failure (a {@link ConnectException} that Connect does not retry) and returns it to throw. */
    public ConnectException fail(RuntimeException e) {
        ConnectException ce = e instanceof ConnectException c && !(e instanceof RetriableException) ? c
                : new ConnectException(Failures.describe(e), e);
        first.compareAndSet(null, ce);
        return ce;
    }

    public void throwIfSet() {
        RuntimeException f = first.get();
        if (f != null) {
            throw fail(f);
        }
    }
}
