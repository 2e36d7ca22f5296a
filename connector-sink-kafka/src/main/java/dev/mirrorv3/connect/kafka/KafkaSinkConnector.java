package dev.mirrorv3.connect.kafka;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * Copies topics to another Kafka cluster with every record at its source offset, exactly once across restarts (SPEC
 * §5). Each partition has one writer at a time (Connect's assignment of the consumer group); {@code tasks.max} tasks
 * share the partitions.
 */
public class KafkaSinkConnector extends SinkConnector {
    private Map<String, String> props;

    static String versionString() {
        String v = KafkaSinkConnector.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    @Override
    public String version() {
        return versionString();
    }

    @Override
    public void start(Map<String, String> props) {
        this.props = new HashMap<>(props);
        new KafkaSinkConfig(props); // fail fast on single-field errors
    }

    @Override
    public Class<? extends Task> taskClass() {
        return KafkaSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int i = 0; i < maxTasks; i++) {
            configs.add(new HashMap<>(props));
        }
        return configs;
    }

    @Override
    public void stop() {
        // nothing held
    }

    @Override
    public ConfigDef config() {
        return KafkaSinkConfig.CONFIG_DEF;
    }

    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        return new KafkaSinkConfigValidator(connectorConfigs, super.validate(connectorConfigs)).validate();
    }
}
