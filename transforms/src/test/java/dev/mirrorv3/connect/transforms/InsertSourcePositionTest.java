package dev.mirrorv3.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class InsertSourcePositionTest {
    private static <R extends org.apache.kafka.connect.connector.ConnectRecord<R>> InsertSourcePosition<R> smt(Map<String, String> props) {
        InsertSourcePosition<R> t = new InsertSourcePosition<>();
        t.configure(props);
        return t;
    }

    private static Map<String, Object> headers(org.apache.kafka.connect.connector.ConnectRecord<?> r) {
        Map<String, Object> out = new HashMap<>();
        for (Header h : r.headers()) {
            out.put(h.key(), h.value() instanceof byte[] b ? "bytes:" + new String(b, StandardCharsets.UTF_8) : h.value());
        }
        return out;
    }

    @Test
    void sinkRecordsGetTheirOriginalPositionAsStringHeaders() {
        ConnectHeaders existing = new ConnectHeaders();
        existing.addString("keep", "me");
        SinkRecord original = new SinkRecord("orders", 2, null, "k", null, "v", 1234L, 1_700_000_000_000L,
                TimestampType.CREATE_TIME, existing);
        SinkRecord renamed = original.newRecord("orders-copy", 0, null, "k", null, "v", 1_700_000_000_000L); // an earlier SMT
        SinkRecord out = InsertSourcePositionTest.<SinkRecord>smt(Map.of()).apply(renamed);
        assertThat(headers(out)).isEqualTo(Map.of("keep", "me", "mirror-v3.source.topic", "orders",
                "mirror-v3.source.partition", "2", "mirror-v3.source.offset", "1234", "mirror-v3.source.timestamp", "1700000000000"));
        assertThat(out.headers().lastWithName("mirror-v3.source.offset").schema()).isEqualTo(Schema.STRING_SCHEMA);
        assertThat(out.topic()).isEqualTo("orders-copy");
        assertThat(out.key()).isEqualTo("k");
        assertThat(out.value()).isEqualTo("v");
        assertThat(headers(renamed)).as("the input record is not changed").containsOnlyKeys("keep");
    }

    @Test
    void namesFieldsAndTypeAreConfigurable() {
        SinkRecord r = new SinkRecord("orders", 2, null, null, null, null, 7L, null, TimestampType.NO_TIMESTAMP_TYPE);
        SinkRecord out = InsertSourcePositionTest.<SinkRecord>smt(Map.of("fields", "offset,timestamp", "offset.header", "src-offset",
                "header.type", "bytes")).apply(r);
        assertThat(headers(out)).as("no timestamp, so no timestamp header").isEqualTo(Map.of("src-offset", "bytes:7"));
        assertThat(out.headers().lastWithName("src-offset").schema()).isEqualTo(Schema.BYTES_SCHEMA);
    }

    @Test
    void aCopyOfACopyReplacesThePositionInsteadOfAddingASecond() {
        SinkRecord r = new SinkRecord("a", 0, null, null, null, null, 5L);
        SinkRecord once = InsertSourcePositionTest.<SinkRecord>smt(Map.of("fields", "offset")).apply(r);
        SinkRecord again = InsertSourcePositionTest.<SinkRecord>smt(Map.of("fields", "offset")).apply(
                new SinkRecord("b", 0, null, null, null, null, 9L, null, TimestampType.NO_TIMESTAMP_TYPE, once.headers()));
        int n = 0;
        for (Header h : again.headers()) {
            n++;
            assertThat(h.value()).isEqualTo("9");
        }
        assertThat(n).isEqualTo(1);
    }

    @Test
    void sourceRecordsUseMirrorMakerStyleSourcePartitionAndOffset() {
        SourceRecord mm2 = new SourceRecord(Map.of("cluster", "a", "topic", "orders", "partition", 4), Map.of("offset", 99L),
                "a.orders", 0, null, null, null, null, 55L);
        assertThat(headers(InsertSourcePositionTest.<SourceRecord>smt(Map.of()).apply(mm2))).isEqualTo(Map.of(
                "mirror-v3.source.topic", "orders", "mirror-v3.source.partition", "4", "mirror-v3.source.offset", "99",
                "mirror-v3.source.timestamp", "55"));
        SourceRecord plain = new SourceRecord(Map.of(), Map.of(), "out", 1, null, null);
        assertThat(headers(InsertSourcePositionTest.<SourceRecord>smt(Map.of()).apply(plain)))
                .as("no offset known: no offset header")
                .isEqualTo(Map.of("mirror-v3.source.topic", "out", "mirror-v3.source.partition", "1"));
    }

    @Test
    void unknownOrNoFieldsAreRefused() {
        assertThatThrownBy(() -> smt(Map.of("fields", "offset,key"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown field 'key'");
        assertThatThrownBy(() -> smt(Map.of("fields", ""))).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> smt(Map.of("header.type", "int"))).isInstanceOf(ConfigException.class);
    }
}
