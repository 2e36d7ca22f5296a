package dev.mirrorv3.chain.envelope;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.flatbuf.Endianness;
import org.apache.arrow.flatbuf.Field;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.Schema;
import org.apache.arrow.flatbuf.Type;

/**
 * The shapes of {@code ARROW:schema} that mirror-v3 and this project write, checked before the reader trusts a footer.
 *
 * <p>The entry has no checksum and decides how key and value bytes are decoded, so a damaged footer must not be read
 * as a different but plausible one: every field the reader uses (names, order, the payload columns' types, children
 * and extension tags) must be one of the written shapes, and anything else is refused. What remains undetectable is a
 * damage that turns one written shape into another (docs/decisions.md, "A damaged ARROW:schema").
 */
final class ArrowSchemaShape {
    private static final List<String> FIELDS = List.of(EnvelopeSchema.TOPIC, EnvelopeSchema.PARTITION,
            EnvelopeSchema.OFFSET, EnvelopeSchema.TIMESTAMP_MS, EnvelopeSchema.TIMESTAMP_TYPE, EnvelopeSchema.KEY,
            EnvelopeSchema.VALUE, EnvelopeSchema.HEADERS);
    private static final Set<Byte> TEXT = Set.of(Type.Utf8, Type.LargeUtf8);
    private static final Set<Byte> PAYLOAD = Set.of(Type.Utf8, Type.LargeUtf8, Type.Binary, Type.LargeBinary);
    private static final Set<String> EXTENSIONS =
            Set.of(ArrowSchemaFooter.JSON_EXTENSION, ArrowSchemaFooter.BYTES_BASE64_EXTENSION);

    private ArrowSchemaShape() {
    }

    /** @throws IllegalArgumentException naming what is not a written shape */
    static void check(Message message, Schema schema) {
        if (message.version() != MetadataVersion.V4 && message.version() != MetadataVersion.V5) {
            throw refused("has IPC metadata version " + message.version() + ", not V4 or V5");
        }
        if (message.bodyLength() != 0 || schema.endianness() != Endianness.Little) {
            throw refused("is not a little-endian schema message without a body");
        }
        if (schema.fieldsLength() != FIELDS.size()) {
            throw refused("has " + schema.fieldsLength() + " fields, not the envelope's " + FIELDS.size());
        }
        for (int i = 0; i < FIELDS.size(); i++) {
            Field f = schema.fields(i);
            if (!FIELDS.get(i).equals(f.name())) {
                throw refused("has field '" + f.name() + "' where the envelope has '" + FIELDS.get(i) + "'");
            }
        }
        payload(schema.fields(FIELDS.indexOf(EnvelopeSchema.KEY)), EnvelopeSchema.KEY);
        payload(schema.fields(FIELDS.indexOf(EnvelopeSchema.VALUE)), EnvelopeSchema.VALUE);
        headers(schema.fields(FIELDS.indexOf(EnvelopeSchema.HEADERS)));
    }

    private static void headers(Field headers) {
        if (headers.typeType() != Type.List || headers.childrenLength() != 1 || headers.customMetadataLength() != 0) {
            throw refused("field 'headers' is not a list of one child");
        }
        Field item = headers.children(0);
        if (item.typeType() != Type.Struct_ || item.childrenLength() != 2 || item.customMetadataLength() != 0
                || !EnvelopeSchema.HEADER_KEY.equals(item.children(0).name())
                || !EnvelopeSchema.HEADER_VALUE.equals(item.children(1).name())) {
            throw refused("field 'headers' does not hold structs of 'key' and 'value'");
        }
        if (!TEXT.contains(item.children(0).typeType()) || item.children(0).childrenLength() != 0
                || item.children(0).customMetadataLength() != 0) {
            throw refused("field 'headers.key' is not plain text");
        }
        payload(item.children(1), "headers.value");
    }

    private static void payload(Field f, String name) {
        if (!PAYLOAD.contains(f.typeType()) || f.childrenLength() != 0 || f.dictionary() != null) {
            throw refused("field '" + name + "' is of type " + typeName(f) + ", not text or bytes");
        }
        Map<String, String> metadata = ArrowSchemaFooter.metadata(f);
        if (metadata.size() != f.customMetadataLength()) {
            throw refused("field '" + name + "' repeats a metadata key");
        }
        if (metadata.isEmpty()) {
            return;
        }
        String extension = metadata.get(ArrowSchemaFooter.EXTENSION_NAME);
        if (metadata.size() != 2 || !EXTENSIONS.contains(extension)
                || !metadata.containsKey(ArrowSchemaFooter.EXTENSION_METADATA)) {
            throw refused("field '" + name + "' has metadata " + metadata.keySet() + " with extension '" + extension
                    + "', not one of " + EXTENSIONS);
        }
        if (!TEXT.contains(f.typeType())) {
            throw refused("field '" + name + "' is tagged " + extension + " but is of type " + typeName(f));
        }
    }

    private static String typeName(Field f) {
        int t = f.typeType() & 0xff;
        return t < Type.names.length ? Type.names[t] : "#" + t;
    }

    private static IllegalArgumentException refused(String what) {
        return new IllegalArgumentException(ArrowSchemaFooter.KEY + " " + what
                + ": the footer is damaged or was not written by mirror-v3");
    }
}
