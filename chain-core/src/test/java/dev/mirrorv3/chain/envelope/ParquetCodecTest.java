package dev.mirrorv3.chain.envelope;

import static dev.mirrorv3.chain.envelope.Samples.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ParquetCodecTest {

    static Stream<Arguments> allSettings() {
        return Stream.of(Compression.values()).flatMap(c -> Stream.of(ValueType.values())
                .flatMap(k -> Stream.of(ValueType.values()).map(v -> Arguments.of(c, k, v))));
    }

    static EnvelopeSettings parquet(Compression c, ValueType keys, ValueType values) {
        return new EnvelopeSettings(EnvelopeFormat.PARQUET, c, keys, values);
    }

    @ParameterizedTest(name = "{0} keys={1} values={2}")
    @MethodSource("allSettings")
    void roundTripsEdgeCases(Compression c, ValueType keys, ValueType values) {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(parquet(c, keys, values));
        List<BackupRecord> records = Samples.edgeCasesFor(keys, values);

        byte[] bytes = codec.encode(records);

        assertThat(codec.decode(bytes, "t.parquet")).containsExactlyElementsOf(records);
        // Decoding does not depend on the reader's settings: the file's schema says what it holds.
        assertThat(EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes()).decode(bytes, "t.parquet"))
                .containsExactlyElementsOf(records);
    }

    @ParameterizedTest(name = "keys={0} values={1}")
    @MethodSource("valueTypePairs")
    void writesMirrorV3sColumnsExactly(ValueType keys, ValueType values) throws IOException {
        byte[] bytes = EnvelopeCodecs.forSettings(parquet(Compression.ZSTD, keys, values)).encode(Samples.edgeCasesFor(keys, values));
        ParquetMetadata footer = footer(bytes);

        MessageType expected = MirrorV3Files.parquetSchema(annotation(keys), annotation(values));
        assertThat(footer.getFileMetaData().getSchema()).isEqualTo(expected);
        assertThat(footer.getFileMetaData().getKeyValueMetaData())
                .containsOnlyKeys(ArrowSchemaFooter.KEY)
                .containsEntry(ArrowSchemaFooter.KEY, ArrowSchemaFooter.forTypes(keys, values));
        assertThat(footer.getBlocks()).hasSize(1);
    }

    static Stream<Arguments> valueTypePairs() {
        return Stream.of(ValueType.values()).flatMap(k -> Stream.of(ValueType.values()).map(v -> Arguments.of(k, v)));
    }

    private static String annotation(ValueType t) {
        return switch (t) {
            case BYTES -> "";
            case UTF8 -> " (STRING)";
            case JSON -> " (JSON)";
        };
    }

    @Test
    void usesTheConfiguredCompressionAndOneRowGroup() throws IOException {
        List<BackupRecord> records = Samples.bulk(50_000, 100, false);
        for (Compression c : Compression.values()) {
            ParquetMetadata footer = footer(EnvelopeCodecs.forSettings(parquet(c, ValueType.BYTES, ValueType.BYTES)).encode(records));
            assertThat(footer.getBlocks()).hasSize(1);
            assertThat(footer.getBlocks().get(0).getRowCount()).isEqualTo(50_000);
            for (ColumnChunkMetaData col : footer.getBlocks().get(0).getColumns()) {
                assertThat(col.getCodec()).isEqualTo(ParquetCodec.codecName(c));
            }
        }
    }

    @Test
    void keepsDictionariesForLowCardinalityColumnsOnly() throws IOException {
        ParquetMetadata footer = footer(EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes()).encode(Samples.bulk(1000, 100, false)));
        for (ColumnChunkMetaData col : footer.getBlocks().get(0).getColumns()) {
            String path = col.getPath().toDotString();
            boolean dictionary = col.getEncodings().contains(Encoding.PLAIN_DICTIONARY) || col.getEncodings()
                    .contains(Encoding.RLE_DICTIONARY);
            if (List.of("topic", "partition", "timestamp_type", "headers.list.item.key").contains(path)) {
                assertThat(dictionary).as(path).isTrue();
            } else {
                assertThat(dictionary).as(path).isFalse();
            }
        }
    }

    @Test
    void refusesKeysThatAreNotUtf8() {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(parquet(Compression.ZSTD, ValueType.UTF8, ValueType.BYTES));
        BackupRecord bad = new BackupRecord("orders", 3, 42, 1L, TimestampType.CREATE_TIME,
                new byte[] {'a', (byte) 0xC3}, new byte[] {(byte) 0xFF}, List.of());

        assertThatThrownBy(() -> codec.encode(List.of(bad)))
                .isInstanceOf(ValueTypeException.class)
                .hasMessage("topic orders partition 3 offset 42: key is not valid UTF-8, as keys.type=utf8 requires;"
                        + " set keys.type=bytes to back up arbitrary bytes");
    }

    @Test
    void refusesOverlongAndSurrogateUtf8() {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(parquet(Compression.ZSTD, ValueType.BYTES, ValueType.UTF8));
        byte[][] invalid = {
            {(byte) 0xC0, (byte) 0x80},                          // overlong NUL
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80},             // UTF-16 surrogate D800
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
            {(byte) 0xE2, (byte) 0x82},                          // truncated sequence
        };
        for (byte[] v : invalid) {
            BackupRecord r = new BackupRecord("t", 0, 9, null, TimestampType.NOT_AVAILABLE, null, v, List.of());
            assertThatThrownBy(() -> codec.encode(List.of(r)))
                    .as(Arrays.toString(v))
                    .isInstanceOf(ValueTypeException.class)
                    .hasMessage("topic t partition 0 offset 9: value is not valid UTF-8, as values.type=utf8 requires;"
                            + " set values.type=bytes to back up arbitrary bytes");
        }
    }

    @Test
    void refusesValuesThatAreNotJson() {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(parquet(Compression.ZSTD, ValueType.BYTES, ValueType.JSON));
        BackupRecord ok = new BackupRecord("orders", 1, 6, 1L, TimestampType.CREATE_TIME, null, utf8("{\"a\":[1,2]}"), List.of());
        BackupRecord bad = new BackupRecord("orders", 1, 7, 1L, TimestampType.CREATE_TIME, null, utf8("{\"a\":"), List.of());

        assertThatThrownBy(() -> codec.encode(List.of(ok, bad)))
                .isInstanceOf(ValueTypeException.class)
                .hasMessageStartingWith("topic orders partition 1 offset 7: value is not valid JSON (")
                .hasMessageEndingWith("), as values.type=json requires; set values.type=utf8 to back up any text,"
                        + " or values.type=bytes for arbitrary bytes");
    }

    @Test
    void jsonCheckParsesTheWholeText() {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(parquet(Compression.ZSTD, ValueType.JSON, ValueType.BYTES));
        for (String text : List.of("", "  ", "{} {}", "{}x", "[1,]", "{'a':1}", "NaN", "\"unterminated", "01", "\"tab\tinside\"")) {
            BackupRecord r = new BackupRecord("t", 0, 1, null, TimestampType.NOT_AVAILABLE, utf8(text), null, List.of());
            assertThatThrownBy(() -> codec.encode(List.of(r))).as(text).isInstanceOf(ValueTypeException.class)
                    .hasMessageContaining("key is not valid JSON");
        }
        for (String text : List.of("0", " {\"a\": {\"b\": [true, false, null]}} ", "\"s\"", "-0.5E-3", "[]")) {
            BackupRecord r = new BackupRecord("t", 0, 1, null, TimestampType.NOT_AVAILABLE, utf8(text), null, List.of());
            assertThat(codec.decode(codec.encode(List.of(r)), "x")).containsExactly(r);
        }
    }

    @Test
    void refusesAnEmptyObject() {
        assertThatThrownBy(() -> EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes()).encode(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void garbageAndTruncatedObjectsFailWithTheObjectsName() {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes());
        byte[] good = codec.encode(Samples.edgeCases());
        String name = "chain/0/00000000000000000000-00000000000000000006.parquet";

        assertThatThrownBy(() -> codec.decode(new byte[0], name))
                .isInstanceOf(EnvelopeDecodeException.class)
                .hasMessage("cannot read Parquet object " + name + ": it is 0 bytes long, too short for a Parquet file");
        assertThatThrownBy(() -> codec.decode(utf8("{\"topic\":\"x\"}\n"), name))
                .isInstanceOf(EnvelopeDecodeException.class)
                .hasMessage("cannot read Parquet object " + name + ": it does not start with the Parquet magic PAR1");
        assertThatThrownBy(() -> codec.decode(Arrays.copyOf(good, good.length - 100), name))
                .isInstanceOf(EnvelopeDecodeException.class)
                .hasMessage("cannot read Parquet object " + name + ": it does not end with the Parquet magic PAR1 (truncated?)");

        // Right framing, damaged inside: a damaged byte may be one the reader never uses (padding, statistics), so a
        // read may succeed, but then with exactly the records written; any other damage is a decode failure naming the
        // object. A different result without an error never passes.
        List<BackupRecord> written = Samples.edgeCases();
        for (int at = 4; at < good.length - 8; at += 37) {
            byte[] bad = good.clone();
            bad[at] ^= (byte) 0x5A;
            bad[at + 1] ^= (byte) 0xA5;
            List<BackupRecord> read;
            try {
                read = codec.decode(bad, name);
            } catch (EnvelopeDecodeException e) {
                assertThat(e.getMessage()).as("damage at byte %d", at).startsWith("cannot read Parquet object " + name + ": ");
                continue;
            }
            assertThat(read).as("damage at byte %d read without an error", at).containsExactlyElementsOf(written);
        }
    }

    @Test
    void refusesFilesWithoutEnvelopeColumns() throws IOException {
        byte[] other = MirrorV3Files.write(MessageTypeParser.parseMessageType("message m { required int64 offset; }"), null, List.of());
        assertThatThrownBy(() -> EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes()).decode(other, "x.parquet"))
                .isInstanceOf(EnvelopeDecodeException.class)
                .hasMessageStartingWith("cannot read Parquet object x.parquet: missing column 'topic'");
    }

    @Test
    void storesOffsetsAsUnsigned64() throws IOException {
        ParquetMetadata footer = footer(EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes()).encode(Samples.edgeCases()));
        ColumnDescriptor offset = footer.getFileMetaData().getSchema().getColumnDescription(new String[] {"offset"});
        assertThat(offset.getPrimitiveType().getLogicalTypeAnnotation().toString()).isEqualTo("INTEGER(64,false)");
    }

    static ParquetMetadata footer(byte[] bytes) throws IOException {
        try (ParquetFileReader r = ParquetFileReader.open(new InMemoryInputFile(bytes),
                ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
            return r.getFooter();
        }
    }
}
