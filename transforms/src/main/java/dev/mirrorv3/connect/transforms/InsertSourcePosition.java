package dev.mirrorv3.connect.transforms;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Adds headers with the record's source topic, partition, offset and timestamp, so a renumbered restore or a copy
 * keeps its provenance. For a sink record these are Connect's original coordinates (before any other SMT renamed
 * the topic); for a source record, the topic, partition and offset in its source partition and offset maps (the
 * convention of MirrorMaker 2: keys {@code topic}, {@code partition}, {@code offset}), falling back to the record's
 * own topic and partition.
 */
public class InsertSourcePosition<R extends ConnectRecord<R>> extends MirrorTransformation<R> {
    public static final String OVERVIEW_DOC = "Adds headers with the record's source topic, partition, offset and timestamp"
            + " (decimal text; timestamp in epoch milliseconds), so a renumbered restore or a copy keeps its provenance.";

    public static final String FIELDS = "fields";
    public static final String TOPIC_HEADER = "topic.header";
    public static final String PARTITION_HEADER = "partition.header";
    public static final String OFFSET_HEADER = "offset.header";
    public static final String TIMESTAMP_HEADER = "timestamp.header";
    public static final String HEADER_TYPE = "header.type";
    private static final List<String> ALL_FIELDS = List.of("topic", "partition", "offset", "timestamp");
    private static final String GROUP = "InsertSourcePosition";

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(FIELDS, ConfigDef.Type.LIST, String.join(",", ALL_FIELDS), new FieldsValidator(),
                    ConfigDef.Importance.MEDIUM, "Which headers to add, any of topic, partition, offset, timestamp"
                            + " (comma-separated). A field the record does not have (a null timestamp, a source record"
                            + " without an offset) adds no header.", GROUP, 1, ConfigDef.Width.MEDIUM, "Fields")
            .define(TOPIC_HEADER, ConfigDef.Type.STRING, "mirror-v3.source.topic", new ConfigDef.NonEmptyString(),
                    ConfigDef.Importance.LOW, "Name of the source topic header.", GROUP, 2, ConfigDef.Width.MEDIUM, "Topic header")
            .define(PARTITION_HEADER, ConfigDef.Type.STRING, "mirror-v3.source.partition", new ConfigDef.NonEmptyString(),
                    ConfigDef.Importance.LOW, "Name of the source partition header.", GROUP, 3, ConfigDef.Width.MEDIUM, "Partition header")
            .define(OFFSET_HEADER, ConfigDef.Type.STRING, "mirror-v3.source.offset", new ConfigDef.NonEmptyString(),
                    ConfigDef.Importance.LOW, "Name of the source offset header.", GROUP, 4, ConfigDef.Width.MEDIUM, "Offset header")
            .define(TIMESTAMP_HEADER, ConfigDef.Type.STRING, "mirror-v3.source.timestamp", new ConfigDef.NonEmptyString(),
                    ConfigDef.Importance.LOW, "Name of the source timestamp header (epoch milliseconds).", GROUP, 5,
                    ConfigDef.Width.MEDIUM, "Timestamp header")
            .define(HEADER_TYPE, ConfigDef.Type.STRING, "string", ConfigDef.ValidString.in("string", "bytes"),
                    ConfigDef.Importance.LOW, "How header values are typed: 'string' (Connect STRING; for SimpleHeaderConverter"
                            + " or StringConverter) or 'bytes' (the same text as UTF-8 bytes; for ByteArrayConverter).",
                    GROUP, 6, ConfigDef.Width.SHORT, "Header type");

    private boolean topic;
    private boolean partition;
    private boolean offset;
    private boolean timestamp;
    private String topicHeader;
    private String partitionHeader;
    private String offsetHeader;
    private String timestampHeader;
    private boolean bytes;

    public InsertSourcePosition() {
        super(CONFIG_DEF);
    }

    @Override
    protected void configure(AbstractConfig config) {
        List<String> fields = config.getList(FIELDS);
        topic = fields.contains("topic");
        partition = fields.contains("partition");
        offset = fields.contains("offset");
        timestamp = fields.contains("timestamp");
        topicHeader = config.getString(TOPIC_HEADER);
        partitionHeader = config.getString(PARTITION_HEADER);
        offsetHeader = config.getString(OFFSET_HEADER);
        timestampHeader = config.getString(TIMESTAMP_HEADER);
        bytes = "bytes".equals(config.getString(HEADER_TYPE));
    }

    @Override
    public R apply(R record) {
        String srcTopic = record.topic();
        Integer srcPartition = record.kafkaPartition();
        Long srcOffset = null;
        if (record instanceof SinkRecord sr) {
            srcTopic = sr.originalTopic();
            srcPartition = sr.originalKafkaPartition();
            srcOffset = sr.originalKafkaOffset();
        } else if (record instanceof SourceRecord sr) {
            Map<String, ?> sp = sr.sourcePartition();
            Map<String, ?> so = sr.sourceOffset();
            if (sp != null && sp.get("topic") instanceof String t) {
                srcTopic = t;
            }
            if (sp != null && sp.get("partition") instanceof Number p) {
                srcPartition = p.intValue();
            }
            if (so != null && so.get("offset") instanceof Number o) {
                srcOffset = o.longValue();
            }
        }
        Headers headers = record.headers().duplicate();
        if (topic && srcTopic != null) {
            put(headers, topicHeader, srcTopic);
        }
        if (partition && srcPartition != null) {
            put(headers, partitionHeader, srcPartition.toString());
        }
        if (offset && srcOffset != null) {
            put(headers, offsetHeader, srcOffset.toString());
        }
        if (timestamp && record.timestamp() != null) {
            put(headers, timestampHeader, record.timestamp().toString());
        }
        return record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(),
                record.valueSchema(), record.value(), record.timestamp(), headers);
    }

    private void put(Headers headers, String name, String text) {
        headers.remove(name); // one value per header: a copy of a copy keeps the first hop's position replaced, not doubled
        if (bytes) {
            headers.add(name, text.getBytes(StandardCharsets.UTF_8), Schema.BYTES_SCHEMA);
        } else {
            headers.add(name, text, Schema.STRING_SCHEMA);
        }
    }

    /** Accepts a non-empty subset of topic, partition, offset, timestamp. */
    static final class FieldsValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            @SuppressWarnings("unchecked")
            List<String> fields = (List<String>) value;
            if (fields == null || fields.isEmpty()) {
                throw new ConfigException(name, value, "name at least one of " + ALL_FIELDS);
            }
            for (String f : fields) {
                if (!ALL_FIELDS.contains(f)) {
                    throw new ConfigException(name, value, "unknown field '" + f + "'; use any of " + ALL_FIELDS);
                }
            }
        }

        @Override
        public String toString() {
            return "any of topic, partition, offset, timestamp";
        }
    }
}
