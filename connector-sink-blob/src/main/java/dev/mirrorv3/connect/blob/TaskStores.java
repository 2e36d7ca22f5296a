package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreRequests;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The stores of one task, one per backed-up topic (its destination name), opened on first use: those of the task
 * thread and, apart, those of the metadata snapshotter, which runs on a thread of its own ({@link MetaSnapshotter}).
 */
final class TaskStores implements AutoCloseable {
    private final Function<String, Store> openForTopic;
    private final Consumer<String> opened;
    private final Map<String, Store> stores = new ConcurrentHashMap<>();
    private final Map<String, Store> snapshotterStores = new ConcurrentHashMap<>();

    /**
     * @param openForTopic opens the store of a topic's destination
     * @param opened told each time a store of a topic is opened (its request counts are registered then)
     */
    TaskStores(Function<String, Store> openForTopic, Consumer<String> opened) {
        this.openForTopic = openForTopic;
        this.opened = opened;
    }

    /** The store holding {@code topic}'s chains, for the task thread. */
    Store forTopic(String topic) {
        return stores.computeIfAbsent(topic, this::open);
    }

    /** The store of {@code topic}'s backup for the snapshotter's thread. */
    Store forSnapshotter(String topic) {
        return snapshotterStores.computeIfAbsent(topic, this::open);
    }

    private Store open(String topic) {
        Store store = openForTopic.apply(topic);
        opened.accept(topic);
        return store;
    }

    /** The request counts of the stores of {@code topic}'s backup (the task thread's and the snapshotter's). */
    List<StoreRequests> requests(String topic) {
        List<StoreRequests> counts = new ArrayList<>(2);
        Optional.ofNullable(stores.get(topic)).ifPresent(s -> counts.add(s.requests()));
        Optional.ofNullable(snapshotterStores.get(topic)).ifPresent(s -> counts.add(s.requests()));
        return counts;
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
