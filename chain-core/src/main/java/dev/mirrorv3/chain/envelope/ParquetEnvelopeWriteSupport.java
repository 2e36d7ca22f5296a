package dev.mirrorv3.chain.envelope;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes {@link BackupRecord}s straight into parquet-mr's record consumer, in mirror-v3's column layout.
 * Key/value types are checked before a record's first column is written, so a refused record leaves
 * nothing half-written behind (the caller drops the whole object anyway).
 */
final class ParquetEnvelopeWriteSupport extends WriteSupport<BackupRecord> {
    private static final Binary[] TIMESTAMP_TYPES = new Binary[TimestampType.values().length];

    static {
        for (TimestampType t : TimestampType.values()) {
            TIMESTAMP_TYPES[t.ordinal()] = Binary.fromConstantByteArray(t.stored().getBytes(StandardCharsets.UTF_8));
        }
    }

    private final MessageType schema;
    private final String arrowSchema;
    private final ValueTypeGuard guard;
    private RecordConsumer out;
    // Records of one object share one topic: convert it once.
    private String lastTopic;
    private Binary lastTopicBinary;

    ParquetEnvelopeWriteSupport(ValueType keysType, ValueType valuesType) {
        this.schema = EnvelopeSchema.parquetSchema(keysType, valuesType);
        this.arrowSchema = ArrowSchemaFooter.forTypes(keysType, valuesType);
        this.guard = new ValueTypeGuard(keysType, valuesType);
    }

    @Override
    public WriteContext init(ParquetConfiguration configuration) {
        return new WriteContext(schema, Map.of(ArrowSchemaFooter.KEY, arrowSchema));
    }

    @Override
    @SuppressWarnings("deprecation")
    public WriteContext init(Configuration configuration) {
        return init((ParquetConfiguration) null);
    }

    @Override
    public String getName() {
        return "mirror-v3-envelope";
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.out = recordConsumer;
    }

    @Override
    public void write(BackupRecord r) {
        guard.check(r);
        out.startMessage();

        out.startField(EnvelopeSchema.TOPIC, 0);
        out.addBinary(topic(r.topic()));
        out.endField(EnvelopeSchema.TOPIC, 0);

        out.startField(EnvelopeSchema.PARTITION, 1);
        out.addInteger(r.partition());
        out.endField(EnvelopeSchema.PARTITION, 1);

        out.startField(EnvelopeSchema.OFFSET, 2);
        out.addLong(r.offset());
        out.endField(EnvelopeSchema.OFFSET, 2);

        if (r.timestampMs() != null) {
            out.startField(EnvelopeSchema.TIMESTAMP_MS, 3);
            out.addLong(r.timestampMs());
            out.endField(EnvelopeSchema.TIMESTAMP_MS, 3);
        }

        out.startField(EnvelopeSchema.TIMESTAMP_TYPE, 4);
        out.addBinary(TIMESTAMP_TYPES[r.timestampType().ordinal()]);
        out.endField(EnvelopeSchema.TIMESTAMP_TYPE, 4);

        optionalBytes(EnvelopeSchema.KEY, 5, r.key());
        optionalBytes(EnvelopeSchema.VALUE, 6, r.value());
        headers(r.headers());

        out.endMessage();
    }

    private void optionalBytes(String name, int index, byte[] bytes) {
        if (bytes != null) {
            out.startField(name, index);
            out.addBinary(Binary.fromConstantByteArray(bytes));
            out.endField(name, index);
        }
    }

    /** {@code headers (LIST) { repeated group list { optional group item { key; value } } }}; empty = no list entries. */
    private void headers(List<RecordHeader> headers) {
        out.startField(EnvelopeSchema.HEADERS, 7);
        out.startGroup();
        if (!headers.isEmpty()) {
            out.startField(EnvelopeSchema.HEADER_LIST, 0);
            for (RecordHeader h : headers) {
                out.startGroup();
                out.startField(EnvelopeSchema.HEADER_ITEM, 0);
                out.startGroup();
                out.startField(EnvelopeSchema.HEADER_KEY, 0);
                out.addBinary(Binary.fromString(h.key()));
                out.endField(EnvelopeSchema.HEADER_KEY, 0);
                if (h.value() != null) {
                    out.startField(EnvelopeSchema.HEADER_VALUE, 1);
                    out.addBinary(Binary.fromConstantByteArray(h.value()));
                    out.endField(EnvelopeSchema.HEADER_VALUE, 1);
                }
                out.endGroup();
                out.endField(EnvelopeSchema.HEADER_ITEM, 0);
                out.endGroup();
            }
            out.endField(EnvelopeSchema.HEADER_LIST, 0);
        }
        out.endGroup();
        out.endField(EnvelopeSchema.HEADERS, 7);
    }

    private Binary topic(String topic) {
        if (!topic.equals(lastTopic)) {
            lastTopic = topic;
            lastTopicBinary = Binary.fromConstantByteArray(topic.getBytes(StandardCharsets.UTF_8));
        }
        return lastTopicBinary;
    }
}
