package dev.mirrorv3.connect.kafka;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

/**
 * One destination producer of the Kafka sink, until its first failed delivery aborts it (see
 * {@link DestinationRecovery}). {@link KafkaProducer#close(Duration)} with zero from a callback (the producer's I/O
 * thread) does not block: the sender stops after its current iteration, without re-sending, bumping its epoch or
 * resetting sequences, and fails every batch not yet complete. Requests already written may still be appended, but only
 * in their sequence order: a prefix of what was sent.
 */
final class AbortableProducer {
    private final Producer<byte[], byte[]> producer;
    private final AtomicBoolean aborted = new AtomicBoolean();
    private boolean awaited;

    AbortableProducer(Producer<byte[], byte[]> producer) {
        this.producer = producer;
    }

    Producer<byte[], byte[]> producer() {
        return producer;
    }

    boolean aborted() {
        return aborted.get();
    }

    /** Stops the producer at once (any thread, first call only): nothing more is sent. */
    void abort() {
        if (aborted.compareAndSet(false, true)) {
            producer.close(Duration.ZERO);
        }
    }

    /** On the task thread: aborts, and waits until the I/O thread has ended, so every callback has run. */
    void abortAndAwait() {
        if (!awaited) {
            aborted.set(true);
            producer.close(Duration.ZERO); // joins the I/O thread (also when a callback aborted it already)
            awaited = true;
        }
    }
}
