package dev.mirrorv3.chain.envelope;

import com.fasterxml.jackson.core.Base64Variant;
import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.mirrorv3.chain.bytes.ObjectBytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * mirror-v3's NDJSON envelope: one compact JSON object per record, each ending in {@code \n};
 * fields {@code topic, partition, offset, timestamp_ms, timestamp_type, key, value, headers[{key, value}]};
 * nulls and empty headers omitted. Key/value are base64 for {@code bytes}, the text itself for
 * {@code utf8}/{@code json}; header values are always base64. NDJSON carries no type tag, so decoding
 * follows the settings' key/value types. Thread-safe.
 */
public final class NdjsonCodec implements EnvelopeCodec {
    private static final JsonFactory JSON = JsonFactory.builder()
            // Records can be large (base64 of a big Kafka value is one string): no size limits.
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .maxDocumentLength(-1)
                    .build())
            .build();
    /** Standard alphabet with padding, as mirror-v3 writes; reading also accepts unpadded text. */
    private static final Base64Variant BASE64_WRITE = Base64Variants.MIME_NO_LINEFEEDS;
    private static final Base64Variant BASE64_READ = Base64Variants.MIME_NO_LINEFEEDS.withPaddingAllowed();

    private static final SerializableString TOPIC = new SerializedString(EnvelopeSchema.TOPIC);
    private static final SerializableString PARTITION = new SerializedString(EnvelopeSchema.PARTITION);
    private static final SerializableString OFFSET = new SerializedString(EnvelopeSchema.OFFSET);
    private static final SerializableString TIMESTAMP_MS = new SerializedString(EnvelopeSchema.TIMESTAMP_MS);
    private static final SerializableString TIMESTAMP_TYPE = new SerializedString(EnvelopeSchema.TIMESTAMP_TYPE);
    private static final SerializableString KEY = new SerializedString(EnvelopeSchema.KEY);
    private static final SerializableString VALUE = new SerializedString(EnvelopeSchema.VALUE);
    private static final SerializableString HEADERS = new SerializedString(EnvelopeSchema.HEADERS);
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

    private final EnvelopeSettings settings;
    private final EncodeMemory memory;

    public NdjsonCodec(EnvelopeSettings settings) {
        this(settings, EncodeMemory.unpooled());
    }

    public NdjsonCodec(EnvelopeSettings settings, EncodeMemory memory) {
        this.settings = settings;
        this.memory = memory;
    }

    @Override
    public EnvelopeFormat format() {
        return EnvelopeFormat.NDJSON;
    }

    @Override
    public byte[] encode(List<BackupRecord> records) {
        return encodeObject(records).toByteArrayAndRelease();
    }

    @Override
    public ObjectBytes encodeObject(List<BackupRecord> records) {
        if (records.isEmpty()) {
            throw new IllegalArgumentException("an object holds at least one record");
        }
        ValueTypeGuard guard = new ValueTypeGuard(settings.keysType(), settings.valuesType());
        ChunkedByteOutput buf = memory.takeOutput();
        buf.reset();
        boolean finished = false;
        try {
            try (JsonGenerator g = JSON.createGenerator(buf)) {
                g.setRootValueSeparator(null);
                for (BackupRecord r : records) {
                    guard.check(r);
                    write(g, r);
                }
            }
            ObjectBytes bytes = memory.finish(buf);
            finished = true;
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("writing NDJSON in memory failed", e);
        } finally {
            if (!finished) {
                memory.giveBack(buf);
            }
        }
    }

    private void write(JsonGenerator g, BackupRecord r) throws IOException {
        g.writeStartObject();
        g.writeFieldName(TOPIC);
        g.writeString(r.topic());
        g.writeFieldName(PARTITION);
        g.writeNumber(r.partition());
        g.writeFieldName(OFFSET);
        if (r.offset() >= 0) {
            g.writeNumber(r.offset());
        } else {
            g.writeNumber(Long.toUnsignedString(r.offset()));
        }
        if (r.timestampMs() != null) {
            g.writeFieldName(TIMESTAMP_MS);
            g.writeNumber(r.timestampMs());
        }
        g.writeFieldName(TIMESTAMP_TYPE);
        g.writeString(r.timestampType().stored());
        writePayload(g, KEY, settings.keysType(), r.key());
        writePayload(g, VALUE, settings.valuesType(), r.value());
        if (!r.headers().isEmpty()) {
            g.writeFieldName(HEADERS);
            g.writeStartArray();
            for (RecordHeader h : r.headers()) {
                g.writeStartObject();
                g.writeFieldName(KEY);
                g.writeString(h.key());
                if (h.value() != null) {
                    g.writeFieldName(VALUE);
                    g.writeBinary(BASE64_WRITE, h.value(), 0, h.value().length);
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeRaw('\n');
    }

    /** Base64 for bytes; otherwise the (already checked) UTF-8 text, escaped as a JSON string. */
    private static void writePayload(JsonGenerator g, SerializableString name, ValueType type, byte[] data) throws IOException {
        if (data == null) {
            return;
        }
        g.writeFieldName(name);
        if (type == ValueType.BYTES) {
            g.writeBinary(BASE64_WRITE, data, 0, data.length);
        } else {
            g.writeUTF8String(data, 0, data.length);
        }
    }

    @Override
    public List<BackupRecord> decode(byte[] data, String objectDescription) {
        List<BackupRecord> out = new ArrayList<>();
        int line = 0;
        try (JsonParser p = JSON.createParser(data)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                line = p.currentTokenLocation().getLineNr();
                if (t != JsonToken.START_OBJECT) {
                    throw new EnvelopeDecodeException("expected a JSON object, found " + t);
                }
                out.add(readRecord(p));
            }
            return out;
        } catch (EnvelopeDecodeException e) {
            throw new EnvelopeDecodeException("cannot read NDJSON object " + objectDescription + " at line " + line + ": "
                    + e.getMessage(), e);
        } catch (JsonProcessingException e) {
            throw new EnvelopeDecodeException("cannot read NDJSON object " + objectDescription + " at line "
                    + (e.getLocation() == null ? line : e.getLocation().getLineNr()) + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new EnvelopeDecodeException("cannot read NDJSON object " + objectDescription + ": " + e.getMessage(), e);
        }
    }

    private BackupRecord readRecord(JsonParser p) throws IOException {
        String topic = null;
        Integer partition = null;
        Long offset = null;
        Long timestampMs = null;
        TimestampType timestampType = TimestampType.NOT_AVAILABLE;
        byte[] key = null;
        byte[] value = null;
        List<RecordHeader> headers = List.of();
        for (String field = nextField(p); field != null; field = nextField(p)) {
            switch (field) {
                case EnvelopeSchema.TOPIC -> topic = string(p, field);
                case EnvelopeSchema.PARTITION -> partition = integer(p, field).intValueExact();
                case EnvelopeSchema.OFFSET -> offset = unsignedLong(p, field);
                case EnvelopeSchema.TIMESTAMP_MS -> timestampMs = integer(p, field).longValueExact();
                case EnvelopeSchema.TIMESTAMP_TYPE -> timestampType = TimestampType.fromStored(string(p, field));
                case EnvelopeSchema.KEY -> key = payload(p, field, settings.keysType(), "keys.type");
                case EnvelopeSchema.VALUE -> value = payload(p, field, settings.valuesType(), "values.type");
                case EnvelopeSchema.HEADERS -> headers = headers(p);
                default -> p.skipChildren();
            }
        }
        if (topic == null || partition == null || offset == null) {
            throw new EnvelopeDecodeException("a record lacks "
                    + (topic == null ? "'topic'" : partition == null ? "'partition'" : "'offset'"));
        }
        return new BackupRecord(topic, partition, offset, timestampMs, timestampType, key, value, headers);
    }

    /**
     * Moves to the next field of the current object whose value is not null (a null field is as good as absent), leaving
     * the parser on its value; null at the end of the object.
     */
    private static String nextField(JsonParser p) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            if (p.nextToken() != JsonToken.VALUE_NULL) {
                return field;
            }
        }
        return null;
    }

    private static List<RecordHeader> headers(JsonParser p) throws IOException {
        expect(p, JsonToken.START_ARRAY, EnvelopeSchema.HEADERS);
        List<RecordHeader> headers = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            expect(p, JsonToken.START_OBJECT, "headers[]");
            String key = null;
            byte[] value = null;
            for (String field = nextField(p); field != null; field = nextField(p)) {
                switch (field) {
                    case EnvelopeSchema.HEADER_KEY -> key = string(p, "headers[].key");
                    case EnvelopeSchema.HEADER_VALUE -> value = base64(p, "headers[].value");
                    default -> p.skipChildren();
                }
            }
            if (key == null) {
                throw new EnvelopeDecodeException("a header lacks 'key'");
            }
            headers.add(new RecordHeader(key, value));
        }
        return headers;
    }

    private static byte[] payload(JsonParser p, String field, ValueType type, String setting) throws IOException {
        if (type == ValueType.BYTES) {
            try {
                return base64(p, field);
            } catch (EnvelopeDecodeException e) {
                throw new EnvelopeDecodeException(e.getMessage() + "; this reader has " + setting + "=bytes, so "
                        + field + " must be base64 (set " + setting + " as the chain was written)", e);
            }
        }
        return string(p, field).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] base64(JsonParser p, String field) throws IOException {
        expect(p, JsonToken.VALUE_STRING, field);
        try {
            return p.getBinaryValue(BASE64_READ);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new EnvelopeDecodeException("'" + field + "' is not base64", e);
        }
    }

    private static String string(JsonParser p, String field) throws IOException {
        expect(p, JsonToken.VALUE_STRING, field);
        return p.getText();
    }

    private static BigInteger integer(JsonParser p, String field) throws IOException {
        expect(p, JsonToken.VALUE_NUMBER_INT, field);
        return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue() : BigInteger.valueOf(p.getLongValue());
    }

    /** mirror-v3 offsets are u64; Kafka's fit in a long, larger ones keep their bits (as in Parquet). */
    private static long unsignedLong(JsonParser p, String field) throws IOException {
        expect(p, JsonToken.VALUE_NUMBER_INT, field);
        if (p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            long v = p.getLongValue();
            if (v < 0) {
                throw new EnvelopeDecodeException("'" + field + "' is negative: " + v);
            }
            return v;
        }
        BigInteger v = p.getBigIntegerValue();
        if (v.signum() < 0 || v.compareTo(TWO_TO_64) >= 0) {
            throw new EnvelopeDecodeException("'" + field + "' is outside 0..2^64-1: " + v);
        }
        return v.longValue();
    }

    private static void expect(JsonParser p, JsonToken expected, String field) {
        if (p.currentToken() != expected) {
            throw new EnvelopeDecodeException("'" + field + "' should be " + describe(expected) + " but is " + describe(p.currentToken()));
        }
    }

    private static String describe(JsonToken t) {
        return switch (t) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT -> "an integer";
            case VALUE_NUMBER_FLOAT -> "a decimal number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            default -> String.valueOf(t);
        };
    }
}
