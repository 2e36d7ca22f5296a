package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.config.GroupSyncConfigFragment;
import dev.mirrorv3.kafka.config.TopicsSetting;
import dev.mirrorv3.kafka.groupsync.GroupOffsetSync;
import dev.mirrorv3.kafka.groupsync.GroupSyncMetrics;
import dev.mirrorv3.kafka.groupsync.KafkaGroupOrigin;
import dev.mirrorv3.kafka.groupsync.RunningGroupSync;
import dev.mirrorv3.kafka.metrics.PluginMetricsRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.connect.connector.ConnectorContext;

/**
 * The Kafka sink's consumer-group sync (groups.sync): one per connector, run by the connector (not a task) on its own
 * thread with its own admin clients, so it never slows put() and runs once however many tasks there are. The origin is
 * the source cluster; the standby is the destination, whose partitions carry the same offsets. A source topic deleted
 * and created again is left out ({@link RecreatedTopicGate}): its offsets belong to another topic.
 */
final class KafkaSinkGroupSync implements AutoCloseable {
    private final RunningGroupSync running;

    private KafkaSinkGroupSync(RunningGroupSync running) {
        this.running = running;
    }

    static KafkaSinkGroupSync start(KafkaSinkConfig config, Map<String, String> props, String name, ConnectorContext context,
                                    Clock clock) {
        Admin source = Admin.create(config.sourceAdminConfig("mirror-v3-kafka-sink-groups-" + name));
        Admin destination = Admin.create(config.destinationAdminConfig("mirror-v3-kafka-sink-groups-destination-" + name));
        // The connector's own group positions the connector, not an application.
        String ownGroup = props.getOrDefault("consumer.override.group.id", "connect-" + name);
        SourceIdentity identity = new SourceIdentity(source, destination,
                IdentityTopic.of(config, destination, "mirror-v3-kafka-sink-groups-identity-" + name), SourceIdentity.legacyGroupId(name),
                config.destinationBootstrap(), config.adminTimeout());
        RecreatedTopicGate gate = new RecreatedTopicGate(identity, config::destinationTopic, name);
        GroupOffsetSync sync = new GroupOffsetSync(new KafkaGroupOrigin(source, config.adminTimeout(), mirrored(props),
                config::destinationTopic, gate),
                GroupSyncConfigFragment.selection(config, List.of(ownGroup)), destination, "destination " + config.destinationBootstrap(),
                null, new GroupOffsetSync.Settings(name, config.adminTimeout(), clock));
        GroupSyncMetrics metrics = new GroupSyncMetrics(PluginMetricsRegistry.open(() -> context.pluginMetrics(), name), sync,
                config.groupsIntervalMs());
        return new KafkaSinkGroupSync(RunningGroupSync.start(sync, metrics, config.groupsIntervalMs(),
                () -> source.close(Duration.ofSeconds(5)), () -> destination.close(Duration.ofSeconds(5))));
    }

    /** The source topics the connector mirrors: its {@code topics} (topics.regex is refused at start). */
    static Predicate<String> mirrored(Map<String, String> props) {
        Set<String> topics = Set.copyOf(TopicsSetting.listed(props));
        return topics::contains;
    }

    @Override
    public void close() {
        running.close();
    }
}
