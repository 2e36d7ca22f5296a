package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.chain.Version;
import dev.mirrorv3.kafka.PartitionWatch;
import dev.mirrorv3.kafka.sink.WatchedSinkConnector;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.connect.connector.Task;
import org.slf4j.LoggerFactory;

/**
 * Copies topics to another Kafka cluster with every record at its source offset, exactly once across restarts
 * (docs/kafka-sink.md). Each partition has one writer at a time (Connect's assignment of the consumer group); {@code tasks.max} tasks
 * share the partitions. Watches the partition counts of its topics: when one grows, adds the same partitions to its
 * destination topic and restarts the tasks, so that new partitions are mirrored with no action.
 */
public class KafkaSinkConnector extends WatchedSinkConnector<KafkaSinkConfig> {
    private final Clock clock;

    public KafkaSinkConnector() {
        this(Clock.systemUTC());
    }

    /** @param clock the time of the group sync passes */
    KafkaSinkConnector(Clock clock) {
        super("kafka-sink", LoggerFactory.getLogger(KafkaSinkConnector.class), KafkaSinkValidation.VALIDATION);
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
    protected KafkaSinkConfig parse(Map<String, String> props) {
        return new KafkaSinkConfig(props);
    }

    @Override
    protected void startConnector(KafkaSinkConfig config, Map<String, String> props, String name) {
        if (config.groupsSync()) {
            KafkaSinkGroupSync groupSync = KafkaSinkGroupSync.start(config, props, name, context, clock);
            onStop(groupSync::close);
        }
    }

    /** Adds the grown source topic's partitions to its destination topic, through an admin client of the destination. */
    @Override
    protected PartitionWatch.Growth growth(KafkaSinkConfig config, String name) {
        Admin destinationAdmin = Admin.create(config.destinationAdminConfig("mirror-v3-kafka-sink-watch-destination-" + name));
        onStop(() -> destinationAdmin.close(Duration.ofSeconds(5)));
        return new DestinationGrowth(destinationAdmin, config.destinationBootstrap(), config.adminTimeout(),
                config::destinationTopic)::grow;
    }

    @Override
    public Class<? extends Task> taskClass() {
        return KafkaSinkTask.class;
    }

    @Override
    protected int taskCount(int maxTasks) {
        return maxTasks;
    }
}
