package dev.mirrorv3.kafka.config;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * heartbeat.interval.ms, defined once for the three connectors: one key, default, range, group and doc text, so that
 * the setting reads the same in each connector's table of docs/configuration.md. Its only rule is its range (0 turns the
 * heartbeat off); what each connector's line holds is on its page (docs/blob-sink.md, docs/kafka-sink.md,
 * docs/chain-source.md).
 */
public final class HeartbeatConfigFragment {
    public static final String HEARTBEAT_INTERVAL_MS = "heartbeat.interval.ms";
    /** The group the setting is listed in, in every connector. */
    public static final String GROUP = "Operations";
    static final long DEFAULT_MS = 30_000L;
    static final String DOC = """
            Interval of the per-partition heartbeat log line (the partition's next offset and the records \
            since the last heartbeat; the connector's page lists the rest of the line). The Kafka sink also reads the source's \
            high watermarks for its source-lag metric then. 0 turns it off.""";

    /** heartbeat.interval.ms in the {@link #GROUP} group, after the group's settings added before it. */
    public static final ConfigFragment FRAGMENT = ConfigFragment.settings(GROUP, Setting.of(HEARTBEAT_INTERVAL_MS, Type.LONG, DEFAULT_MS,
            Importance.LOW, Width.SHORT, "Heartbeat interval (ms)", DOC).withValidator(ConfigDef.Range.atLeast(0)));

    private HeartbeatConfigFragment() {
    }

    /** The interval of a config that defines the setting; 0 when the heartbeat is off. */
    public static long intervalMs(AbstractConfig config) {
        return config.getLong(HEARTBEAT_INTERVAL_MS);
    }
}
