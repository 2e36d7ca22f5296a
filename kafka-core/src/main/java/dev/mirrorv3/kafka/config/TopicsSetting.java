package dev.mirrorv3.kafka.config;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A sink connector's {@code topics} setting read as a list, the one way every connector, validator and CLI command
 * reads it: comma-separated names, trimmed, empty entries skipped (as Connect's {@code SinkConnectorConfig} reads it);
 * empty when it is unset (with {@code topics.regex}). Whether the names are legal is {@link ConnectorLevelRules}' check.
 */
public final class TopicsSetting {
    public static final String TOPICS = "topics";

    private TopicsSetting() {
    }

    /** The topics listed in a connector's settings. */
    public static List<String> listed(Map<String, String> connectorProps) {
        return parse(connectorProps.getOrDefault(TOPICS, ""));
    }

    /** The topics of a {@code topics} value (null: none). */
    public static List<String> parse(String value) {
        if (value == null) {
            return List.of();
        }
        return Arrays.stream(value.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList();
    }
}
