package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Any records of one partition survive encode/decode in both formats, with every compression. */
class EnvelopeRoundTripPropertiesTest {

    @Property(tries = 150)
    void parquetBytesRoundTrip(@ForAll("records") List<BackupRecord> records, @ForAll Compression compression) {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(new EnvelopeSettings(EnvelopeFormat.PARQUET, compression, ValueType.BYTES,
                ValueType.BYTES));
        assertThat(codec.decode(codec.encode(records), "p")).containsExactlyElementsOf(records);
    }

    @Property(tries = 150)
    void ndjsonBytesRoundTrip(@ForAll("records") List<BackupRecord> records) {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED,
                ValueType.BYTES, ValueType.BYTES));
        assertThat(codec.decode(codec.encode(records), "n")).containsExactlyElementsOf(records);
    }

    @Property(tries = 100)
    void utf8RoundTripInBothFormats(@ForAll("textRecords") List<BackupRecord> records, @ForAll EnvelopeFormat format) {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(new EnvelopeSettings(format, Compression.ZSTD, ValueType.UTF8, ValueType.UTF8));
        assertThat(codec.decode(codec.encode(records), "u")).containsExactlyElementsOf(records);
    }

    @Provide
    Arbitrary<List<BackupRecord>> records() {
        return recordsWith(Arbitraries.bytes().array(byte[].class).ofMaxSize(300));
    }

    @Provide
    Arbitrary<List<BackupRecord>> textRecords() {
        return recordsWith(Arbitraries.strings().ofMaxLength(80).map(s -> s.getBytes(StandardCharsets.UTF_8))
                .filter(b -> new String(b, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8).length == b.length));
    }

    private static Arbitrary<List<BackupRecord>> recordsWith(Arbitrary<byte[]> payloads) {
        Arbitrary<RecordHeader> header = Combinators.combine(
                Arbitraries.strings().ofMaxLength(12).filter(ValidUtf16::isWellFormed),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(20).injectNull(0.2))
                .as(RecordHeader::new);
        Arbitrary<BackupRecord> record = Combinators.combine(
                Arbitraries.longs().between(0, Long.MAX_VALUE),
                Arbitraries.longs().injectNull(0.2),
                Arbitraries.of(TimestampType.class),
                payloads.injectNull(0.2),
                payloads.injectNull(0.2),
                header.list().ofMaxSize(4))
                .as((offset, ts, tt, key, value, headers) ->
                        new BackupRecord("topic-\u00e9", 7, offset, ts, tt, key, value, headers));
        return record.list().ofMinSize(1).ofMaxSize(30);
    }

    /** Header keys are Java strings; lone surrogates cannot be stored as UTF-8, so they are not generated. */
    private static final class ValidUtf16 {
        static boolean isWellFormed(String s) {
            return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(s);
        }
    }
}
