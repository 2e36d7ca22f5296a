package dev.mirrorv3.chain.envelope;

import static dev.mirrorv3.chain.envelope.Samples.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

/** Our reader decodes both of mirror-v3's Parquet variants, built independently of our writer. */
class MirrorV3VariantsTest {
    private final EnvelopeCodec codec = EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes());
    private final List<BackupRecord> records = withBinaryPayloads();

    private static List<BackupRecord> withBinaryPayloads() {
        List<BackupRecord> r = new java.util.ArrayList<>(Samples.edgeCases());
        r.add(new BackupRecord("orders", 3, 20, 5L, TimestampType.CREATE_TIME,
                new byte[] {(byte) 0xFF, 0, (byte) 0xC0}, new byte[0], List.of(new RecordHeader("b", new byte[] {(byte) 0x80}))));
        return r;
    }

    /** The Arrow schema footer of the later variant with keys and values both tagged mirror_v3.bytes_base64. */
    private static String base64TaggedFooter() {
        return MirrorV3Files.footerValue(MirrorV3Files.arrowSchema(ArrowType.Utf8.INSTANCE,
                ArrowSchemaFooter.BYTES_BASE64_EXTENSION, ArrowSchemaFooter.BYTES_BASE64_EXTENSION));
    }

    /** Writes the records as mirror-v3 does, in this Parquet schema and with this footer, and reads them all back as they were. */
    private void assertWrittenAndDecoded(MessageType schema, String footer, List<BackupRecord> written, String objectName)
            throws IOException {
        byte[] file = MirrorV3Files.write(schema, footer, written);

        assertThat(codec.decode(file, objectName)).containsExactlyElementsOf(written);
    }

    @Test
    void snapshotVariantLargeBinaryWithArrowSchema() throws IOException {
        String footer = MirrorV3Files.footerValue(MirrorV3Files.arrowSchema(ArrowType.LargeBinary.INSTANCE, null, null));
        assertWrittenAndDecoded(MirrorV3Files.SNAPSHOT_SCHEMA, footer, records, "s.parquet");
    }

    @Test
    void snapshotVariantWithoutArrowSchemaIsRawBytes() throws IOException {
        assertWrittenAndDecoded(MirrorV3Files.SNAPSHOT_SCHEMA, null, records, "s.parquet");
    }

    @Test
    void laterVariantBase64TaggedBytesAreDecoded() throws IOException {
        String footer = base64TaggedFooter();
        byte[] file = MirrorV3Files.write(MirrorV3Files.LATER_SCHEMA, footer, records, true);

        assertThat(codec.decode(file, "l.parquet")).containsExactlyElementsOf(records);
        // Whatever the reader's own settings say.
        EnvelopeCodec jsonReader = EnvelopeCodecs.forSettings(
                new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.SNAPPY, ValueType.JSON, ValueType.UTF8));
        assertThat(jsonReader.decode(file, "l.parquet")).containsExactlyElementsOf(records);
    }

    @Test
    void laterVariantMixedTagsDecodePerColumn() throws IOException {
        // keys base64-tagged, values arrow.json (verbatim text)
        String footer = MirrorV3Files.footerValue(MirrorV3Files.arrowSchema(ArrowType.Utf8.INSTANCE,
                ArrowSchemaFooter.BYTES_BASE64_EXTENSION, ArrowSchemaFooter.JSON_EXTENSION));
        BackupRecord r = new BackupRecord("t", 0, 1, 1L, TimestampType.CREATE_TIME,
                new byte[] {1, 2, (byte) 0xFE}, utf8("{\"a\":1}"), List.of());
        byte[] keyB64 = utf8(java.util.Base64.getEncoder().encodeToString(r.key()));
        byte[] file = MirrorV3Files.write(MirrorV3Files.LATER_SCHEMA, footer, List.of(
                new BackupRecord("t", 0, 1, 1L, TimestampType.CREATE_TIME, keyB64, r.value(), List.of())));

        assertThat(codec.decode(file, "l.parquet")).containsExactly(r);
    }

    @Test
    void laterVariantPlainUtf8IsVerbatim() throws IOException {
        String footer = MirrorV3Files.footerValue(MirrorV3Files.arrowSchema(ArrowType.Utf8.INSTANCE, null,
                ArrowSchemaFooter.JSON_EXTENSION));
        assertWrittenAndDecoded(MirrorV3Files.LATER_SCHEMA, footer, Samples.edgeCases(), "l.parquet");
    }

    @Test
    void badBase64InATaggedColumnNamesObjectAndColumn() throws IOException {
        String footer = base64TaggedFooter();
        byte[] file = MirrorV3Files.write(MirrorV3Files.LATER_SCHEMA, footer, List.of(
                new BackupRecord("t", 0, 1, 1L, TimestampType.CREATE_TIME, utf8("not base64!"), null, List.of())));

        assertThatThrownBy(() -> codec.decode(file, "l.parquet"))
                .isInstanceOf(EnvelopeDecodeException.class)
                .hasMessageStartingWith("cannot read Parquet object l.parquet: column 'key' is tagged mirror_v3.bytes_base64"
                        + " but holds a value that is not base64");
    }

    @Test
    void columnsAreFoundByNameInAnyOrderWithExtraColumns() throws IOException {
        var shuffled = MessageTypeParser.parseMessageType("message arrow_schema {\n"
                + "  optional binary value;\n"
                + "  required group headers (LIST) { repeated group list { optional group element {\n"
                + "    optional binary value; required binary key (STRING); optional int32 extra; } } }\n"
                + "  required binary note (STRING);\n"
                + "  required binary timestamp_type (STRING);\n"
                + "  required int64 offset (INTEGER(64,false));\n"
                + "  optional binary key;\n"
                + "  required int32 partition;\n"
                + "  optional int64 timestamp_ms;\n"
                + "  required binary topic (STRING);\n"
                + "}");
        var groups = new org.apache.parquet.example.data.simple.SimpleGroupFactory(shuffled);
        InMemoryOutputFile out = new InMemoryOutputFile();
        try (var w = org.apache.parquet.hadoop.example.ExampleParquetWriter.builder(out)
                .withConf(new org.apache.parquet.conf.PlainParquetConfiguration()).withType(shuffled).build()) {
            var g = groups.newGroup().append("value", "v").append("note", "n").append("timestamp_type", "log_append_time")
                    .append("offset", 5L).append("partition", 2).append("timestamp_ms", 9L).append("topic", "t");
            var item = g.addGroup("headers").addGroup("list").addGroup("element");
            item.append("key", "hk").append("extra", 1);
            w.write(g);
        }

        assertThat(codec.decode(out.toByteArray(), "x")).containsExactly(new BackupRecord("t", 2, 5, 9L,
                TimestampType.LOG_APPEND_TIME, null, utf8("v"), List.of(new RecordHeader("hk", null))));
    }

    @Test
    void unknownTimestampTypeReadsAsNotAvailable() throws IOException {
        var groups = new org.apache.parquet.example.data.simple.SimpleGroupFactory(MirrorV3Files.SNAPSHOT_SCHEMA);
        InMemoryOutputFile out = new InMemoryOutputFile();
        try (var w = org.apache.parquet.hadoop.example.ExampleParquetWriter.builder(out)
                .withConf(new org.apache.parquet.conf.PlainParquetConfiguration()).withType(MirrorV3Files.SNAPSHOT_SCHEMA).build()) {
            var g = groups.newGroup().append("topic", "t").append("partition", 0).append("offset", 1L)
                    .append("timestamp_type", "future_time");
            g.addGroup("headers");
            w.write(g);
        }
        assertThat(codec.decode(out.toByteArray(), "x")).containsExactly(
                new BackupRecord("t", 0, 1, null, TimestampType.NOT_AVAILABLE, null, null, List.of()));
    }

    @Test
    void unreadableArrowSchemaIsADecodeError() throws IOException {
        byte[] file = MirrorV3Files.write(MirrorV3Files.SNAPSHOT_SCHEMA, "AAAA", Samples.edgeCases());

        assertThatThrownBy(() -> codec.decode(file, "odd.parquet"))
                .isInstanceOf(EnvelopeDecodeException.class)
                .hasMessageStartingWith("cannot read Parquet object odd.parquet: unreadable ARROW:schema footer entry");
    }
}
