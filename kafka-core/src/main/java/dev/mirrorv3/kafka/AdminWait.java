package dev.mirrorv3.kafka;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;

/**
 * Waiting for the answer of an admin client call with a deadline, one way for every caller: an interrupt keeps the
 * thread's interrupt flag and becomes Kafka's {@link InterruptException}; no answer in time becomes Kafka's
 * {@link org.apache.kafka.common.errors.TimeoutException} naming what was asked ({@link Failures} finds both transient).
 * A failed call stays an {@link ExecutionException}: what its cause means is the caller's to decide.
 */
public final class AdminWait {
    private AdminWait() {
    }

    /** A blocking wait for an answer, such as {@code () -> future.get(ms, TimeUnit.MILLISECONDS)}. */
    @FunctionalInterface
    public interface Answer<T> {
        T get() throws InterruptedException, ExecutionException, TimeoutException;
    }

    /**
     * The answer {@code answer} waits for.
     *
     * @param noAnswer the message when the wait times out: what was asked, of what, and the timeout
     * @throws ExecutionException the call failed; its cause says why
     */
    public static <T> T await(Answer<T> answer, Supplier<String> noAnswer) throws ExecutionException {
        try {
            return answer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } catch (TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException(noAnswer.get(), e);
        }
    }

    /**
     * The failure of a call to rethrow: its cause itself when that is a Kafka exception (its type decides transient or
     * fatal), else a {@link KafkaException} saying that {@code what} failed and why.
     */
    public static KafkaException failure(String what, ExecutionException e) {
        Throwable cause = e.getCause();
        return cause instanceof KafkaException ke ? ke : new KafkaException(what + " failed: " + cause, cause);
    }
}
