package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Our {@code ARROW:schema} read back by Arrow Java's own IPC code. */
class ArrowSchemaFooterTest {

    @ParameterizedTest
    @EnumSource(ValueType.class)
    void arrowJavaSeesTheIntendedTypes(ValueType payloadType) {
        Schema schema = parse(ArrowSchemaFooter.forTypes(payloadType, payloadType));

        assertThat(schema.getFields()).extracting(Field::getName).containsExactly(
                "topic", "partition", "offset", "timestamp_ms", "timestamp_type", "key", "value", "headers");
        assertField(schema.findField("topic"), ArrowType.Utf8.INSTANCE, false);
        assertField(schema.findField("partition"), new ArrowType.Int(32, true), false);
        assertField(schema.findField("offset"), new ArrowType.Int(64, false), false);
        assertField(schema.findField("timestamp_ms"), new ArrowType.Int(64, true), true);
        assertField(schema.findField("timestamp_type"), ArrowType.Utf8.INSTANCE, false);
        for (String name : List.of("key", "value")) {
            Field f = schema.findField(name);
            switch (payloadType) {
                case BYTES -> {
                    assertField(f, ArrowType.LargeBinary.INSTANCE, true);
                    assertThat(f.getMetadata()).isEmpty();
                }
                case UTF8 -> {
                    assertField(f, ArrowType.Utf8.INSTANCE, true);
                    assertThat(f.getMetadata()).isEmpty();
                }
                case JSON -> {
                    assertField(f, ArrowType.Utf8.INSTANCE, true);
                    assertThat(f.getMetadata()).containsExactlyInAnyOrderEntriesOf(Map.of(
                            "ARROW:extension:name", "arrow.json", "ARROW:extension:metadata", ""));
                }
            }
        }
        Field headers = schema.findField("headers");
        assertField(headers, ArrowType.List.INSTANCE, false);
        Field item = headers.getChildren().get(0);
        assertThat(headers.getChildren()).hasSize(1);
        assertThat(item.getName()).isEqualTo("item");
        assertField(item, ArrowType.Struct.INSTANCE, true);
        assertThat(item.getChildren()).extracting(Field::getName).containsExactly("key", "value");
        assertField(item.getChildren().get(0), ArrowType.Utf8.INSTANCE, false);
        assertField(item.getChildren().get(1), ArrowType.LargeBinary.INSTANCE, true);
        assertThat(schema.getCustomMetadata()).isEmpty();
    }

    @Test
    void framingIsContinuationMarkerLengthAndMessage() {
        byte[] raw = Base64.getDecoder().decode(ArrowSchemaFooter.forTypes(ValueType.BYTES, ValueType.BYTES));
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);

        assertThat(b.getInt(0)).isEqualTo(-1);
        assertThat(b.getInt(4)).isEqualTo(raw.length - 8);
        assertThat(ArrowSchemaFooter.schemaMessage(ValueType.BYTES, ValueType.BYTES)).hasSize(raw.length - 8);
        org.apache.arrow.flatbuf.Message m = org.apache.arrow.flatbuf.Message.getRootAsMessage(
                ByteBuffer.wrap(raw, 8, raw.length - 8).slice().order(ByteOrder.LITTLE_ENDIAN));
        assertThat(m.version()).isEqualTo(org.apache.arrow.flatbuf.MetadataVersion.V5);
        assertThat(m.bodyLength()).isZero();
    }

    @Test
    void isComputedOncePerTypePair() {
        assertThat(ArrowSchemaFooter.forTypes(ValueType.UTF8, ValueType.JSON))
                .isSameAs(ArrowSchemaFooter.forTypes(ValueType.UTF8, ValueType.JSON))
                .isNotEqualTo(ArrowSchemaFooter.forTypes(ValueType.JSON, ValueType.UTF8));
    }

    @Test
    void readsExtensionTagsWrittenByArrowJava() {
        String footer = MirrorV3Files.footerValue(MirrorV3Files.arrowSchema(ArrowType.Utf8.INSTANCE,
                ArrowSchemaFooter.BYTES_BASE64_EXTENSION, ArrowSchemaFooter.JSON_EXTENSION));
        assertThat(ArrowSchemaFooter.payloadEncodings(footer)).isEqualTo(new ArrowSchemaFooter.PayloadEncodings(
                ArrowSchemaFooter.StoredBytes.BASE64, ArrowSchemaFooter.StoredBytes.VERBATIM, ArrowSchemaFooter.StoredBytes.VERBATIM));
        assertThat(ArrowSchemaFooter.payloadEncodings(ArrowSchemaFooter.forTypes(ValueType.JSON, ValueType.BYTES)))
                .isEqualTo(ArrowSchemaFooter.PayloadEncodings.VERBATIM);
        assertThat(ArrowSchemaFooter.payloadEncodings(null)).isEqualTo(ArrowSchemaFooter.PayloadEncodings.VERBATIM);
    }

    @Test
    void damagedFooterIsRefusedWithAReason() {
        String original = ArrowSchemaFooter.forTypes(ValueType.BYTES, ValueType.BYTES);
        byte[] raw = Base64.getDecoder().decode(original);
        ArrowSchemaFooter.PayloadEncodings written = ArrowSchemaFooter.payloadEncodings(original);
        java.util.Random rnd = new java.util.Random(1);
        for (int i = 0; i < 200; i++) {
            byte[] bad = raw.clone();
            for (int j = 0; j < 4; j++) {
                bad[8 + rnd.nextInt(bad.length - 8)] = (byte) rnd.nextInt();
            }
            String footer = Base64.getEncoder().encodeToString(bad);
            ArrowSchemaFooter.PayloadEncodings read;
            try {
                read = ArrowSchemaFooter.payloadEncodings(footer);
            } catch (IllegalArgumentException e) {
                assertThat(e.getMessage()).as("damaged footer %d", i).startsWith("ARROW:schema ");
                continue;
            }
            // a damaged byte the reader never uses is harmless; a different answer without an error never is
            assertThat(read).as("damaged footer %d read without an error", i).isEqualTo(written);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ArrowSchemaFooter.payloadEncodings("not base64!"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("ARROW:schema is not base64");
    }

    private static Schema parse(String footer) {
        return Schema.deserializeMessage(ByteBuffer.wrap(Base64.getDecoder().decode(footer)));
    }

    private static void assertField(Field f, ArrowType type, boolean nullable) {
        assertThat(f.getType()).as(f.getName()).isEqualTo(type);
        assertThat(f.isNullable()).as(f.getName() + " nullable").isEqualTo(nullable);
    }
}
