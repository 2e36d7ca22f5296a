package dev.mirrorv3.chain.envelope;

/**
 * What one encoding uses only while it runs and a later one may use again: Parquet's buffers
 * ({@link RecyclingBufferAllocator}) and the ZSTD compressor's page and frame arrays. Confined to the thread that took it
 * from {@link EncodeMemory} until it gives it back, after the Parquet writer closed. Nothing in it outlives an encoding
 * as part of an object: the object's bytes are copied out into its {@link ChunkedByteOutput}.
 */
final class EncodeScratch {
    private final RecyclingBufferAllocator allocator;
    private byte[] page = new byte[0];
    private byte[] frame = new byte[0];

    EncodeScratch(long maxKeptBytes) {
        this.allocator = new RecyclingBufferAllocator(maxKeptBytes);
    }

    RecyclingBufferAllocator allocator() {
        return allocator;
    }

    /** An array of at least {@code size} bytes for one page's uncompressed bytes (its contents are stale). */
    byte[] page(int size) {
        if (page.length < size) {
            page = new byte[size];
        }
        return page;
    }

    /** An array of at least {@code size} bytes for one page's ZSTD frame (its contents are stale). */
    byte[] frame(int size) {
        if (frame.length < size) {
            frame = new byte[size];
        }
        return frame;
    }

    /** Ends an encoding: buffers Parquet never released are not reused. */
    void done() {
        allocator.forgetLent();
    }

    /** Bytes this scratch keeps between encodings. */
    long keptBytes() {
        return allocator.keptBytes() + page.length + frame.length;
    }
}
