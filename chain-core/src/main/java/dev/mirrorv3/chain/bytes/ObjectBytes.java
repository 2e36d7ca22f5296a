package dev.mirrorv3.chain.bytes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bytes of one encoded object, read-only, in chunks (every chunk but the last full) that may be reused for a later
 * object once {@link #release()} was called: whoever holds the object (the commit that writes it, and while its outcome is
 * unknown the frozen pending commit that re-issues it) calls release exactly when nothing will read these bytes again.
 * Reading after the release fails ({@link IllegalStateException}) rather than reading a later object's bytes. Safe for
 * concurrent readers (a hash and an upload); the release must follow every read.
 */
public final class ObjectBytes {
    /** Reads one chunk's part of the object. */
    @FunctionalInterface
    public interface ChunkReader {
        void read(byte[] chunk, int offset, int length) throws IOException;
    }

    /** The most {@link #writeTo} hands a channel at once. */
    static final int WRITE_BYTES = 1 << 20;

    private final byte[][] chunks;
    private final long size;
    private final Runnable onRelease;
    private final AtomicBoolean released = new AtomicBoolean();

    private ObjectBytes(byte[][] chunks, long size, Runnable onRelease) {
        this.chunks = chunks;
        this.size = size;
        this.onRelease = onRelease;
    }

    /** An object held in one array of its own: nothing is reused, the release only ends its reads. */
    public static ObjectBytes of(byte[] data) {
        return new ObjectBytes(new byte[][] {data}, data.length, () -> { });
    }

    /**
     * The first {@code size} bytes of {@code chunks}, in order (bytes after them in the last chunk are not part of the
     * object); {@code onRelease} runs once, at the first {@link #release()}.
     */
    public static ObjectBytes ofChunks(List<byte[]> chunks, long size, Runnable onRelease) {
        long held = 0;
        for (byte[] c : chunks) {
            held += c.length;
        }
        if (size < 0 || size > held) {
            throw new IllegalArgumentException("an object of " + size + " bytes in chunks holding " + held);
        }
        return new ObjectBytes(chunks.toArray(new byte[0][]), size, onRelease);
    }

    /**
     * The same bytes for {@code holders} holders, each releasing its own view: these bytes are released when the last
     * view is. Only the views are read and released from then on.
     */
    public List<ObjectBytes> shareAmong(int holders) {
        if (holders < 1) {
            throw new IllegalArgumentException("bytes are shared among at least 1 holder: " + holders);
        }
        checkHeld();
        AtomicInteger left = new AtomicInteger(holders);
        Runnable lastReleases = () -> {
            if (left.decrementAndGet() == 0) {
                release();
            }
        };
        ObjectBytes[] views = new ObjectBytes[holders];
        for (int i = 0; i < holders; i++) {
            views[i] = new ObjectBytes(chunks, size, lastReleases);
        }
        return List.of(views);
    }

    public long size() {
        return size;
    }

    /** Hands every chunk's part of the object to {@code reader}, in order. */
    public void read(ChunkReader reader) throws IOException {
        checkHeld();
        long left = size;
        for (int i = 0; i < chunks.length && left > 0; i++) {
            int n = (int) Math.min(chunks[i].length, left);
            reader.read(chunks[i], 0, n);
            left -= n;
        }
        checkHeld(); // a release during the read means what was read may be another object's
    }

    /** {@link #read} for readers that cannot fail with an IOException. */
    public void readUnchecked(ChunkReader reader) {
        try {
            read(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes the object to the channel, chunk by chunk, at most {@link #WRITE_BYTES} per write: the JDK copies a heap
     * buffer into a temporary direct buffer of the size of each write and keeps it for the thread, so writes of a steady
     * size reuse one small one.
     */
    public void writeTo(WritableByteChannel ch) throws IOException {
        read((chunk, off, len) -> {
            for (int at = off; at < off + len;) {
                ByteBuffer buf = ByteBuffer.wrap(chunk, at, Math.min(WRITE_BYTES, off + len - at));
                at += buf.remaining();
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }
        });
    }

    /** Adds the object's bytes to a digest. */
    public void update(MessageDigest digest) {
        readUnchecked(digest::update);
    }

    /** A new stream of the object's bytes from its start (an upload that is retried takes a new one). */
    public InputStream newInputStream() {
        checkHeld();
        return new ChunkStream();
    }

    /** A copy in one array (stores without a chunked commit, tests). */
    public byte[] toByteArray() {
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("an object of " + size + " bytes exceeds the 2 GiB a byte array holds");
        }
        byte[] out = new byte[(int) size];
        int[] at = {0};
        readUnchecked((chunk, off, len) -> {
            System.arraycopy(chunk, off, out, at[0], len);
            at[0] += len;
        });
        return out;
    }

    /** A copy in one array, and the release of these bytes. */
    public byte[] toByteArrayAndRelease() {
        try {
            return toByteArray();
        } finally {
            release();
        }
    }

    /** Whether {@code in} holds exactly these bytes, no more, no fewer (read to its end at most). */
    public boolean contentEquals(InputStream in) throws IOException {
        byte[] buf = new byte[64 * 1024];
        boolean[] same = {true};
        read((chunk, off, len) -> {
            for (int done = 0; same[0] && done < len;) {
                int n = in.readNBytes(buf, 0, Math.min(buf.length, len - done));
                same[0] = n > 0 && Arrays.equals(buf, 0, n, chunk, off + done, off + done + n);
                done += n;
            }
        });
        return same[0] && in.read() < 0;
    }

    /** Ends this object: its chunks may hold a later object's bytes from now on. Only the first call counts. */
    public void release() {
        if (released.compareAndSet(false, true)) {
            onRelease.run();
        }
    }

    public boolean released() {
        return released.get();
    }

    private void checkHeld() {
        if (released.get()) {
            throw new IllegalStateException("the bytes of this object were released: they may hold another object's now");
        }
    }

    /** Reads the chunks in order; checks at each chunk and at the end that the object was not released meanwhile. */
    private final class ChunkStream extends InputStream {
        private int chunk;
        private int offset;
        private long left = size;

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            checkHeld();
            if (len == 0) {
                return 0;
            }
            while (left > 0 && offset == chunks[chunk].length) {
                chunk++;
                offset = 0;
            }
            if (left == 0) {
                return -1;
            }
            int n = (int) Math.min(Math.min(len, chunks[chunk].length - offset), left);
            System.arraycopy(chunks[chunk], offset, b, off, n);
            offset += n;
            left -= n;
            checkHeld();
            return n;
        }

        @Override
        public int available() {
            return (int) Math.min(Integer.MAX_VALUE, left);
        }
    }
}
