package dev.mirrorv3.connect.blob;

import dev.mirrorv3.kafka.LogOffsets;

/**
 * The task's periodic passes on threads of their own, each off unless its interval is set: the source-lag refresh
 * ({@link SourceLagRefresher}, source.lag.interval.ms with metrics on) and the topics' and groups' snapshots
 * ({@link MetaSnapshotter}, metadata.interval.ms and groups.interval.ms). A slow source cluster or store delays them,
 * never {@code put()}.
 */
final class BackgroundPasses implements AutoCloseable {
    private final SourceLagRefresher lagRefresher;
    private final MetaSnapshotter metaSnapshotter;
    private final boolean topicSnapshots;
    private final TaskStores stores;

    /** @param metaSnapshotter scheduled already; null when both of its intervals are 0 */
    BackgroundPasses(BlobSinkConfig config, String mirror, LogOffsets sourceOffsets, BlobSinkMetrics metrics,
                     MetaSnapshotter metaSnapshotter, TaskStores stores) {
        this.lagRefresher = metrics.enabled() && config.sourceLagIntervalMs() > 0
                ? new SourceLagRefresher(sourceOffsets, metrics, mirror, config.sourceLagIntervalMs()) : null;
        this.metaSnapshotter = metaSnapshotter;
        this.topicSnapshots = config.metadataIntervalMs() > 0;
        this.stores = stores;
    }

    /** Where durable offsets go: the group snapshots carry them (none read them without a snapshotter). */
    DurableOffsets durableOffsets() {
        return metaSnapshotter == null ? new DurableOffsets() : metaSnapshotter.durableOffsets();
    }

    /** Partitions were positioned: their lag and their topics' metadata are known, so both passes run soon. */
    void positioned() {
        if (lagRefresher != null) {
            lagRefresher.refreshSoon();
        }
        if (metaSnapshotter != null) {
            metaSnapshotter.topicsSoon(topicSnapshots);
        }
    }

    @Override
    public void close() {
        if (lagRefresher != null) {
            lagRefresher.close();
        }
        if (metaSnapshotter != null) {
            metaSnapshotter.close(); // before the admin client and the stores it uses
        }
        stores.closeSnapshotterStores();
    }
}
