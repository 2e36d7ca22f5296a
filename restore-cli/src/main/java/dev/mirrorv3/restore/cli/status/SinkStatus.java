package dev.mirrorv3.restore.cli.status;

import dev.mirrorv3.kafka.config.TopicsSetting;
import dev.mirrorv3.restore.cli.ClientConfigs;
import dev.mirrorv3.restore.cli.ConnectorConfig;
import dev.mirrorv3.restore.cli.ConnectorKind;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;

/**
 * The rows of a sink: its topics, its config as its own config class reads it and its source cluster as that class
 * builds the connector's admin client, or the one row that says why status cannot show the sink (topics.regex, or a
 * config the connector would reject).
 */
abstract class SinkStatus<T> implements StatusReader {
    /**
     * A sink class as status reads it.
     *
     * @param sourceAdminConfig the config class's source admin client settings with a client id
     */
    record Sink<T>(ConnectorKind kind, Function<Map<String, String>, T> configClass,
            BiFunction<T, String, Map<String, Object>> sourceAdminConfig, List<StatusRow.Column> columns) {
    }

    private final Sink<T> sink;

    SinkStatus(Sink<T> sink) {
        this.sink = sink;
    }

    @Override
    public final List<StatusRow.Column> columns() {
        return sink.columns();
    }

    @Override
    public final List<StatusRow> rows(ConnectorConfig c, Context context) {
        List<String> topics = TopicsSetting.listed(c.settings());
        if (topics.isEmpty()) {
            return List.of(StatusRow.noTopics(sink.kind(), c.name()));
        }
        T config;
        try {
            config = sink.configClass().apply(c.settings());
        } catch (ConfigException e) {
            return List.of(StatusRow.invalidConfig(sink.kind(), c.name(), e));
        }
        try (ClusterOffsets source = new ClusterOffsets("source cluster",
                context.sourceAdmin(sink.sourceAdminConfig().apply(config, ClientConfigs.STATUS_ID)), context.timeout())) {
            ClusterOffsets.Notes failed = source.failureNotes(groupId(c));
            return rows(c, config, topics, source, context).stream().map(r -> withFailure(r, failed)).toList();
        }
    }

    /** The sink's consumer group: Connect's connect-{@code <name>}, or consumer.override.group.id. */
    private static String groupId(ConnectorConfig c) {
        return c.settings().getOrDefault("consumer.override.group.id", "connect-" + c.name());
    }

    /**
     * A partition's row with its failure added: the task notes a failed partition in the metadata of the offset it
     * commits for it (docs/operations.md, "A failed partition").
     */
    private static StatusRow withFailure(StatusRow r, ClusterOffsets.Notes failed) {
        Object topic = r.values().get("topic");
        Object partition = r.values().get("partition");
        if (topic == null || partition == null) {
            return r;
        }
        return new StatusRow(r.kind(), r.connector(), r.values(), failed.addTo(r.error(),
                new TopicPartition(topic.toString(), ((Number) partition).intValue())));
    }

    /** The rows of the sink's topics, its source cluster open. */
    abstract List<StatusRow> rows(ConnectorConfig c, T config, List<String> topics, ClusterOffsets source, Context context);
}
