package dev.mirrorv3.kafka.config;

import dev.mirrorv3.kafka.FailureVerdict;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;

/**
 * The typed view of the settings every connector takes from the fragments (admin.timeout.ms, the retry backoff pair,
 * heartbeat.interval.ms, groups.interval.ms), read once here instead of in each connector's config; a connector's config
 * adds the reads of its own keys.
 */
public abstract class SharedConnectorConfig extends AbstractConfig {
    /** The settings of a connector made of {@code fragments}, its former setting names read under their current ones. */
    protected SharedConnectorConfig(ConfigFragments fragments, Map<?, ?> props) {
        super(fragments.configDef(), fragments.translate(props));
    }

    public final Duration adminTimeout() {
        return Duration.ofMillis(getLong(ConnectorConfigFragment.ADMIN_TIMEOUT_MS));
    }

    public final long retryBackoffInitialMs() {
        return getLong(ConnectorConfigFragment.RETRY_BACKOFF_INITIAL_MS);
    }

    /** retry.backoff.max.ms, or the initial delay when that is larger ({@link ConnectorConfigFragment#retryBackoffMaxMs}). */
    public final long retryBackoffMaxMs() {
        return ConnectorConfigFragment.retryBackoffMaxMs(this);
    }

    /** partition.failure: isolate a partition's failure, or fail the task with it. */
    public final FailureVerdict.Isolation partitionFailure() {
        return FailureVerdict.Isolation.fromConfig(getString(ConnectorConfigFragment.PARTITION_FAILURE));
    }

    /** partition.retry.max.ms, at least the initial retry delay. */
    public final long partitionRetryMaxMs() {
        return Math.max(retryBackoffInitialMs(), getLong(ConnectorConfigFragment.PARTITION_RETRY_MAX_MS));
    }

    /** 0 when the heartbeat is off. */
    public final long heartbeatIntervalMs() {
        return HeartbeatConfigFragment.intervalMs(this);
    }

    /** 0 when the connector's groups job (snapshots or sync) is off. */
    public final long groupsIntervalMs() {
        return GroupSyncConfigFragment.intervalMs(this);
    }
}
