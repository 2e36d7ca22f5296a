package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.store.Store;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.connector.Task;

/**
 * The chain source whose store can block one object read (a worker that hangs in I/O): the task outlives its worker's
 * graceful stop and lives on as a zombie until released. Loaded by the embedded worker through META-INF/services.
 */
public class BlockingChainSourceConnector extends ChainSourceConnector {
    /** Armed by the test: the next object read blocks until this latch is released. */
    static final AtomicReference<CountDownLatch> BLOCK_NEXT_READ = new AtomicReference<>();
    static final CountDownLatch BLOCKED = new CountDownLatch(1);
    static final CountDownLatch RETURNED = new CountDownLatch(1);

    @Override
    public Class<? extends Task> taskClass() {
        return BlockingTask.class;
    }

    public static class BlockingTask extends ChainSourceTask {
        @Override
        protected Store openStore(ChainSourceConfig config) {
            Store store = super.openStore(config);
            return new Store() {
                @Override
                public String location(int partition) {
                    return store.location(partition);
                }

                @Override
                public List<String> list(int partition) {
                    return store.list(partition);
                }

                @Override
                public List<String> listFrom(int partition, String startAt, int max) {
                    return store.listFrom(partition, startAt, max);
                }

                @Override
                public boolean exists(int partition, String name) {
                    return store.exists(partition, name);
                }

                @Override
                public byte[] read(int partition, String name) {
                    CountDownLatch release = BLOCK_NEXT_READ.getAndSet(null);
                    if (release != null) {
                        BLOCKED.countDown();
                        try {
                            release.await(120, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        byte[] bytes = store.read(partition, name);
                        RETURNED.countDown();
                        return bytes;
                    }
                    return store.read(partition, name);
                }

                @Override
                public void create(int partition, String name, byte[] data) {
                    store.create(partition, name, data);
                }

                @Override
                public int removeTemporaryFiles(int partition) {
                    return store.removeTemporaryFiles(partition);
                }

                @Override
                public List<Integer> partitions() {
                    return store.partitions();
                }

                @Override
                public void close() {
                    store.close();
                }
            };
        }
    }
}
