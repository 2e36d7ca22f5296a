package dev.mirrorv3.kafka.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The produce pass's bound on records in flight: a sender waits beyond it, and never past a failure or a stop. */
class ProduceFailureTest {

    @Test
    void aSenderGoesOnWhileTheRecordsInFlightAreWithinTheLimit() throws Exception {
        ProduceFailure pass = new ProduceFailure();
        pass.countSent(ProduceFailure.IN_FLIGHT_LIMIT);
        assertThat(pass.awaitRoom()).isTrue();
        assertThat(pass.sent()).isEqualTo(ProduceFailure.IN_FLIGHT_LIMIT);
    }

    @Test
    void aSenderBeyondTheLimitWaitsUntilEnoughAreDelivered() throws Exception {
        ProduceFailure pass = new ProduceFailure();
        pass.countSent(ProduceFailure.IN_FLIGHT_LIMIT + 10);
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> awaitRoom(pass));
        Thread.sleep(200);
        assertThat(waiting).as("more than the limit in flight").isNotDone();
        for (int i = 0; i < 9; i++) {
            pass.delivered();
        }
        Thread.sleep(200);
        assertThat(waiting).as("still one more than the limit in flight").isNotDone();
        pass.delivered();
        assertThat(waiting.get(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aFailureEndsTheWaitAndStopsTheSender() throws Exception {
        ProduceFailure pass = new ProduceFailure();
        pass.countSent(ProduceFailure.IN_FLIGHT_LIMIT + 1);
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> awaitRoom(pass));
        Thread.sleep(100);
        pass.fail(new RestoreCheckException("target t/0: the record sent for offset 7 was not stored"));
        assertThat(waiting.get(5, TimeUnit.SECONDS)).as("room to send after a failure").isFalse();
        assertThat(pass.awaitRoom()).isFalse();
    }

    @Test
    void anInterruptedSenderStopsWaiting() throws Exception {
        ProduceFailure pass = new ProduceFailure();
        pass.countSent(ProduceFailure.IN_FLIGHT_LIMIT + 1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                pass.awaitRoom();
            } catch (InterruptedException e) {
                thrown.set(e);
            }
        });
        sender.start();
        Thread.sleep(100);
        sender.interrupt();
        sender.join(5_000);
        assertThat(sender.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    }

    @Test
    void aDeliverySeenBeforeItsSendIsCountedLeavesRoom() throws Exception {
        ProduceFailure pass = new ProduceFailure();
        pass.delivered(); // a sender counts its records once per check, so an acknowledgement may come first
        assertThat(pass.awaitRoom()).isTrue();
        pass.countSent(ProduceFailure.IN_FLIGHT_LIMIT + 1);
        assertThat(pass.awaitRoom()).isTrue();
    }

    private static boolean awaitRoom(ProduceFailure pass) {
        try {
            return pass.awaitRoom();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
