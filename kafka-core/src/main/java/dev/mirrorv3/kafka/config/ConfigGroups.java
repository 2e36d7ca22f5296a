package dev.mirrorv3.kafka.config;

/**
 * The settings groups more than one connector has, named once, so that the connectors' settings references and
 * Connect's validate output group them alike (a connector's own groups stay in its config).
 */
public final class ConfigGroups {
    /** Where the connector writes: the store of a backup, the destination cluster of a copy. */
    public static final String DESTINATION = "Destination";
    /** The cluster the sinks read from, and its admin client. */
    public static final String SOURCE_CLUSTER = "Source cluster";
    /** Retries, watches and the heartbeat (the heartbeat fragment's own group). */
    public static final String OPERATIONS = HeartbeatConfigFragment.GROUP;

    private ConfigGroups() {
    }
}
