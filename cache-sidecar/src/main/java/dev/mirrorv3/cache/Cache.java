package dev.mirrorv3.cache;

import dev.mirrorv3.cache.config.CacheConfig;
import dev.mirrorv3.cache.notify.Notifier;
import dev.mirrorv3.cache.store.KeyValueStore;
import dev.mirrorv3.cache.store.MemoryBudget;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One named cache: its key → value store, the progress of its partitions and its readiness. The consumer thread
 * writes; HTTP threads read.
 */
public final class Cache {

    private final CacheConfig config;
    private final KeyValueStore store;
    private volatile Notifier notifier;
    private volatile Map<Integer, PartitionState> partitions = Map.of();
    private volatile List<PartitionState> partitionList = List.of();
    private volatile boolean ready;
    private volatile String offsetsHeader = "[]";
    private volatile String memoryExceeded;

    /** @param budget the sidecar's memory budget, shared by its caches' stores */
    public Cache(CacheConfig config, MemoryBudget budget) {
        this.config = config;
        this.store = new KeyValueStore(budget);
    }

    public String name() {
        return config.name();
    }

    public String topic() {
        return config.topic();
    }

    public CacheConfig config() {
        return config;
    }

    public KeyValueStore store() {
        return store;
    }

    /** Caught up to the high watermark seen at startup; sticky: once true, never false again. */
    public boolean ready() {
        return ready;
    }

    /** Why this cache stopped reading: its store would exceed the memory budget; null while it fits. */
    public String memoryExceeded() {
        return memoryExceeded;
    }

    void memoryExceeded(String message) {
        this.memoryExceeded = message;
    }

    public boolean assigned() {
        return !partitionList.isEmpty();
    }

    /** Assigned partitions in partition order; empty before assignment. */
    public List<PartitionState> partitions() {
        return partitionList;
    }

    public PartitionState partition(int partition) {
        return partitions.get(partition);
    }

    /** The {@code x-kkv-last-seen-offsets} value, e.g. {@code [{"offset":17,"partition":0,"topic":"t"}]}. */
    public String offsetsHeader() {
        return offsetsHeader;
    }

    Notifier notifier() {
        return notifier;
    }

    void notifier(Notifier n) {
        this.notifier = n;
    }

    void assigned(List<PartitionState> states) {
        this.partitions = states.stream().collect(Collectors.toUnmodifiableMap(PartitionState::partition,
                Function.identity()));
        this.partitionList = List.copyOf(states);
        publishOffsets();
    }

    /** Recomputes the header and readiness after a poll (consumer thread). Returns true when it just became ready. */
    boolean publishOffsets() {
        StringBuilder sb = new StringBuilder(32 * partitionList.size() + 2).append('[');
        for (PartitionState p : partitionList) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append("{\"offset\":").append(p.lastSeenOffset()).append(",\"partition\":").append(p.partition())
                    .append(",\"topic\":");
            Json.appendString(sb, config.topic());
            sb.append('}');
        }
        offsetsHeader = sb.append(']').toString();
        if (!ready && !partitionList.isEmpty() && partitionList.stream().allMatch(PartitionState::caughtUp)) {
            ready = true;
            return true;
        }
        return false;
    }
}
