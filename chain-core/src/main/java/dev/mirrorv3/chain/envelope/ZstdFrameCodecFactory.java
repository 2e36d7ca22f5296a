package dev.mirrorv3.chain.envelope;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The codecs of one Parquet writer, its ZSTD pages compressed with one call into zstd-jni ({@link Zstd#compress}: one
 * standard zstd frame per page, as every Parquet reader takes) and every other codec, and every decompressor, Parquet's
 * own ({@code delegate}). Parquet's own ZSTD compressor writes each page through a {@code ZstdOutputStream} into a
 * buffer of the page size (1 MiB) allocated per writer: the stream has a finalizer, which keeps the buffer reachable
 * until the finalizer thread runs it, so a task that writes thousands of small objects (one per partition and flush)
 * held hundreds of those buffers alive after a full collection (docs/decisions.md, "Blob sink").
 */
final class ZstdFrameCodecFactory implements CompressionCodecFactory {
    private final CompressionCodecFactory delegate;
    private final int level;

    ZstdFrameCodecFactory(CompressionCodecFactory delegate, int level) {
        this.delegate = delegate;
        this.level = level;
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codecName) {
        return codecName == CompressionCodecName.ZSTD ? new FrameCompressor(level) : delegate.getCompressor(codecName);
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codecName, int codecLevel) {
        return codecName == CompressionCodecName.ZSTD ? new FrameCompressor(codecLevel)
                : delegate.getCompressor(codecName, codecLevel);
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codecName) {
        return delegate.getDecompressor(codecName);
    }

    @Override
    public void release() {
        delegate.release();
    }

    /** One page in, one zstd frame out; nothing kept between pages. */
    private record FrameCompressor(int level) implements BytesInputCompressor {
        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            byte[] page = new byte[Math.toIntExact(bytes.size())];
            bytes.writeAllTo(new OutputStream() {
                private int at;

                @Override
                public void write(int b) {
                    page[at++] = (byte) b;
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    System.arraycopy(b, off, page, at, len);
                    at += len;
                }
            });
            return BytesInput.from(Zstd.compress(page, level));
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.ZSTD;
        }

        @Override
        public void release() {
            // nothing held
        }
    }
}
