package dev.mirrorv3.chain.envelope;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.flatbuf.Field;
import org.apache.arrow.flatbuf.Int;
import org.apache.arrow.flatbuf.KeyValue;
import org.apache.arrow.flatbuf.LargeBinary;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.Schema;
import org.apache.arrow.flatbuf.Struct_;
import org.apache.arrow.flatbuf.Type;
import org.apache.arrow.flatbuf.Utf8;

/**
 * The {@code ARROW:schema} footer entry: base64 of {@code FFFFFFFF}, a u32 LE length and an Arrow IPC
 * {@code Message} whose header is the envelope's Arrow schema. Arrow-based readers (mirror-v3, pyarrow,
 * DataFusion) take column types from it, so bytes columns read as LargeBinary and offset as UInt64.
 *
 * <p>The flatbuffer is built in the same order as arrow-rs' {@code IpcSchemaEncoder} and
 * {@code IpcDataGenerator::schema_to_bytes} (field metadata, name, type, children; Message version V5,
 * header Schema, bodyLength 0) so the bytes follow what parquet-rs writes for the same schema.
 */
final class ArrowSchemaFooter {
    static final String KEY = "ARROW:schema";
    static final String EXTENSION_NAME = "ARROW:extension:name";
    static final String EXTENSION_METADATA = "ARROW:extension:metadata";
    static final String JSON_EXTENSION = "arrow.json";
    /** mirror-v3's later variant: a Utf8 key/value column holding base64 of the bytes. */
    static final String BYTES_BASE64_EXTENSION = "mirror_v3.bytes_base64";

    private static final Map<ValueType, Map<ValueType, String>> ENCODED = new EnumMap<>(ValueType.class);

    static {
        for (ValueType k : ValueType.values()) {
            Map<ValueType, String> byValue = new EnumMap<>(ValueType.class);
            for (ValueType v : ValueType.values()) {
                byValue.put(v, encode(k, v));
            }
            ENCODED.put(k, byValue);
        }
    }

    private ArrowSchemaFooter() {
    }

    /** The footer value for our schema with these key/value types (computed once per pair). */
    static String forTypes(ValueType keysType, ValueType valuesType) {
        return ENCODED.get(keysType).get(valuesType);
    }

    /** How a binary column's stored bytes map to the record's bytes. */
    enum StoredBytes {
        /** The stored bytes are the record's bytes (LargeBinary, plain Utf8, arrow.json). */
        VERBATIM,
        /** The stored text is base64 of the record's bytes (mirror-v3's {@code mirror_v3.bytes_base64}). */
        BASE64
    }

    /** What a file's {@code ARROW:schema} says about the key, value and header value columns. */
    record PayloadEncodings(StoredBytes key, StoredBytes value, StoredBytes headerValue) {
        static final PayloadEncodings VERBATIM =
                new PayloadEncodings(StoredBytes.VERBATIM, StoredBytes.VERBATIM, StoredBytes.VERBATIM);
    }

    /**
     * Reads the extension tags of a file's {@code ARROW:schema}; a file without one holds verbatim bytes.
     *
     * @throws IllegalArgumentException if the entry is not a readable Arrow IPC schema message
     */
    static PayloadEncodings payloadEncodings(String footerValue) {
        if (footerValue == null) {
            return PayloadEncodings.VERBATIM;
        }
        Schema schema = parse(footerValue);
        StoredBytes key = StoredBytes.VERBATIM;
        StoredBytes value = StoredBytes.VERBATIM;
        StoredBytes headerValue = StoredBytes.VERBATIM;
        try {
            for (int i = 0; i < schema.fieldsLength(); i++) {
                Field f = schema.fields(i);
                switch (String.valueOf(f.name())) {
                    case EnvelopeSchema.KEY -> key = storedBytes(f);
                    case EnvelopeSchema.VALUE -> value = storedBytes(f);
                    case EnvelopeSchema.HEADERS -> headerValue = headerValueEncoding(f);
                    default -> { }
                }
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(KEY + " has a damaged schema (" + e + ")", e);
        }
        return new PayloadEncodings(key, value, headerValue);
    }

    /** Decodes the footer value to the IPC Schema table. */
    static Schema parse(String footerValue) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(footerValue.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(KEY + " is not base64", e);
        }
        ByteBuffer buf = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        // Current IPC framing is FFFFFFFF + length; the legacy one is the length alone.
        if (buf.remaining() >= 4 && buf.getInt(0) == -1) {
            buf.position(4);
        }
        if (buf.remaining() < 4) {
            throw new IllegalArgumentException(KEY + " is too short");
        }
        int len = buf.getInt();
        if (len <= 0 || len > buf.remaining()) {
            throw new IllegalArgumentException(KEY + " has message length " + len + " but " + buf.remaining() + " bytes follow");
        }
        ByteBuffer msgBuf = buf.slice().order(ByteOrder.LITTLE_ENDIAN);
        msgBuf.limit(len);
        try {
            Message message = Message.getRootAsMessage(msgBuf);
            if (message.headerType() != MessageHeader.Schema) {
                throw new IllegalArgumentException(KEY + " holds an IPC message of header type " + message.headerType() + ", not Schema");
            }
            Schema schema = (Schema) message.header(new Schema());
            if (schema == null) {
                throw new IllegalArgumentException(KEY + " holds no schema");
            }
            ArrowSchemaShape.check(message, schema);
            return schema;
        } catch (IllegalArgumentException e) {
            if (String.valueOf(e.getMessage()).startsWith(KEY + " ")) {
                throw e;
            }
            throw new IllegalArgumentException(KEY + " is not a valid Arrow IPC message (" + e + ")", e);
        } catch (RuntimeException e) {
            // A damaged flatbuffer shows up as out-of-bounds reads or the like.
            throw new IllegalArgumentException(KEY + " is not a valid Arrow IPC message (" + e + ")", e);
        }
    }

    private static StoredBytes storedBytes(Field f) {
        boolean text = f.typeType() == Type.Utf8 || f.typeType() == Type.LargeUtf8;
        return text && BYTES_BASE64_EXTENSION.equals(metadata(f).get(EXTENSION_NAME)) ? StoredBytes.BASE64 : StoredBytes.VERBATIM;
    }

    private static StoredBytes headerValueEncoding(Field headers) {
        if (headers.childrenLength() != 1) {
            return StoredBytes.VERBATIM;
        }
        Field item = headers.children(0);
        for (int i = 0; i < item.childrenLength(); i++) {
            Field child = item.children(i);
            if (EnvelopeSchema.HEADER_VALUE.equals(child.name())) {
                return storedBytes(child);
            }
        }
        return StoredBytes.VERBATIM;
    }

    static Map<String, String> metadata(Field f) {
        Map<String, String> md = new LinkedHashMap<>();
        for (int i = 0; i < f.customMetadataLength(); i++) {
            KeyValue kv = f.customMetadata(i);
            md.put(kv.key(), kv.value());
        }
        return md;
    }

    // ---- building ----

    private static String encode(ValueType keysType, ValueType valuesType) {
        byte[] message = schemaMessage(keysType, valuesType);
        ByteBuffer framed = ByteBuffer.allocate(8 + message.length).order(ByteOrder.LITTLE_ENDIAN);
        framed.putInt(-1).putInt(message.length).put(message);
        return Base64.getEncoder().encodeToString(framed.array());
    }

    static byte[] schemaMessage(ValueType keysType, ValueType valuesType) {
        FlatBufferBuilder b = new FlatBufferBuilder(1024);
        int[] fields = {
            utf8(b, EnvelopeSchema.TOPIC, false, null),
            integer(b, EnvelopeSchema.PARTITION, 32, true, false),
            integer(b, EnvelopeSchema.OFFSET, 64, false, false),
            integer(b, EnvelopeSchema.TIMESTAMP_MS, 64, true, true),
            utf8(b, EnvelopeSchema.TIMESTAMP_TYPE, false, null),
            payload(b, EnvelopeSchema.KEY, keysType),
            payload(b, EnvelopeSchema.VALUE, valuesType),
            headers(b),
        };
        int fieldsVector = Schema.createFieldsVector(b, fields);
        Schema.startSchema(b);
        Schema.addFields(b, fieldsVector);
        int schema = Schema.endSchema(b);

        Message.startMessage(b);
        Message.addVersion(b, MetadataVersion.V5);
        Message.addHeaderType(b, MessageHeader.Schema);
        Message.addBodyLength(b, 0);
        Message.addHeader(b, schema);
        b.finish(Message.endMessage(b));
        return b.sizedByteArray();
    }

    private static int payload(FlatBufferBuilder b, String name, ValueType type) {
        return switch (type) {
            case BYTES -> largeBinary(b, name, true);
            case UTF8 -> utf8(b, name, true, null);
            case JSON -> utf8(b, name, true, JSON_EXTENSION);
        };
    }

    /** {@code List<Struct<key: Utf8 not null, value: LargeBinary>>}, list field {@code item} nullable, as arrow-rs. */
    private static int headers(FlatBufferBuilder b) {
        int name = b.createString(EnvelopeSchema.HEADERS);
        int item = headerItem(b);
        int listType = emptyTable(b, org.apache.arrow.flatbuf.List::startList, org.apache.arrow.flatbuf.List::endList);
        int children = Field.createChildrenVector(b, new int[] {item});
        return field(b, name, Type.List, false, children, listType, 0);
    }

    private static int headerItem(FlatBufferBuilder b) {
        int name = b.createString(EnvelopeSchema.HEADER_ITEM);
        int key = utf8(b, EnvelopeSchema.HEADER_KEY, false, null);
        int value = largeBinary(b, EnvelopeSchema.HEADER_VALUE, true);
        int structType = emptyTable(b, Struct_::startStruct_, Struct_::endStruct_);
        int children = Field.createChildrenVector(b, new int[] {key, value});
        return field(b, name, Type.Struct_, true, children, structType, 0);
    }

    private static int utf8(FlatBufferBuilder b, String fieldName, boolean nullable, String extension) {
        int metadata = extension == null ? 0 : extensionMetadata(b, extension);
        int name = b.createString(fieldName);
        int type = emptyTable(b, Utf8::startUtf8, Utf8::endUtf8);
        int children = Field.createChildrenVector(b, new int[0]);
        return field(b, name, Type.Utf8, nullable, children, type, metadata);
    }

    private static int largeBinary(FlatBufferBuilder b, String fieldName, boolean nullable) {
        int name = b.createString(fieldName);
        int type = emptyTable(b, LargeBinary::startLargeBinary, LargeBinary::endLargeBinary);
        int children = Field.createChildrenVector(b, new int[0]);
        return field(b, name, Type.LargeBinary, nullable, children, type, 0);
    }

    private static int integer(FlatBufferBuilder b, String fieldName, int bitWidth, boolean signed, boolean nullable) {
        int name = b.createString(fieldName);
        int children = Field.createChildrenVector(b, new int[0]);
        Int.startInt(b);
        Int.addIsSigned(b, signed);
        Int.addBitWidth(b, bitWidth);
        int type = Int.endInt(b);
        return field(b, name, Type.Int, nullable, children, type, 0);
    }

    private static int extensionMetadata(FlatBufferBuilder b, String extension) {
        int[] kvs = {
            keyValue(b, EXTENSION_NAME, extension),
            keyValue(b, EXTENSION_METADATA, ""),
        };
        return Field.createCustomMetadataVector(b, kvs);
    }

    private static int keyValue(FlatBufferBuilder b, String key, String value) {
        int k = b.createString(key);
        int v = b.createString(value);
        return KeyValue.createKeyValue(b, k, v);
    }

    private static int field(FlatBufferBuilder b, int name, byte typeType, boolean nullable, int children, int type, int metadata) {
        Field.startField(b);
        Field.addName(b, name);
        Field.addTypeType(b, typeType);
        Field.addNullable(b, nullable);
        Field.addChildren(b, children);
        Field.addType(b, type);
        if (metadata != 0) {
            Field.addCustomMetadata(b, metadata);
        }
        return Field.endField(b);
    }

    private interface TableStart {
        void start(FlatBufferBuilder b);
    }

    private interface TableEnd {
        int end(FlatBufferBuilder b);
    }

    private static int emptyTable(FlatBufferBuilder b, TableStart start, TableEnd end) {
        start.start(b);
        return end.end(b);
    }
}
