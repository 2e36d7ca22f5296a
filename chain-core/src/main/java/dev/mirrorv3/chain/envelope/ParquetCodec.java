package dev.mirrorv3.chain.envelope;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.crypto.FileEncryptionProperties;
import org.apache.parquet.crypto.ParquetCipher;
import org.apache.parquet.crypto.ParquetCryptoRuntimeException;
import org.apache.parquet.hadoop.CodecFactory;
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
 *
 * <p>Encrypted objects (docs/blob-sink.md, Encryption at rest) use Parquet modular encryption as the Parquet spec defines it: AES_GCM_V1
 * (with the spec's AAD), an encrypted footer, the footer and every column with the one key, and the key id as the footer's key
 * metadata, so parquet-mr, Spark and Arrow C++ read them given the key. Each object is read with the key its name carries.
 */
public final class ParquetCodec implements EnvelopeCodec {
    /** mirror-v3 writes ZSTD level 1 (arrow-rs {@code ZstdLevel::try_new(1)}). */
    static final int ZSTD_LEVEL = 1;
    /** Never cut a row group by size: an object is one row group, as mirror-v3 writes it. */
    private static final long ROW_GROUP_BYTES = Long.MAX_VALUE;

    private static final String HEADER_VALUE_PATH = String.join(".",
            EnvelopeSchema.HEADERS, EnvelopeSchema.HEADER_LIST, EnvelopeSchema.HEADER_ITEM, EnvelopeSchema.HEADER_VALUE);

    private final EnvelopeSettings settings;
    private final ObjectEncryption encryption;
    private final EncodeMemory memory;

    public ParquetCodec(EnvelopeSettings settings) {
        this(settings, ObjectEncryption.none());
    }

    public ParquetCodec(EnvelopeSettings settings, ObjectEncryption encryption) {
        this(settings, encryption, EncodeMemory.unpooled());
    }

    /** @param memory what {@link #encodeObject} encodes in ({@link EncodeMemory}) */
    public ParquetCodec(EnvelopeSettings settings, ObjectEncryption encryption, EncodeMemory memory) {
        this.settings = settings;
        this.encryption = encryption;
        this.memory = memory;
    }

    @Override
    public String writeKeyId() {
        return encryption.writeKeyId();
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
        return encodeObject(records).toByteArrayAndRelease();
    }

    /**
     * Encodes in a scratch and an output taken from the codec's {@link EncodeMemory}: the scratch goes back when the
     * writer has closed, the output holds the object until it is released (or goes back at once if the encoding failed).
     */
    @Override
    public ObjectBytes encodeObject(List<BackupRecord> records) {
        if (records.isEmpty()) {
            throw new IllegalArgumentException("an object holds at least one record");
        }
        EncodeScratch scratch = memory.takeScratch();
        ChunkedByteOutput out = memory.takeOutput();
        boolean finished = false;
        try {
            try (ParquetWriter<BackupRecord> writer = writer(new InMemoryOutputFile(out), ROW_GROUP_BYTES, Map.of(), scratch)) {
                for (BackupRecord r : records) {
                    writer.write(r);
                }
            }
            ObjectBytes bytes = memory.finish(out);
            finished = true;
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("writing a Parquet object in memory failed", e);
        } finally {
            memory.giveBack(scratch);
            if (!finished) {
                memory.giveBack(out);
            }
        }
    }

    /**
     * A streaming writer of one object into a local file, rows in the caller's order (a snapshot's key order), row groups
     * cut at {@code rowGroupBytes} so that a large object never sits whole on the heap; {@code extraMetadata} goes into
     * the footer's key-value metadata beside {@code ARROW:schema}.
     */
    public ParquetWriter<BackupRecord> openWriter(java.nio.file.Path file, long rowGroupBytes,
            java.util.Map<String, String> extraMetadata) {
        try {
            // A scratch of its own that keeps nothing: the writer's ZSTD arrays serve its pages, Parquet's buffers are its own.
            return writer(new org.apache.parquet.io.LocalOutputFile(file), rowGroupBytes, extraMetadata, new EncodeScratch(0));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Parquet object " + file, e);
        }
    }

    /**
     * Streams the records of an object held in a local file, with the key its name carries ({@code null}: plain). Every
     * failure, also one found while reading on, is an {@link EnvelopeDecodeException} (or
     * {@link ObjectAuthenticationException}) naming {@code objectDescription}.
     */
    public RecordStream openReader(java.nio.file.Path file, String keyId, String objectDescription) {
        ParquetFraming.check(file, keyId, objectDescription);
        ReaderBuilder builder = new ReaderBuilder(new org.apache.parquet.io.LocalInputFile(file));
        withKey(builder, keyId, objectDescription);
        ParquetReader<BackupRecord> reader;
        try {
            reader = builder.build();
        } catch (IOException | RuntimeException e) {
            throw decodeFailure(objectDescription, keyId, e);
        }
        return new RecordStream() {
            @Override
            public BackupRecord next() {
                try {
                    return reader.read();
                } catch (IOException | RuntimeException e) {
                    throw decodeFailure(objectDescription, keyId, e);
                }
            }

            @Override
            public void close() {
                try {
                    reader.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }

    /**
     * The number of rows of an object, from its footer alone (a snapshot's keys, without reading its records), with the
     * key its name carries ({@code null}: plain).
     */
    public long rowCount(InputFile file, String keyId, String objectDescription) {
        return fromFooter(file, keyId, objectDescription, org.apache.parquet.hadoop.ParquetFileReader::getRecordCount);
    }

    /**
     * The footer's key-value metadata of an object (only the footer is read): what a snapshot's writer recorded beside
     * {@code ARROW:schema}.
     */
    public java.util.Map<String, String> footerMetadata(InputFile file, String keyId, String objectDescription) {
        return fromFooter(file, keyId, objectDescription, r -> java.util.Map.copyOf(r.getFooter().getFileMetaData().getKeyValueMetaData()));
    }

    /** Reads only the footer of an object, with the key its name carries ({@code null}: plain). */
    private <T> T fromFooter(InputFile file, String keyId, String objectDescription,
            java.util.function.Function<org.apache.parquet.hadoop.ParquetFileReader, T> read) {
        org.apache.parquet.ParquetReadOptions.Builder options =
                org.apache.parquet.ParquetReadOptions.builder(new PlainParquetConfiguration());
        FileDecryptionProperties decryption = decryption(keyId, objectDescription);
        if (decryption != null) {
            options.withDecryption(decryption);
        }
        try (org.apache.parquet.hadoop.ParquetFileReader reader = org.apache.parquet.hadoop.ParquetFileReader.open(file, options.build())) {
            return read.apply(reader);
        } catch (IOException | RuntimeException e) {
            throw decodeFailure(objectDescription, keyId, e);
        }
    }

    private void withKey(ReaderBuilder builder, String keyId, String objectDescription) {
        FileDecryptionProperties decryption = decryption(keyId, objectDescription);
        if (decryption != null) {
            // AES-GCM authenticates every page and the footer: a modified byte fails as an authentication failure
            // (ObjectAuthenticationException, "wrong key or modified object"), which the plain pages' CRC would pre-empt
            // with a vaguer error.
            builder.withDecryption(decryption).usePageChecksumVerification(false);
        }
    }

    private FileDecryptionProperties decryption(String keyId, String objectDescription) {
        if (keyId == null) {
            return null;
        }
        byte[] key = encryption.keys().key(keyId).orElseThrow(() -> new EnvelopeDecodeException("cannot read Parquet object "
                + objectDescription + ": its name says it is encrypted with key id " + keyId + ", and " + encryption.keys().source()
                + " has no key file " + keyId));
        return FileDecryptionProperties.builder().withKeyRetriever(metadata -> {
            String inFile = new String(metadata, StandardCharsets.UTF_8);
            if (!keyId.equals(inFile)) {
                throw new EnvelopeDecodeException("its footer names key id '" + inFile + "', and its name says " + keyId
                        + ": renamed or not written by this product");
            }
            return key.clone();
        }).build();
    }

    private ParquetWriter<BackupRecord> writer(OutputFile file, long rowGroupBytes, java.util.Map<String, String> extraMetadata,
            EncodeScratch scratch) throws IOException {
        PlainParquetConfiguration conf = new PlainParquetConfiguration();
        conf.setInt(ZstandardCodec.PARQUET_COMPRESS_ZSTD_LEVEL, ZSTD_LEVEL);
        WriterBuilder builder = new WriterBuilder(file, settings);
        if (encryption.encryptsNewObjects()) {
            builder.withEncryption(FileEncryptionProperties.builder(encryption.writeKey())
                    .withAlgorithm(ParquetCipher.AES_GCM_V1)
                    .withFooterKeyMetadata(encryption.writeKeyId().getBytes(StandardCharsets.UTF_8))
                    .build()); // footer encrypted (the default), every column with the footer key
        }
        return builder
                .withConf(conf)
                .withCodecFactory(new ZstdFrameCodecFactory(new CodecFactory(conf, ParquetWriter.DEFAULT_PAGE_SIZE), ZSTD_LEVEL, scratch))
                .withAllocator(scratch.allocator())
                .withCompressionCodec(codecName(settings.compression()))
                .withRowGroupSize(rowGroupBytes)
                .withExtraMetaData(extraMetadata)
                // Offsets, keys and values are (nearly) all distinct: a dictionary there only costs time
                // until parquet-mr falls back. Low-cardinality columns (topic, partition, timestamp_type,
                // header keys) keep theirs. Min/max statistics of random bytes help no query either.
                .withDictionaryEncoding(EnvelopeSchema.OFFSET, false)
                .withDictionaryEncoding(EnvelopeSchema.TIMESTAMP_MS, false)
                .withDictionaryEncoding(EnvelopeSchema.KEY, false)
                .withDictionaryEncoding(EnvelopeSchema.VALUE, false)
                .withDictionaryEncoding(HEADER_VALUE_PATH, false)
                .withStatisticsEnabled(EnvelopeSchema.KEY, false)
                .withStatisticsEnabled(EnvelopeSchema.VALUE, false)
                .withStatisticsEnabled(HEADER_VALUE_PATH, false)
                .build();
    }

    static CompressionCodecName codecName(Compression c) {
        return switch (c) {
            case ZSTD -> CompressionCodecName.ZSTD;
            case SNAPPY -> CompressionCodecName.SNAPPY;
            case UNCOMPRESSED -> CompressionCodecName.UNCOMPRESSED;
        };
    }

    @Override
    public List<BackupRecord> decode(byte[] data, String objectDescription) {
        return decode(data, null, objectDescription);
    }

    @Override
    public List<BackupRecord> decode(byte[] data, String keyId, String objectDescription) {
        ParquetFraming.check(data, keyId, objectDescription);
        ReaderBuilder builder = new ReaderBuilder(new InMemoryInputFile(data));
        withKey(builder, keyId, objectDescription);
        try (ParquetReader<BackupRecord> reader = builder.build()) {
            List<BackupRecord> out = new ArrayList<>();
            for (BackupRecord r = reader.read(); r != null; r = reader.read()) {
                out.add(r);
            }
            return out;
        } catch (IOException | RuntimeException e) {
            throw decodeFailure(objectDescription, keyId, e);
        }
    }

    /**
     * Our own decode errors keep their message; a failed AES-GCM tag check is "authentication failed"; anything else
     * from parquet-mr is named and wrapped.
     */
    private static EnvelopeDecodeException decodeFailure(String objectDescription, String keyId, Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof EnvelopeDecodeException ours) {
                return new EnvelopeDecodeException("cannot read Parquet object " + objectDescription + ": " + ours.getMessage(), e);
            }
        }
        if (keyId != null) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                // TagVerificationException (a GCM tag that does not match) is one; any other crypto failure of an
                // object whose framing is intact also means its ciphertext is not what the key produced.
                if (t instanceof ParquetCryptoRuntimeException) {
                    return new ObjectAuthenticationException("cannot read Parquet object " + objectDescription
                            + ": authentication failed: wrong key or modified object (key id " + keyId + ")", e);
                }
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
        private final EnvelopeSettings settings;

        WriterBuilder(OutputFile file, EnvelopeSettings settings) {
            super(file);
            this.settings = settings;
        }

        @Override
        protected WriterBuilder self() {
            return this;
        }

        @Override
        protected WriteSupport<BackupRecord> getWriteSupport(ParquetConfiguration conf) {
            return new ParquetEnvelopeWriteSupport(settings.keysType(), settings.valuesType());
        }

        @Override
        @SuppressWarnings("deprecation")
        protected WriteSupport<BackupRecord> getWriteSupport(Configuration conf) {
            return new ParquetEnvelopeWriteSupport(settings.keysType(), settings.valuesType());
        }
    }

    private static final class ReaderBuilder extends ParquetReader.Builder<BackupRecord> {
        ReaderBuilder(InputFile file) {
            super(file, new PlainParquetConfiguration());
            // Pages carry a CRC (parquet-java writes one by default); without checking it a damaged byte in a page reads
            // as a different record without an error. Pages written without one (other writers) are read as they are.
            usePageChecksumVerification(true);
        }

        @Override
        protected ReadSupport<BackupRecord> getReadSupport() {
            return new ParquetEnvelopeReadSupport();
        }
    }
}
