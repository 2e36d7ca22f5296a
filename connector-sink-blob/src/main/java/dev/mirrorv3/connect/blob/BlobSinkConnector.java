package dev.mirrorv3.connect.blob;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * Backs up topic partitions to chains of objects, exactly once (SPEC §4). One task, whatever tasks.max says:
 * one writer per partition; scale with more connectors (per topic or per set of partitions).
 */
public class BlobSinkConnector extends SinkConnector {
    private Map<String, String> props;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        this.props = new HashMap<>(props);
        new BlobSinkConfig(props); // fail fast on single-field errors
    }

    @Override
    public Class<? extends Task> taskClass() {
        return BlobSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        return List.of(new HashMap<>(props));
    }

    @Override
    public void stop() {
        // nothing held
    }

    @Override
    public ConfigDef config() {
        return BlobSinkConfig.CONFIG_DEF;
    }

    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        return new BlobSinkConfigValidator(connectorConfigs, super.validate(connectorConfigs)).validate();
    }
}
