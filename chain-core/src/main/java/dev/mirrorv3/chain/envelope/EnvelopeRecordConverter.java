package dev.mirrorv3.chain.envelope;

import dev.mirrorv3.chain.envelope.ArrowSchemaFooter.PayloadEncodings;
import dev.mirrorv3.chain.envelope.ArrowSchemaFooter.StoredBytes;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;

/**
 * Root converter for the projection of {@link ParquetEnvelopeReadSupport#projection}: field indexes are
 * fixed (topic 0 ... headers 7). Low-cardinality string columns decode each dictionary entry once.
 */
final class EnvelopeRecordConverter extends GroupConverter {
    private final Converter[] fields;
    private final HeadersConverter headers;

    private String topic;
    private int partition;
    private long offset;
    private Long timestampMs;
    private TimestampType timestampType;
    private byte[] key;
    private byte[] value;
    private BackupRecord current;

    EnvelopeRecordConverter(MessageType projection, PayloadEncodings encodings) {
        headers = new HeadersConverter(projection.getType(7).asGroupType(), encodings.headerValue());
        fields = new Converter[] {
            new DictionaryStringConverter<>(s -> s, s -> topic = s),
            new PrimitiveConverter() {
                @Override
                public void addInt(int v) {
                    partition = v;
                }
            },
            new PrimitiveConverter() {
                @Override
                public void addLong(long v) {
                    offset = v;
                }
            },
            new PrimitiveConverter() {
                @Override
                public void addLong(long v) {
                    timestampMs = v;
                }
            },
            new DictionaryStringConverter<>(TimestampType::fromStored, t -> timestampType = t),
            new BytesConverter(EnvelopeSchema.KEY, encodings.key(), b -> key = b),
            new BytesConverter(EnvelopeSchema.VALUE, encodings.value(), b -> value = b),
            headers,
        };
    }

    BackupRecord current() {
        return current;
    }

    @Override
    public Converter getConverter(int fieldIndex) {
        return fields[fieldIndex];
    }

    @Override
    public void start() {
        topic = null;
        partition = 0;
        offset = 0;
        timestampMs = null;
        timestampType = TimestampType.NOT_AVAILABLE;
        key = null;
        value = null;
    }

    @Override
    public void end() {
        current = new BackupRecord(topic, partition, offset, timestampMs, timestampType, key, value, headers.take());
    }

    /** A UTF-8 column decoded to T once per dictionary entry (or per value when not dictionary-encoded). */
    private static final class DictionaryStringConverter<T> extends PrimitiveConverter {
        private final Function<String, T> decode;
        private final Consumer<T> sink;
        private Object[] dictionary;

        DictionaryStringConverter(Function<String, T> decode, Consumer<T> sink) {
            this.decode = decode;
            this.sink = sink;
        }

        @Override
        public boolean hasDictionarySupport() {
            return true;
        }

        @Override
        public void setDictionary(Dictionary d) {
            dictionary = new Object[d.getMaxId() + 1];
            for (int i = 0; i <= d.getMaxId(); i++) {
                dictionary[i] = decode.apply(d.decodeToBinary(i).toStringUsingUTF8());
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public void addValueFromDictionary(int id) {
            sink.accept((T) dictionary[id]);
        }

        @Override
        public void addBinary(Binary v) {
            sink.accept(decode.apply(v.toStringUsingUTF8()));
        }
    }

    /** Key, value or header value: copied bytes, or base64-decoded for mirror-v3's base64 variant. */
    private static final class BytesConverter extends PrimitiveConverter {
        private final String column;
        private final StoredBytes stored;
        private final Consumer<byte[]> sink;

        BytesConverter(String column, StoredBytes stored, Consumer<byte[]> sink) {
            this.column = column;
            this.stored = stored;
            this.sink = sink;
        }

        @Override
        public void addBinary(Binary v) {
            if (stored == StoredBytes.VERBATIM) {
                sink.accept(v.getBytes());
                return;
            }
            try {
                sink.accept(Base64.getDecoder().decode(v.getBytesUnsafe()));
            } catch (IllegalArgumentException e) {
                throw new EnvelopeDecodeException("column '" + column + "' is tagged " + ArrowSchemaFooter.BYTES_BASE64_EXTENSION
                        + " but holds a value that is not base64: " + e.getMessage(), e);
            }
        }
    }

    /** A group whose start and end mean nothing to the record: it only hands each field to that field's converter. */
    private static class FieldsOnly extends GroupConverter {
        private final Converter[] fields;

        FieldsOnly(Converter... fields) {
            this.fields = fields;
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return fields[fieldIndex];
        }

        @Override
        public void start() {
        }

        @Override
        public void end() {
        }
    }

    /** {@code headers (LIST) { repeated group list { optional group item { key; value } } }}. */
    private static final class HeadersConverter extends FieldsOnly {
        private final List<RecordHeader> collected;

        HeadersConverter(GroupType headersType, StoredBytes valueStored) {
            this(headersType.getType(0).asGroupType().getType(0).asGroupType(), valueStored, new ArrayList<>());
        }

        private HeadersConverter(GroupType item, StoredBytes valueStored, List<RecordHeader> collected) {
            super(new FieldsOnly(new ItemConverter(item, valueStored, collected::add)));
            this.collected = collected;
        }

        /** The headers of the record just read; most records have none, so share the empty list. */
        List<RecordHeader> take() {
            if (collected.isEmpty()) {
                return List.of();
            }
            List<RecordHeader> out = List.copyOf(collected);
            collected.clear();
            return out;
        }
    }

    private static final class ItemConverter extends GroupConverter {
        private final Converter[] fields;
        private final Consumer<RecordHeader> sink;
        private String key;
        private byte[] value;

        ItemConverter(GroupType item, StoredBytes valueStored, Consumer<RecordHeader> sink) {
            this.sink = sink;
            fields = new Converter[item.getFieldCount()];
            for (int i = 0; i < fields.length; i++) {
                String name = item.getFieldName(i);
                if (name.equals(EnvelopeSchema.HEADER_KEY)) {
                    fields[i] = new PrimitiveConverter() {
                        @Override
                        public void addBinary(Binary v) {
                            key = v.toStringUsingUTF8();
                        }
                    };
                } else if (name.equals(EnvelopeSchema.HEADER_VALUE) && item.getType(i).isPrimitive()) {
                    fields[i] = new BytesConverter("headers.value", valueStored, b -> value = b);
                } else {
                    fields[i] = IgnoredColumn.of(item.getType(i));
                }
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return fields[fieldIndex];
        }

        @Override
        public void start() {
            key = null;
            value = null;
        }

        @Override
        public void end() {
            if (key == null) {
                throw new EnvelopeDecodeException("a header has no key");
            }
            sink.accept(new RecordHeader(key, value));
        }
    }

    /** Swallows a column we do not read (only inside header items; top-level extras are projected away). */
    private static final class IgnoredColumn {
        private IgnoredColumn() {
        }

        static Converter of(org.apache.parquet.schema.Type type) {
            if (type.isPrimitive()) {
                return new PrimitiveConverter() {
                    @Override
                    public void addBinary(Binary v) {
                    }

                    @Override
                    public void addBoolean(boolean v) {
                    }

                    @Override
                    public void addDouble(double v) {
                    }

                    @Override
                    public void addFloat(float v) {
                    }

                    @Override
                    public void addInt(int v) {
                    }

                    @Override
                    public void addLong(long v) {
                    }
                };
            }
            GroupType g = type.asGroupType();
            Converter[] children = new Converter[g.getFieldCount()];
            for (int i = 0; i < children.length; i++) {
                children[i] = of(g.getType(i));
            }
            return new FieldsOnly(children);
        }
    }
}
