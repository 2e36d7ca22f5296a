package dev.mirrorv3.chain.envelope;

import static dev.mirrorv3.chain.envelope.Samples.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NdjsonCodecTest {
    private static EnvelopeCodec ndjson(ValueType keys, ValueType values) {
        return EnvelopeCodecs.forSettings(new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED, keys, values));
    }

    private final EnvelopeCodec bytes = ndjson(ValueType.BYTES, ValueType.BYTES);

    static Stream<Arguments> valueTypePairs() {
        return Stream.of(ValueType.values()).flatMap(k -> Stream.of(ValueType.values()).map(v -> Arguments.of(k, v)));
    }

    @ParameterizedTest(name = "keys={0} values={1}")
    @MethodSource("valueTypePairs")
    void roundTripsEdgeCases(ValueType keys, ValueType values) {
        EnvelopeCodec codec = ndjson(keys, values);
        List<BackupRecord> records = Samples.edgeCasesFor(keys, values);

        assertThat(codec.decode(codec.encode(records), "t.ndjson")).containsExactlyElementsOf(records);
    }

    @Test
    void writesMirrorV3sLinesExactly() {
        List<BackupRecord> records = List.of(
                new BackupRecord("orders", 3, 41, 1700000000000L, TimestampType.CREATE_TIME,
                        utf8("k"), new byte[] {0, (byte) 0xFF}, List.of(new RecordHeader("h", utf8("v")), new RecordHeader("n", null))),
                new BackupRecord("orders", 3, 42, null, TimestampType.NOT_AVAILABLE, null, null, List.of()),
                new BackupRecord("orders", 3, Long.MAX_VALUE, 5L, TimestampType.LOG_APPEND_TIME, new byte[0], new byte[0], List.of()));

        String text = new String(bytes.encode(records), StandardCharsets.UTF_8);

        assertThat(text).isEqualTo(
                "{\"topic\":\"orders\",\"partition\":3,\"offset\":41,\"timestamp_ms\":1700000000000,\"timestamp_type\":\"create_time\","
                        + "\"key\":\"aw==\",\"value\":\"AP8=\",\"headers\":[{\"key\":\"h\",\"value\":\"dg==\"},{\"key\":\"n\"}]}\n"
                + "{\"topic\":\"orders\",\"partition\":3,\"offset\":42,\"timestamp_type\":\"not_available\"}\n"
                + "{\"topic\":\"orders\",\"partition\":3,\"offset\":9223372036854775807,\"timestamp_ms\":5,"
                        + "\"timestamp_type\":\"log_append_time\",\"key\":\"\",\"value\":\"\"}\n");
    }

    @Test
    void utf8AndJsonPayloadsAreJsonStringsHeadersStayBase64() {
        EnvelopeCodec codec = ndjson(ValueType.UTF8, ValueType.JSON);
        BackupRecord r = new BackupRecord("t", 0, 1, null, TimestampType.CREATE_TIME,
                utf8("ä \"q\"\n\t\u0001"), utf8("{\"a\":[1]}"), List.of(new RecordHeader("h", utf8("v"))));

        String text = new String(codec.encode(List.of(r)), StandardCharsets.UTF_8);

        assertThat(text).isEqualTo("{\"topic\":\"t\",\"partition\":0,\"offset\":1,\"timestamp_type\":\"create_time\","
                + "\"key\":\"ä \\\"q\\\"\\n\\t\\u0001\",\"value\":\"{\\\"a\\\":[1]}\",\"headers\":[{\"key\":\"h\",\"value\":\"dg==\"}]}\n");
        assertThat(codec.decode(text.getBytes(StandardCharsets.UTF_8), "x")).containsExactly(r);
    }

    @Test
    void readerIsLenientLikeMirrorV3() {
        String text = "\n"
                + "{\"topic\":\"t\",\"partition\":1,\"offset\":2,\"timestamp_ms\":null,\"timestamp_type\":\"create_time\","
                        + "\"key\":null,\"value\":\"AQ==\",\"headers\":null,\"extra\":{\"nested\":[1,2]}}\n"
                + "   \n"
                + "{\"extra\":1,\"offset\":3,\"partition\":1,\"topic\":\"t\",\"timestamp_type\":\"someday\","
                        + "\"headers\":[{\"key\":\"h\",\"value\":null,\"x\":true}]}\n"
                + "{\"topic\":\"t\",\"partition\":1,\"offset\":4}";

        assertThat(bytes.decode(text.getBytes(StandardCharsets.UTF_8), "x")).containsExactly(
                new BackupRecord("t", 1, 2, null, TimestampType.CREATE_TIME, null, new byte[] {1}, List.of()),
                new BackupRecord("t", 1, 3, null, TimestampType.NOT_AVAILABLE, null, null, List.of(new RecordHeader("h", null))),
                new BackupRecord("t", 1, 4, null, TimestampType.NOT_AVAILABLE, null, null, List.of()));
    }

    @Test
    void refusesMisfitsWithTheSameMessagesAsParquet() {
        BackupRecord notUtf8 = new BackupRecord("orders", 3, 42, 1L, TimestampType.CREATE_TIME, null, new byte[] {(byte) 0xFE}, List.of());
        assertThatThrownBy(() -> ndjson(ValueType.BYTES, ValueType.UTF8).encode(List.of(notUtf8)))
                .isInstanceOf(ValueTypeException.class)
                .hasMessage("topic orders partition 3 offset 42: value is not valid UTF-8, as values.type=utf8 requires;"
                        + " set values.type=bytes to back up arbitrary bytes");

        BackupRecord notJson = new BackupRecord("orders", 3, 43, 1L, TimestampType.CREATE_TIME, utf8("nope"), null, List.of());
        assertThatThrownBy(() -> ndjson(ValueType.JSON, ValueType.BYTES).encode(List.of(notJson)))
                .isInstanceOf(ValueTypeException.class)
                .hasMessageStartingWith("topic orders partition 3 offset 43: key is not valid JSON (")
                .hasMessageEndingWith("as keys.type=json requires; set keys.type=utf8 to back up any text, or keys.type=bytes for "
                        + "arbitrary bytes");
    }

    @Test
    void decodeErrorsNameObjectAndLine() {
        String name = "c/0/00000000000000000000-00000000000000000001.ndjson";
        String good = "{\"topic\":\"t\",\"partition\":1,\"offset\":2}\n";

        assertThatThrownBy(() -> bytes.decode(utf8(good + "{\"topic\":\"t\",\"partition\":1,\"offs"), name))
                .isInstanceOf(EnvelopeDecodeException.class)
                .hasMessageStartingWith("cannot read NDJSON object " + name + " at line 2: ");
        assertThatThrownBy(() -> bytes.decode(utf8(good + "[1]\n"), name))
                .isInstanceOf(EnvelopeDecodeException.class)
                .hasMessage("cannot read NDJSON object " + name + " at line 2: expected a JSON object, found START_ARRAY");
        assertThatThrownBy(() -> bytes.decode(utf8(good + good + "{\"partition\":1,\"offset\":2}\n"), name))
                .isInstanceOf(EnvelopeDecodeException.class)
                .hasMessage("cannot read NDJSON object " + name + " at line 3: a record lacks 'topic'");
        assertThatThrownBy(() -> bytes.decode(utf8("{\"topic\":\"t\",\"partition\":\"1\",\"offset\":2}"), name))
                .isInstanceOf(EnvelopeDecodeException.class)
                .hasMessage("cannot read NDJSON object " + name + " at line 1: 'partition' should be an integer but is a string");
        assertThatThrownBy(() -> bytes.decode(utf8("{\"topic\":\"t\",\"partition\":1,\"offset\":2,\"key\":\"plain text\"}"), name))
                .isInstanceOf(EnvelopeDecodeException.class)
                .hasMessage("cannot read NDJSON object " + name + " at line 1: 'key' is not base64; this reader has keys.type=bytes,"
                        + " so key must be base64 (set keys.type as the chain was written)");
    }

    @Test
    void offsetsAboveLongMaxKeepTheirUnsignedBits() {
        List<BackupRecord> decoded = bytes.decode(utf8("{\"topic\":\"t\",\"partition\":0,\"offset\":18446744073709551615}"), "x");
        assertThat(decoded.get(0).offset()).isEqualTo(-1L);
        assertThat(bytes.decode(bytes.encode(decoded), "x")).isEqualTo(decoded);
    }

    @Test
    void emptyInputIsNoRecords() {
        assertThat(bytes.decode(new byte[0], "x")).isEmpty();
        assertThat(bytes.decode(utf8("\n\n"), "x")).isEmpty();
    }
}
