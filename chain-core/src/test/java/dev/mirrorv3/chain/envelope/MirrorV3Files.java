package dev.mirrorv3.chain.envelope;

import java.io.IOException;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Builds Parquet files the way mirror-v3 writes them, independently of our writer:
 * parquet-mr's example Group writer, the exact Parquet schema, and an {@code ARROW:schema} made by
 * Arrow Java's own IPC serializer.
 */
final class MirrorV3Files {
    private MirrorV3Files() {
    }

    /** [S]: key/value LargeBinary, unannotated BYTE_ARRAY. */
    static final MessageType SNAPSHOT_SCHEMA = parquetSchema("", "");
    /** [L]: key/value Utf8, BYTE_ARRAY (STRING). */
    static final MessageType LATER_SCHEMA = parquetSchema(" (STRING)", " (STRING)");

    /** The Parquet schema of mirror-v3's columns, with the key's and the value's logical type annotations. */
    static MessageType parquetSchema(String keyAnnotation, String valueAnnotation) {
        return MessageTypeParser.parseMessageType("message arrow_schema {\n"
                + "  required binary topic (STRING);\n"
                + "  required int32 partition;\n"
                + "  required int64 offset (INTEGER(64,false));\n"
                + "  optional int64 timestamp_ms;\n"
                + "  required binary timestamp_type (STRING);\n"
                + "  optional binary key" + keyAnnotation + ";\n"
                + "  optional binary value" + valueAnnotation + ";\n"
                + "  required group headers (LIST) {\n"
                + "    repeated group list {\n"
                + "      optional group item {\n"
                + "        required binary key (STRING);\n"
                + "        optional binary value;\n"
                + "      }\n"
                + "    }\n"
                + "  }\n"
                + "}");
    }

    /** The Arrow schema mirror-v3 declares; {@code payload} is the key/value field template. */
    static Schema arrowSchema(ArrowType payloadType, String keyExtension, String valueExtension) {
        Field headerItem = new Field("item", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
                new Field("value", FieldType.nullable(ArrowType.LargeBinary.INSTANCE), null)));
        return new Schema(List.of(
                new Field("topic", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
                new Field("partition", FieldType.notNullable(new ArrowType.Int(32, true)), null),
                new Field("offset", FieldType.notNullable(new ArrowType.Int(64, false)), null),
                new Field("timestamp_ms", FieldType.nullable(new ArrowType.Int(64, true)), null),
                new Field("timestamp_type", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
                payloadField("key", payloadType, keyExtension),
                payloadField("value", payloadType, valueExtension),
                new Field("headers", FieldType.notNullable(ArrowType.List.INSTANCE), List.of(headerItem))));
    }

    private static Field payloadField(String name, ArrowType type, String extension) {
        Map<String, String> md = null;
        if (extension != null) {
            md = new HashMap<>();
            md.put("ARROW:extension:name", extension);
            md.put("ARROW:extension:metadata", "");
        }
        return new Field(name, new FieldType(true, type, null, md), null);
    }

    static String footerValue(Schema schema) {
        return Base64.getEncoder().encodeToString(schema.serializeAsMessage());
    }

    /**
     * Writes {@code records} with the given schema; key/value are stored base64 where {@code base64Payload}
     * (the [L] {@code bytes} variant), otherwise as their bytes.
     */
    static byte[] write(MessageType schema, String arrowSchemaFooter, List<BackupRecord> records,
            boolean base64Payload) throws IOException {
        InMemoryOutputFile file = new InMemoryOutputFile();
        Map<String, String> meta = new HashMap<>();
        if (arrowSchemaFooter != null) {
            meta.put(ArrowSchemaFooter.KEY, arrowSchemaFooter);
        }
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(file)
                .withConf(new PlainParquetConfiguration())
                .withType(schema)
                .withExtraMetaData(meta)
                .withCompressionCodec(CompressionCodecName.ZSTD)
                .build()) {
            for (BackupRecord r : records) {
                Group g = groups.newGroup()
                        .append("topic", r.topic())
                        .append("partition", r.partition())
                        .append("offset", r.offset());
                if (r.timestampMs() != null) {
                    g.append("timestamp_ms", r.timestampMs());
                }
                g.append("timestamp_type", r.timestampType().stored());
                if (r.key() != null) {
                    g.append("key", payload(r.key(), base64Payload));
                }
                if (r.value() != null) {
                    g.append("value", payload(r.value(), base64Payload));
                }
                Group headers = g.addGroup("headers");
                for (RecordHeader h : r.headers()) {
                    Group item = headers.addGroup("list").addGroup("item");
                    item.append("key", h.key());
                    if (h.value() != null) {
                        item.append("value", Binary.fromConstantByteArray(h.value()));
                    }
                }
                w.write(g);
            }
        }
        return file.toByteArray();
    }

    static byte[] write(MessageType schema, String arrowSchemaFooter, List<BackupRecord> records) throws IOException {
        return write(schema, arrowSchemaFooter, records, false);
    }

    private static Binary payload(byte[] bytes, boolean base64) {
        return base64 ? Binary.fromString(Base64.getEncoder().encodeToString(bytes)) : Binary.fromConstantByteArray(bytes);
    }
}
