package dev.mirrorv3.chain.envelope;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The codecs of one Parquet writer, its ZSTD pages compressed with one call into zstd-jni each (one standard zstd frame
 * per page, as every Parquet reader takes: the frame {@link Zstd#compress} makes) and every other codec, and every
 * decompressor, Parquet's own ({@code delegate}). Parquet's own ZSTD compressor writes each page through a
 * {@code ZstdOutputStream} into a buffer of the page size (1 MiB) allocated per writer: the stream has a finalizer, which
 * keeps the buffer reachable until the finalizer thread runs it, so a task that writes thousands of small objects (one
 * per partition and flush) held hundreds of those buffers alive after a full collection (docs/decisions.md, "Blob sink").
 * A page is copied into, and compressed into, the direct buffers of the encoding's {@link EncodeScratch} (reused by the
 * next page and the next object: Parquet copies the frame out before it hands over the next page), with one compression
 * context per writer, freed by {@link #release()} when the writer closes. Direct, because zstd-jni compresses a Java
 * array inside a JNI critical region, which holds off every garbage collection of the JVM while it runs: with several
 * flush threads compressing 1 MiB pages one after another, a Connect worker on G1 (Java 17 and 21) failed a large
 * allocation elsewhere with {@code OutOfMemoryError} ("Retried waiting for GCLocker too often") with its heap far
 * from full, and the task died (docs/decisions.md, "Blob sink").
 */
final class ZstdFrameCodecFactory implements CompressionCodecFactory {
    private final CompressionCodecFactory delegate;
    private final int level;
    private final EncodeScratch scratch;
    private final List<FrameCompressor> compressors = new ArrayList<>();

    ZstdFrameCodecFactory(CompressionCodecFactory delegate, int level, EncodeScratch scratch) {
        this.delegate = delegate;
        this.level = level;
        this.scratch = scratch;
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codecName) {
        return codecName == CompressionCodecName.ZSTD ? frameCompressor(level) : delegate.getCompressor(codecName);
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codecName, int codecLevel) {
        return codecName == CompressionCodecName.ZSTD ? frameCompressor(codecLevel) : delegate.getCompressor(codecName, codecLevel);
    }

    private FrameCompressor frameCompressor(int codecLevel) {
        FrameCompressor c = new FrameCompressor(codecLevel, scratch);
        compressors.add(c);
        return c;
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codecName) {
        return delegate.getDecompressor(codecName);
    }

    @Override
    public void release() {
        compressors.forEach(FrameCompressor::release);
        compressors.clear();
        delegate.release();
    }

    /** One page in, one zstd frame out, in the scratch's arrays. */
    static final class FrameCompressor implements BytesInputCompressor {
        private final int level;
        private final EncodeScratch scratch;
        private ZstdCompressCtx ctx;

        FrameCompressor(int level, EncodeScratch scratch) {
            this.level = level;
            this.scratch = scratch;
        }

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            int size = Math.toIntExact(bytes.size());
            ByteBuffer page = scratch.page(size);
            bytes.writeAllTo(new OutputStream() {
                @Override
                public void write(int b) {
                    page.put((byte) b);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    page.put(b, off, len);
                }
            });
            if (ctx == null) {
                ctx = new ZstdCompressCtx().setLevel(level);
            }
            ByteBuffer frame = scratch.frame(Math.toIntExact(Zstd.compressBound(size)));
            int written = ctx.compressDirectByteBuffer(frame, 0, frame.capacity(), page, 0, size);
            return BytesInput.from(frame.limit(written));
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.ZSTD;
        }

        @Override
        public void release() {
            if (ctx != null) {
                ctx.close();
                ctx = null;
            }
        }
    }
}
