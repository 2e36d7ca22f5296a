package dev.mirrorv3.chain.envelope;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.io.PositionOutputStream;

/**
 * An in-memory output stream that grows by adding chunks, never copying what it holds, and keeps its chunks for the next
 * object after {@link #reset()}: a later object writes over them from the first on, and what it ends with is exactly its
 * own bytes ({@link #finish}), whatever a larger object before it left further on. Not thread-safe: one encoder writes it,
 * and once finished it is read through the {@link ObjectBytes} only, until that is released.
 */
final class ChunkedByteOutput extends PositionOutputStream {
    private static final int FIRST_CHUNK = 64 * 1024;
    /** Chunks grow to this: a kept output holds at most this much more than the largest object it held. */
    private static final int MAX_CHUNK = 4 << 20;

    /** Every chunk held, those of the current object first; kept across {@link #reset()}. */
    private final List<byte[]> chunks = new ArrayList<>();
    /** The chunk written now: {@code chunks.get(current)}. */
    private int current;
    private int used;
    /** Bytes of the chunks before the current one. */
    private long fullBytes;

    ChunkedByteOutput() {
        chunks.add(new byte[FIRST_CHUNK]);
    }

    @Override
    public long getPos() {
        return fullBytes + used;
    }

    @Override
    public void write(int b) {
        byte[] chunk = chunks.get(current);
        if (used == chunk.length) {
            chunk = nextChunk();
        }
        chunk[used++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        byte[] chunk = chunks.get(current);
        while (len > 0) {
            if (used == chunk.length) {
                chunk = nextChunk();
            }
            int n = Math.min(len, chunk.length - used);
            System.arraycopy(b, off, chunk, used, n);
            used += n;
            off += n;
            len -= n;
        }
    }

    /** The next chunk: one kept from an earlier object, else a new one, larger as the object grows (few chunks for big ones). */
    private byte[] nextChunk() {
        fullBytes += chunks.get(current).length;
        current++;
        used = 0;
        if (current == chunks.size()) {
            chunks.add(new byte[(int) Math.min(MAX_CHUNK, Math.max(FIRST_CHUNK, fullBytes))]);
        }
        return chunks.get(current);
    }

    /** Starts a new object at the first chunk; the chunks stay. */
    void reset() {
        current = 0;
        used = 0;
        fullBytes = 0;
    }

    /** Bytes held in chunks, used or not: what keeping this stream for the next object keeps on the heap. */
    long capacity() {
        long held = 0;
        for (byte[] c : chunks) {
            held += c.length;
        }
        return held;
    }

    /** Drops the chunks after the first {@code keepBytes} bytes' worth (at least the first chunk stays), before it is kept. */
    void trimTo(long keepBytes) {
        long held = 0;
        int keep = 0;
        while (keep < chunks.size() && (keep == 0 || held + chunks.get(keep).length <= keepBytes)) {
            held += chunks.get(keep).length;
            keep++;
        }
        chunks.subList(keep, chunks.size()).clear();
        reset();
    }

    /**
     * The object written since the last {@link #reset()}, over this stream's chunks: nothing may be written until
     * {@code onRelease} has run (the object's holder released it).
     */
    ObjectBytes finish(Runnable onRelease) {
        return ObjectBytes.ofChunks(List.copyOf(chunks.subList(0, current + 1)), fullBytes + used, onRelease);
    }
}
