package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.Version;
import dev.mirrorv3.kafka.PartitionWatch;
import dev.mirrorv3.kafka.config.TopicsSetting;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backs up topic partitions to chains of objects, exactly once (docs/blob-sink.md). One task, whatever tasks.max says:
 * one writer per partition; scale with more connectors (per topic or per set of partitions). Watches the partition
 * counts of its topics and restarts the task when one grows, so that new partitions are backed up with no action.
 */
public class BlobSinkConnector extends SinkConnector {
    private static final Logger log = LoggerFactory.getLogger(BlobSinkConnector.class);

    private Map<String, String> props;
    private PartitionWatch watch;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        this.props = new HashMap<>(props);
        BlobSinkConfig config = new BlobSinkConfig(props); // fail fast on single-field errors
        List<String> topics = TopicsSetting.listed(props);
        String name = props.getOrDefault("name", "blob-sink");
        if (topics.isEmpty()) {
            log.info("{}: partition counts are watched only with 'topics', not with topics.regex", name);
            return;
        }
        Admin admin = Admin.create(config.sourceAdminConfig("mirror-v3-blob-sink-watch-" + name));
        watch = new PartitionWatch(admin, topics, config.partitionsWatchIntervalMs(), config.adminTimeout(), name,
                (before, now) -> { }, context::requestTaskReconfiguration);
        watch.start();
    }

    @Override
    public Class<? extends Task> taskClass() {
        return BlobSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        Map<String, String> c = new HashMap<>(props);
        if (watch != null) {
            c.put(PartitionWatch.TASK_CONFIG, PartitionWatch.format(watch.counts())); // differs after growth: Connect restarts the task
            c.put(PartitionWatch.TASK_CONFIG_IDS, PartitionWatch.format(watch.ids())); // differs after a re-creation
        }
        return List.of(c);
    }

    @Override
    public void stop() {
        if (watch != null) {
            watch.close();
            watch = null;
        }
    }

    @Override
    public ConfigDef config() {
        return BlobSinkConfig.CONFIG_DEF;
    }

    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        return new BlobSinkConfigValidator(connectorConfigs, super.validate(connectorConfigs), false).validate();
    }
}
