package dev.mirrorv3.restore.cli.status;

import static dev.mirrorv3.restore.cli.status.StatusRow.Column.number;
import static dev.mirrorv3.restore.cli.status.StatusRow.Column.text;

import dev.mirrorv3.connect.kafka.KafkaSinkConfig;
import dev.mirrorv3.restore.cli.ClientConfigs;
import dev.mirrorv3.restore.cli.ConnectorConfig;
import dev.mirrorv3.restore.cli.ConnectorKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Kafka sink rows: per source partition, the source's and the destination's high watermarks and the lag between them
 * (the copy keeps the source's offsets, so the destination's high watermark is the next offset to copy). Both admin
 * clients are built as the connector builds them ({@link KafkaSinkConfig}: source.admin.*, destination.* security).
 */
final class KafkaSinkStatus extends SinkStatus<KafkaSinkConfig> {
    static final List<StatusRow.Column> COLUMNS = List.of(text("TOPIC", "topic"), number("PARTITION", "partition"),
            number("SOURCE_HWM", "source_high_watermark"), text("DEST_TOPIC", "destination_topic"),
            number("DEST_HWM", "destination_high_watermark"), number("LAG", "lag"));

    KafkaSinkStatus() {
        super(new Sink<>(ConnectorKind.KAFKA_SINK, KafkaSinkConfig::new, KafkaSinkConfig::sourceAdminConfig, COLUMNS));
    }

    @Override
    List<StatusRow> rows(ConnectorConfig c, KafkaSinkConfig parsed, List<String> topics, ClusterOffsets source, Context context) {
        List<StatusRow> rows = new ArrayList<>();
        try (ClusterOffsets destination = new ClusterOffsets("destination cluster", parsed.destinationAdminConfig(ClientConfigs.STATUS_ID),
                     context.timeout())) {
            for (String topic : topics) {
                String destTopic = parsed.destinationTopic(topic);
                rows.addAll(topicRows(c.name(), topic, destTopic, source.topic(topic), destination.topic(destTopic)));
            }
        }
        return rows;
    }

    private static List<StatusRow> topicRows(String connector, String topic, String destTopic, ClusterOffsets.TopicOffsets source,
            ClusterOffsets.TopicOffsets dest) {
        int n = Math.max(source.partitions(), dest.partitions());
        if (n <= 0) {
            return List.of(row(connector, topic, null, null, destTopic, null, StatusRow.errors(source.error(), dest.error())));
        }
        List<StatusRow> rows = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            String notInSource = source.error() == null && p >= source.partitions()
                    ? "partition " + p + " is not in the source topic" : null;
            String notInDest = dest.error() == null && p >= dest.partitions() ? "destination topic " + destTopic + " has "
                    + dest.partitions() + " partitions, so partition " + p + " cannot be copied: add partitions to it" : null;
            rows.add(row(connector, topic, p, source.highWatermarks().get(p), destTopic, dest.highWatermarks().get(p),
                    StatusRow.errors(source.error(), dest.error(), notInSource, notInDest)));
        }
        return rows;
    }

    private static StatusRow row(String connector, String topic, Integer partition, Long sourceHwm, String destTopic, Long destHwm,
            String error) {
        return new StatusRow(ConnectorKind.KAFKA_SINK, connector,
                StatusRow.values(COLUMNS, topic, partition, sourceHwm, destTopic, destHwm, StatusRow.lag(sourceHwm, destHwm)), error);
    }
}
