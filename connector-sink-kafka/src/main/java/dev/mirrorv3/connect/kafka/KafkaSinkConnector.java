package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.chain.Version;
import dev.mirrorv3.kafka.PartitionWatch;
import dev.mirrorv3.kafka.config.TopicsSetting;
import java.time.Clock;
import java.util.ArrayList;
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
 * Copies topics to another Kafka cluster with every record at its source offset, exactly once across restarts
 * (docs/kafka-sink.md). Each partition has one writer at a time (Connect's assignment of the consumer group); {@code tasks.max} tasks
 * share the partitions. Watches the partition counts of its topics: when one grows, adds the same partitions to its
 * destination topic and restarts the tasks, so that new partitions are mirrored with no action.
 */
public class KafkaSinkConnector extends SinkConnector {
    private static final Logger log = LoggerFactory.getLogger(KafkaSinkConnector.class);

    private Map<String, String> props;
    private PartitionWatch watch;
    private Admin destinationAdmin;
    private KafkaSinkGroupSync groupSync;
    private final Clock clock;

    public KafkaSinkConnector() {
        this(Clock.systemUTC());
    }

    /** @param clock the time of the group sync passes */
    KafkaSinkConnector(Clock clock) {
        this.clock = clock;
    }

    /** {@link Version#get()}, for the task. */
    static String versionString() {
        return Version.get();
    }

    @Override
    public String version() {
        return versionString();
    }

    @Override
    public void start(Map<String, String> props) {
        this.props = new HashMap<>(props);
        KafkaSinkConfig config = new KafkaSinkConfig(props); // fail fast on single-field errors
        List<String> topics = TopicsSetting.listed(props);
        String name = props.getOrDefault("name", "kafka-sink");
        if (config.groupsSync()) {
            groupSync = KafkaSinkGroupSync.start(config, props, name, context, clock);
        }
        if (topics.isEmpty()) {
            log.info("{}: partition counts are watched only with 'topics', not with topics.regex", name);
            return;
        }
        destinationAdmin = Admin.create(config.destinationAdminConfig("mirror-v3-kafka-sink-watch-destination-" + name));
        DestinationGrowth growth = new DestinationGrowth(destinationAdmin, config.destinationBootstrap(), config.adminTimeout(),
                config::destinationTopic);
        watch = new PartitionWatch(Admin.create(config.sourceAdminConfig("mirror-v3-kafka-sink-watch-" + name)), topics,
                config.partitionsWatchIntervalMs(), config.adminTimeout(), name, growth::grow, context::requestTaskReconfiguration);
        watch.start();
    }

    @Override
    public Class<? extends Task> taskClass() {
        return KafkaSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int i = 0; i < maxTasks; i++) {
            Map<String, String> c = new HashMap<>(props);
            if (watch != null) {
                // differs after growth: Connect restarts the tasks
                c.put(PartitionWatch.TASK_CONFIG, PartitionWatch.format(watch.counts()));
                c.put(PartitionWatch.TASK_CONFIG_IDS, PartitionWatch.format(watch.ids())); // differs after a re-creation
            }
            configs.add(c);
        }
        return configs;
    }

    @Override
    public void stop() {
        if (groupSync != null) {
            groupSync.close();
            groupSync = null;
        }
        if (watch != null) {
            watch.close();
            watch = null;
        }
        if (destinationAdmin != null) {
            destinationAdmin.close(java.time.Duration.ofSeconds(5));
            destinationAdmin = null;
        }
    }

    @Override
    public ConfigDef config() {
        return KafkaSinkConfig.CONFIG_DEF;
    }

    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        return new KafkaSinkConfigValidator(connectorConfigs, super.validate(connectorConfigs), false).validate();
    }
}
