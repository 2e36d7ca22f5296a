package dev.mirrorv3.chain.envelope;

import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.io.PositionOutputStream;

/**
 * An in-memory output stream that grows by adding chunks (never copying what it holds) and assembles
 * the result with exactly one copy. Not thread-safe.
 */
final class ChunkedByteOutput extends PositionOutputStream {
    private static final int FIRST_CHUNK = 64 * 1024;
    private static final int MAX_CHUNK = 16 << 20;

    private final List<byte[]> full = new ArrayList<>();
    private byte[] chunk = new byte[FIRST_CHUNK];
    private int used;
    private long fullBytes;

    @Override
    public long getPos() {
        return fullBytes + used;
    }

    @Override
    public void write(int b) {
        if (used == chunk.length) {
            nextChunk();
        }
        chunk[used++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        while (len > 0) {
            if (used == chunk.length) {
                nextChunk();
            }
            int n = Math.min(len, chunk.length - used);
            System.arraycopy(b, off, chunk, used, n);
            used += n;
            off += n;
            len -= n;
        }
    }

    private void nextChunk() {
        full.add(chunk);
        fullBytes += chunk.length;
        // Grow chunk sizes with the file so big objects use few chunks.
        chunk = new byte[(int) Math.min(MAX_CHUNK, Math.max(FIRST_CHUNK, fullBytes))];
        used = 0;
    }

    void reset() {
        full.clear();
        fullBytes = 0;
        used = 0;
    }

    byte[] toByteArray() {
        long size = fullBytes + used;
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("object of " + size + " bytes exceeds the 2 GiB a byte array holds");
        }
        byte[] out = new byte[(int) size];
        int at = 0;
        for (byte[] c : full) {
            System.arraycopy(c, 0, out, at, c.length);
            at += c.length;
        }
        System.arraycopy(chunk, 0, out, at, used);
        return out;
    }
}
