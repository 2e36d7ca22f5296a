package dev.mirrorv3.chain.envelope;

import dev.mirrorv3.chain.envelope.ArrowSchemaFooter.PayloadEncodings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.InitContext;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Reads envelope columns by name (any order, extra columns ignored) into {@link BackupRecord}s. Whether
 * key/value hold raw bytes or base64 text comes from the file's own {@code ARROW:schema}, not from the
 * reader's settings, so both mirror-v3 variants and our own files decode.
 */
final class ParquetEnvelopeReadSupport extends ReadSupport<BackupRecord> {

    @Override
    public ReadContext init(InitContext context) {
        return new ReadContext(projection(context.getFileSchema()));
    }

    /** Our eight columns, in our order, with the file's own types (checked). */
    static MessageType projection(MessageType file) {
        List<Type> fields = new ArrayList<>();
        fields.add(primitive(file, EnvelopeSchema.TOPIC, PrimitiveTypeName.BINARY));
        fields.add(primitive(file, EnvelopeSchema.PARTITION, PrimitiveTypeName.INT32));
        fields.add(primitive(file, EnvelopeSchema.OFFSET, PrimitiveTypeName.INT64));
        fields.add(primitive(file, EnvelopeSchema.TIMESTAMP_MS, PrimitiveTypeName.INT64));
        fields.add(primitive(file, EnvelopeSchema.TIMESTAMP_TYPE, PrimitiveTypeName.BINARY));
        fields.add(primitive(file, EnvelopeSchema.KEY, PrimitiveTypeName.BINARY));
        fields.add(primitive(file, EnvelopeSchema.VALUE, PrimitiveTypeName.BINARY));
        fields.add(headers(file));
        return new MessageType(file.getName(), fields);
    }

    private static Type column(MessageType file, String name) {
        if (!file.containsField(name)) {
            throw new EnvelopeDecodeException("missing column '" + name + "' (schema: " + oneLine(file) + ")");
        }
        return file.getType(name);
    }

    private static Type primitive(MessageType file, String name, PrimitiveTypeName expected) {
        Type t = column(file, name);
        if (!t.isPrimitive() || t.asPrimitiveType().getPrimitiveTypeName() != expected || t.isRepetition(Type.Repetition.REPEATED)) {
            throw new EnvelopeDecodeException("column '" + name + "' is " + t + ", expected " + expected);
        }
        return t;
    }

    /** {@code headers} must be a three-level list of groups holding a {@code key} column. */
    private static Type headers(MessageType file) {
        Type t = column(file, EnvelopeSchema.HEADERS);
        String problem = null;
        if (t.isPrimitive() || t.asGroupType().getFieldCount() != 1) {
            problem = "not a list group";
        } else {
            Type repeated = t.asGroupType().getType(0);
            if (repeated.isPrimitive() || !repeated.isRepetition(Type.Repetition.REPEATED) || repeated.asGroupType().getFieldCount() != 1) {
                problem = "not a three-level list";
            } else {
                Type item = repeated.asGroupType().getType(0);
                if (item.isPrimitive() || !((GroupType) item).containsField(EnvelopeSchema.HEADER_KEY)) {
                    problem = "list items are not {key, value} groups";
                }
            }
        }
        if (problem != null) {
            throw new EnvelopeDecodeException("column 'headers' is " + problem + ": " + oneLine(t));
        }
        return t;
    }

    private static String oneLine(Type t) {
        return t.toString().replaceAll("\\s+", " ").trim();
    }

    @Override
    public RecordMaterializer<BackupRecord> prepareForRead(
            ParquetConfiguration configuration, Map<String, String> keyValueMetaData, MessageType fileSchema, ReadContext readContext) {
        PayloadEncodings encodings;
        try {
            encodings = ArrowSchemaFooter.payloadEncodings(keyValueMetaData.get(ArrowSchemaFooter.KEY));
        } catch (IllegalArgumentException e) {
            throw new EnvelopeDecodeException("unreadable " + ArrowSchemaFooter.KEY + " footer entry: " + e.getMessage(), e);
        }
        EnvelopeRecordConverter root = new EnvelopeRecordConverter(readContext.getRequestedSchema(), encodings);
        return new RecordMaterializer<>() {
            @Override
            public BackupRecord getCurrentRecord() {
                return root.current();
            }

            @Override
            public EnvelopeRecordConverter getRootConverter() {
                return root;
            }
        };
    }

    @Override
    @SuppressWarnings("deprecation")
    public RecordMaterializer<BackupRecord> prepareForRead(
            Configuration configuration, Map<String, String> keyValueMetaData, MessageType fileSchema, ReadContext readContext) {
        return prepareForRead((ParquetConfiguration) null, keyValueMetaData, fileSchema, readContext);
    }
}
