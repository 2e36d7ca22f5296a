/**
 * Envelope codecs: how one object's records are stored, matching mirror-v3's columns and footer (docs/architecture.md).
 *
 * <p>{@link dev.mirrorv3.chain.envelope.EnvelopeCodecs#forSettings} gives the codec for a chain's settings:
 * <ul>
 *   <li>{@link dev.mirrorv3.chain.envelope.ParquetCodec}: mirror-v3's columns and Parquet types, root
 *       {@code arrow_schema}, one row group per object, ZSTD level 1 / Snappy / uncompressed. Key/value
 *       physical types follow {@code keys.type}/{@code values.type} (BINARY, STRING, JSON). The footer's only
 *       entry is {@code ARROW:schema}, so arrow readers see LargeBinary/Utf8/arrow.json and UInt64 offsets.
 *       Dictionaries stay on the low-cardinality columns only and min/max statistics are off for
 *       key/value/header value: both cost encode time and buy nothing on (near) unique bytes.
 *       Decoding follows the file's own schema, so it reads our objects and both mirror-v3 variants
 *       (LargeBinary, and Utf8 with {@code mirror_v3.bytes_base64}-tagged base64).</li>
 *   <li>{@link dev.mirrorv3.chain.envelope.NdjsonCodec}: one compact JSON object per line, nulls omitted,
 *       base64 for {@code bytes} and for header values. NDJSON has no type tag, so decoding follows the
 *       settings.</li>
 * </ul>
 * Keys and values that do not fit their declared type are refused with
 * {@link dev.mirrorv3.chain.envelope.ValueTypeException}; unreadable objects fail with
 * {@link dev.mirrorv3.chain.envelope.EnvelopeDecodeException} naming the object.
 */
package dev.mirrorv3.chain.envelope;
