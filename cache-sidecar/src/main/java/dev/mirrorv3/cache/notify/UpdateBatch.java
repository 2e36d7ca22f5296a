package dev.mirrorv3.cache.notify;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * One kkv-v1 notification: distinct keys, and per partition the offset of the last notified record in it.
 *
 * @param commitPositions if not null, the consumer positions that are fully notified once this batch is done
 */
public record UpdateBatch(String topic, List<String> keys, SortedMap<Integer, Long> offsets,
                          Map<Integer, Long> commitPositions) {

    private static final JsonFactory JSON = new JsonFactory();

    /** {@code {"0":11,"1":5}}, the {@code x-kkv-offsets} header. */
    public String offsetsHeader() {
        StringBuilder sb = new StringBuilder("{");
        offsets.forEach((p, o) -> {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append('"').append(p).append("\":").append(o);
        });
        return sb.append('}').toString();
    }

    /** {@code {"v":1,"topic":"t","offsets":{"0":11},"updates":{"k1":{},"k2":{}}}}, compact, kkv's key order. */
    public byte[] body() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + keys.size() * 16);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("v", 1);
            g.writeStringField("topic", topic);
            g.writeFieldName("offsets");
            g.writeRawValue(offsetsHeader());
            g.writeObjectFieldStart("updates");
            for (String k : keys) {
                g.writeFieldName(k);
                g.writeStartObject();
                g.writeEndObject();
            }
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Upper bound of the bytes a key adds to the body: {@code "key":{},} with JSON escapes. */
    static int bodyBytesOf(String key) {
        int n = 6;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20) {
                n += 6;
            } else if (c == '"' || c == '\\') {
                n += 2;
            } else if (c < 0x80) {
                n += 1;
            } else {
                n += 3; // UTF-8: at most 3 bytes per UTF-16 unit (a surrogate pair is 4 bytes for 2 units)
            }
        }
        return n;
    }

    static int fixedBodyBytes(String topic) {
        return 64 + topic.getBytes(StandardCharsets.UTF_8).length * 2;
    }
}
