package dev.mirrorv3.kafka.config;

import java.util.Map;

/**
 * The typed view of a connector that reads a source cluster's topics and watches their partition counts (the blob sink,
 * the Kafka sink): the source cluster's admin client ({@link ConnectorConfigFragment#sourceAdmin}) and
 * partitions.watch.interval.ms ({@link ConnectorConfigFragment#partitionsWatch}), on top of {@link SharedConnectorConfig}.
 */
public abstract class WatchedConnectorConfig extends SharedConnectorConfig {
    protected WatchedConnectorConfig(ConfigFragments fragments, Map<?, ?> props) {
        super(fragments, props);
    }

    /** Admin client settings of the source: everything under source.admin., bootstrap defaulting to the consumer override. */
    public final Map<String, Object> sourceAdminConfig(String clientId) {
        return ConnectorConfigFragment.sourceAdminConfig(this, clientId);
    }

    public final long partitionsWatchIntervalMs() {
        return getLong(ConnectorConfigFragment.PARTITIONS_WATCH_INTERVAL_MS);
    }
}
