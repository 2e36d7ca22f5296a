package dev.mirrorv3.chain.envelope;

import static org.apache.parquet.schema.LogicalTypeAnnotation.intType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.jsonType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.listType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.stringType;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT32;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64;

import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Types;

/** mirror-v3's envelope column names and the Parquet schema arrow-rs derives from its Arrow schema. */
final class EnvelopeSchema {
    static final String ROOT = "arrow_schema";
    static final String TOPIC = "topic";
    static final String PARTITION = "partition";
    static final String OFFSET = "offset";
    static final String TIMESTAMP_MS = "timestamp_ms";
    static final String TIMESTAMP_TYPE = "timestamp_type";
    static final String KEY = "key";
    static final String VALUE = "value";
    static final String HEADERS = "headers";
    static final String HEADER_LIST = "list";
    static final String HEADER_ITEM = "item";
    static final String HEADER_KEY = "key";
    static final String HEADER_VALUE = "value";

    private EnvelopeSchema() {
    }

    static MessageType parquetSchema(ValueType keysType, ValueType valuesType) {
        return Types.buildMessage()
                .required(BINARY).as(stringType()).named(TOPIC)
                .required(INT32).named(PARTITION)
                .required(INT64).as(intType(64, false)).named(OFFSET)
                .optional(INT64).named(TIMESTAMP_MS)
                .required(BINARY).as(stringType()).named(TIMESTAMP_TYPE)
                .addField(payloadColumn(KEY, keysType))
                .addField(payloadColumn(VALUE, valuesType))
                .requiredGroup().as(listType())
                    .repeatedGroup()
                        .optionalGroup()
                            .required(BINARY).as(stringType()).named(HEADER_KEY)
                            .optional(BINARY).named(HEADER_VALUE)
                        .named(HEADER_ITEM)
                    .named(HEADER_LIST)
                .named(HEADERS)
                .named(ROOT);
    }

    private static PrimitiveType payloadColumn(String name, ValueType type) {
        return switch (type) {
            case BYTES -> Types.optional(BINARY).named(name);
            case UTF8 -> Types.optional(BINARY).as(stringType()).named(name);
            case JSON -> Types.optional(BINARY).as(jsonType()).named(name);
        };
    }
}
