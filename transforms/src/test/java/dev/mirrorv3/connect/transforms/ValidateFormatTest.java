package dev.mirrorv3.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ValidateFormatTest {
    private static ValidateFormat<SinkRecord> value(String format) {
        ValidateFormat<SinkRecord> t = new ValidateFormat.Value<>();
        t.configure(Map.of("format", format));
        return t;
    }

    private static SinkRecord record(Object key, Object value) {
        return new SinkRecord("orders", 3, null, key, null, value, 42L);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":1}", "[1,2]", "\"s\"", "3.5", "true", "null", "  {\"nested\":{\"x\":[{}]}}  \n"})
    void oneJsonValuePassesUnchanged(String json) {
        SinkRecord r = record(null, utf8(json));
        assertThat(value("json").apply(r)).isSameAs(r);
        assertThat(value("utf8").apply(r)).isSameAs(r);
    }

    @Test
    void misfitsNameTopicPartitionOffsetAndTheReasonButNotTheContent() {
        assertThatThrownBy(() -> value("json").apply(record(null, utf8("{\"secret\":1} {\"b\":2}"))))
                .isInstanceOf(DataException.class)
                .hasMessage("record at topic orders partition 3 offset 42: value is not one JSON value (more follows at byte 13)");
        assertThatThrownBy(() -> value("json").apply(record(null, utf8("{\"secret\": tru"))))
                .isInstanceOf(DataException.class)
                .hasMessageStartingWith("record at topic orders partition 3 offset 42: value is not JSON (")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> value("json").apply(record(null, new byte[0])))
                .hasMessage("record at topic orders partition 3 offset 42: value is not JSON (empty)");
        assertThatThrownBy(() -> value("utf8").apply(record(null, new byte[] {'o', 'k', (byte) 0xC3, '('})))
                .isInstanceOf(DataException.class)
                .hasMessage("record at topic orders partition 3 offset 42: value is not valid UTF-8"
                        + " (invalid byte sequence at byte 2 of 4)");
        assertThatThrownBy(() -> value("json").apply(record(null, new byte[] {'"', (byte) 0xFF, '"'})))
                .hasMessageContaining("value is not valid UTF-8");
    }

    @Test
    void keysAreCheckedByTheKeyVariant() {
        ValidateFormat<SinkRecord> key = new ValidateFormat.Key<>();
        key.configure(Map.of("format", "json"));
        SinkRecord good = record(utf8("{\"id\":1}"), utf8("not json"));
        assertThat(key.apply(good)).isSameAs(good);
        assertThatThrownBy(() -> key.apply(record(utf8("id-1"), utf8("{}"))))
                .hasMessageStartingWith("record at topic orders partition 3 offset 42: key is not JSON");
    }

    @Test
    void nullStringsAndByteBuffersAreHandled() {
        SinkRecord tombstone = record(null, null);
        assertThat(value("json").apply(tombstone)).isSameAs(tombstone);
        SinkRecord string = record(null, "{\"a\":1}");
        assertThat(value("json").apply(string)).isSameAs(string);
        assertThat(value("utf8").apply(record(null, "any string"))).isNotNull();
        ByteBuffer buffer = ByteBuffer.wrap(utf8("[1]"));
        SinkRecord buffered = record(null, buffer);
        assertThat(value("json").apply(buffered)).isSameAs(buffered);
        assertThat(buffer.remaining()).as("the buffer's position is left alone").isEqualTo(3);
    }

    @Test
    void otherTypesAskForAByteOrStringConverter() {
        Schema schema = SchemaBuilder.struct().field("a", Schema.INT32_SCHEMA).build();
        assertThatThrownBy(() -> value("utf8").apply(record(null, new Struct(schema).put("a", 1))))
                .hasMessage("record at topic orders partition 3 offset 42: value is a Struct, not bytes or a string"
                        + " (use ByteArrayConverter or StringConverter)");
    }

    @Test
    void sourceRecordsNameTopicAndPartition() {
        ValidateFormat<SourceRecord> t = new ValidateFormat.Value<>();
        t.configure(Map.of("format", "utf8"));
        assertThatThrownBy(() -> t.apply(new SourceRecord(Map.of(), Map.of(), "out", 1, null, new byte[] {(byte) 0x80})))
                .hasMessageStartingWith("record at topic out partition 1 (source record, no offset yet): value is not valid UTF-8");
    }

    @Test
    void theFormatIsRequiredAndChecked() {
        assertThatThrownBy(() -> new ValidateFormat.Value<SinkRecord>().configure(Map.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("format");
        assertThatThrownBy(() -> value("xml")).isInstanceOf(ConfigException.class).hasMessageContaining("utf8");
        assertThat(new ValidateFormat.Key<SinkRecord>().config()).isSameAs(ValidateFormat.CONFIG_DEF);
        assertThat(new ValidateFormat.Value<SinkRecord>().version()).isNotBlank();
    }
}
