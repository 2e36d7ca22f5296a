package dev.mirrorv3.chain.envelope;

import java.nio.ByteBuffer;

/**
 * What one encoding uses only while it runs and a later one may use again: Parquet's buffers
 * ({@link RecyclingBufferAllocator}) and the ZSTD compressor's page and frame buffers, direct ones so that zstd-jni
 * compresses without pinning a Java array ({@link ZstdFrameCodecFactory}). Confined to the thread that took it
 * from {@link EncodeMemory} until it gives it back, after the Parquet writer closed. Nothing in it outlives an encoding
 * as part of an object: the object's bytes are copied out into its {@link ChunkedByteOutput}.
 */
final class EncodeScratch {
    private final RecyclingBufferAllocator allocator;
    private ByteBuffer page = ByteBuffer.allocateDirect(0);
    private ByteBuffer frame = ByteBuffer.allocateDirect(0);

    EncodeScratch(long maxKeptBytes) {
        this.allocator = new RecyclingBufferAllocator(maxKeptBytes);
    }

    RecyclingBufferAllocator allocator() {
        return allocator;
    }

    /** A direct buffer of at least {@code size} bytes for one page's uncompressed bytes, cleared (its contents are stale). */
    ByteBuffer page(int size) {
        page = atLeast(page, size);
        return page;
    }

    /** A direct buffer of at least {@code size} bytes for one page's ZSTD frame, cleared (its contents are stale). */
    ByteBuffer frame(int size) {
        frame = atLeast(frame, size);
        return frame;
    }

    private static ByteBuffer atLeast(ByteBuffer b, int size) {
        return b.capacity() < size ? ByteBuffer.allocateDirect(size) : b.clear();
    }

    /** Ends an encoding: buffers Parquet never released are not reused. */
    void done() {
        allocator.forgetLent();
    }

    /** Bytes this scratch keeps between encodings. */
    long keptBytes() {
        return allocator.keptBytes() + page.capacity() + frame.capacity();
    }
}
