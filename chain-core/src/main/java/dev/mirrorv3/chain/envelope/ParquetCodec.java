package dev.mirrorv3.chain.envelope;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.codec.ZstandardCodec;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

/**
 * Parquet objects in mirror-v3's envelope layout: one row group per object, the {@code ARROW:schema}
 * footer entry for arrow-based readers, ZSTD level 1 by default. Thread-safe: every call builds its own
 * writer or reader over an in-memory file.
 */
public final class ParquetCodec implements EnvelopeCodec {
    /** mirror-v3 writes ZSTD level 1 (arrow-rs {@code ZstdLevel::try_new(1)}). */
    static final int ZSTD_LEVEL = 1;
    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ENCRYPTED_MAGIC = "PARE".getBytes(StandardCharsets.US_ASCII);
    /** Never cut a row group by size: an object is one row group, as mirror-v3 writes it. */
    private static final long ROW_GROUP_BYTES = Long.MAX_VALUE;

    private final EnvelopeSettings settings;

    public ParquetCodec(EnvelopeSettings settings) {
        this.settings = settings;
    }

    @Override
    public EnvelopeFormat format() {
        return EnvelopeFormat.PARQUET;
    }

    /** The {@code ARROW:schema} footer value this codec writes (constant per key/value type). */
    public String arrowSchemaFooter() {
        return ArrowSchemaFooter.forTypes(settings.keysType(), settings.valuesType());
    }

    @Override
    public byte[] encode(List<BackupRecord> records) {
        if (records.isEmpty()) {
            throw new IllegalArgumentException("an object holds at least one record");
        }
        InMemoryOutputFile file = new InMemoryOutputFile(initialCapacity(records));
        try (ParquetWriter<BackupRecord> writer = writer(file)) {
            for (BackupRecord r : records) {
                writer.write(r);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing a Parquet object in memory failed", e);
        }
        return file.toByteArray();
    }

    private ParquetWriter<BackupRecord> writer(OutputFile file) throws IOException {
        PlainParquetConfiguration conf = new PlainParquetConfiguration();
        conf.setInt(ZstandardCodec.PARQUET_COMPRESS_ZSTD_LEVEL, ZSTD_LEVEL);
        return new WriterBuilder(file, settings.keysType(), settings.valuesType())
                .withConf(conf)
                .withCompressionCodec(codecName(settings.compression()))
                .withRowGroupSize(ROW_GROUP_BYTES)
                // Kafka keys/values are mostly distinct: a dictionary only costs time there. The
                // low-cardinality columns (topic, timestamp_type) keep theirs.
                .withDictionaryEncoding(EnvelopeSchema.KEY, false)
                .withDictionaryEncoding(EnvelopeSchema.VALUE, false)
                .build();
    }

    static CompressionCodecName codecName(Compression c) {
        return switch (c) {
            case ZSTD -> CompressionCodecName.ZSTD;
            case SNAPPY -> CompressionCodecName.SNAPPY;
            case UNCOMPRESSED -> CompressionCodecName.UNCOMPRESSED;
        };
    }

    private static int initialCapacity(List<BackupRecord> records) {
        long payload = 0;
        for (BackupRecord r : records) {
            payload += r.payloadBytes() + 32;
        }
        return (int) Math.min(64L << 20, payload / 2 + 64 * 1024);
    }

    @Override
    public List<BackupRecord> decode(byte[] data, String objectDescription) {
        checkFraming(data, objectDescription);
        try (ParquetReader<BackupRecord> reader = new ReaderBuilder(new InMemoryInputFile(data)).build()) {
            List<BackupRecord> out = new ArrayList<>();
            for (BackupRecord r = reader.read(); r != null; r = reader.read()) {
                out.add(r);
            }
            return out;
        } catch (IOException | RuntimeException e) {
            throw decodeFailure(objectDescription, e);
        }
    }

    private static void checkFraming(byte[] data, String objectDescription) {
        String problem = null;
        if (data.length < 12) {
            problem = "it is " + data.length + " bytes long, too short for a Parquet file";
        } else if (!Arrays.equals(data, 0, 4, MAGIC, 0, 4)) {
            problem = "it does not start with the Parquet magic PAR1";
        } else if (Arrays.equals(data, data.length - 4, data.length, ENCRYPTED_MAGIC, 0, 4)) {
            problem = "it has an encrypted footer (PARE) and this codec reads plain objects only";
        } else if (!Arrays.equals(data, data.length - 4, data.length, MAGIC, 0, 4)) {
            problem = "it does not end with the Parquet magic PAR1 (truncated?)";
        }
        if (problem != null) {
            throw new EnvelopeDecodeException("cannot read Parquet object " + objectDescription + ": " + problem);
        }
    }

    /** Our own decode errors keep their message; anything from parquet-mr is named and wrapped. */
    private static EnvelopeDecodeException decodeFailure(String objectDescription, Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof EnvelopeDecodeException ours) {
                return new EnvelopeDecodeException("cannot read Parquet object " + objectDescription + ": " + ours.getMessage(), e);
            }
        }
        return new EnvelopeDecodeException("cannot read Parquet object " + objectDescription + ": " + describe(e), e);
    }

    private static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null && sb.length() < 500; t = t.getCause()) {
            if (sb.length() > 0) {
                sb.append(" <- ");
            }
            sb.append(t.getClass().getSimpleName());
            if (t.getMessage() != null) {
                sb.append(": ").append(t.getMessage());
            }
        }
        return sb.toString();
    }

    private static final class WriterBuilder extends ParquetWriter.Builder<BackupRecord, WriterBuilder> {
        private final ValueType keysType;
        private final ValueType valuesType;

        WriterBuilder(OutputFile file, ValueType keysType, ValueType valuesType) {
            super(file);
            this.keysType = keysType;
            this.valuesType = valuesType;
        }

        @Override
        protected WriterBuilder self() {
            return this;
        }

        @Override
        protected WriteSupport<BackupRecord> getWriteSupport(ParquetConfiguration conf) {
            return new ParquetEnvelopeWriteSupport(keysType, valuesType);
        }

        @Override
        @SuppressWarnings("deprecation")
        protected WriteSupport<BackupRecord> getWriteSupport(Configuration conf) {
            return new ParquetEnvelopeWriteSupport(keysType, valuesType);
        }
    }

    private static final class ReaderBuilder extends ParquetReader.Builder<BackupRecord> {
        ReaderBuilder(InputFile file) {
            super(file, new PlainParquetConfiguration());
        }

        @Override
        protected ReadSupport<BackupRecord> getReadSupport() {
            return new ParquetEnvelopeReadSupport();
        }
    }
}
