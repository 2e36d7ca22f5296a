package dev.mirrorv3.connect.kafka;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.connector.Task;

/** The real connector with a task that can be held before sending one chosen offset: a zombie in the making. */
public class FaultInjectingKafkaSinkConnector extends KafkaSinkConnector {
    /** The source offset whose send blocks (once, in the first task that reaches it); -1 for none. */
    static final AtomicLong HOLD_AT = new AtomicLong(-1);
    static final AtomicReference<CountDownLatch> RELEASE = new AtomicReference<>(new CountDownLatch(0));
    static final CountDownLatch[] BLOCKED = {new CountDownLatch(1)};

    @Override
    public Class<? extends Task> taskClass() {
        return HeldTask.class;
    }

    public static class HeldTask extends KafkaSinkTask {
        @Override
        protected void beforeSend(TopicPartition source, long offset) {
            if (offset == HOLD_AT.get() && HOLD_AT.compareAndSet(offset, -1)) {
                BLOCKED[0].countDown();
                // A stuck thread (a long GC pause, a hung disk or network) that Connect's interrupt does not wake: it
                // sends when released, as a zombie would.
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
                while (System.nanoTime() < deadline) {
                    try {
                        if (RELEASE.get().await(1, TimeUnit.SECONDS)) {
                            break;
                        }
                    } catch (InterruptedException e) {
                        // ignored on purpose
                    }
                }
            }
        }
    }
}
