package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.store.Store;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The stores of one task, one per backed-up topic (its destination name), opened on first use: those of the task
 * thread and, apart, those of the metadata snapshotter, which runs on a thread of its own ({@link MetaSnapshotter}).
 */
final class TaskStores implements AutoCloseable {
    private final Function<String, Store> openForTopic;
    private final Map<String, Store> stores = new HashMap<>();
    private final Map<String, Store> snapshotterStores = new ConcurrentHashMap<>();

    /** @param openForTopic opens the store of a topic's destination */
    TaskStores(Function<String, Store> openForTopic) {
        this.openForTopic = openForTopic;
    }

    /** The store holding {@code topic}'s chains, for the task thread. */
    Store forTopic(String topic) {
        return stores.computeIfAbsent(topic, openForTopic);
    }

    /** The store of {@code topic}'s backup for the snapshotter's thread. */
    Store forSnapshotter(String topic) {
        return snapshotterStores.computeIfAbsent(topic, openForTopic);
    }

    /** Closes the snapshotter's stores; call it once the snapshotter has stopped. */
    void closeSnapshotterStores() {
        snapshotterStores.values().forEach(Store::close);
        snapshotterStores.clear();
    }

    @Override
    public void close() {
        stores.values().forEach(Store::close);
        stores.clear();
    }
}
