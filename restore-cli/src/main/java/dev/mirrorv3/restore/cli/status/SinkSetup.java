package dev.mirrorv3.restore.cli.status;

import dev.mirrorv3.kafka.config.TopicsSetting;
import dev.mirrorv3.restore.cli.ConnectorConfig;
import dev.mirrorv3.restore.cli.ConnectorKind;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigException;

/**
 * A sink's topics and its config as its own config class reads it, or the one row that says why status cannot show
 * the sink (topics.regex, or a config the connector would reject).
 */
record SinkSetup<T>(List<String> topics, T config, StatusRow failed) {

    static <T> SinkSetup<T> of(ConnectorKind kind, ConnectorConfig c, Function<Map<String, String>, T> configClass) {
        List<String> topics = TopicsSetting.listed(c.settings());
        if (topics.isEmpty()) {
            return new SinkSetup<>(topics, null, StatusRow.noTopics(kind, c.name()));
        }
        try {
            return new SinkSetup<>(topics, configClass.apply(c.settings()), null);
        } catch (ConfigException e) {
            return new SinkSetup<>(topics, null, StatusRow.invalidConfig(kind, c.name(), e));
        }
    }
}
