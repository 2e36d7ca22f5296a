package dev.mirrorv3.chain.envelope;

import java.io.EOFException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** A Parquet {@link InputFile} over a byte array (no copy). */
final class InMemoryInputFile implements InputFile {
    private final byte[] data;

    InMemoryInputFile(byte[] data) {
        this.data = data;
    }

    @Override
    public long getLength() {
        return data.length;
    }

    @Override
    public SeekableInputStream newStream() {
        return new Stream(data);
    }

    private static final class Stream extends SeekableInputStream {
        private final byte[] data;
        private int pos;

        Stream(byte[] data) {
            this.data = data;
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void seek(long newPos) throws EOFException {
            if (newPos < 0 || newPos > data.length) {
                throw new EOFException("seek to " + newPos + " outside 0.." + data.length);
            }
            pos = (int) newPos;
        }

        @Override
        public int read() {
            return pos < data.length ? data[pos++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            int n = Math.min(len, data.length - pos);
            if (n <= 0) {
                return -1;
            }
            System.arraycopy(data, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public void readFully(byte[] bytes) throws EOFException {
            readFully(bytes, 0, bytes.length);
        }

        @Override
        public void readFully(byte[] bytes, int start, int len) throws EOFException {
            if (len > data.length - pos) {
                throw new EOFException("need " + len + " bytes at " + pos + " but the object has " + data.length);
            }
            System.arraycopy(data, pos, bytes, start, len);
            pos += len;
        }

        @Override
        public int read(ByteBuffer buf) {
            int n = Math.min(buf.remaining(), data.length - pos);
            if (n <= 0) {
                return buf.hasRemaining() ? -1 : 0;
            }
            buf.put(data, pos, n);
            pos += n;
            return n;
        }

        @Override
        public void readFully(ByteBuffer buf) throws EOFException {
            int n = buf.remaining();
            if (n > data.length - pos) {
                throw new EOFException("need " + n + " bytes at " + pos + " but the object has " + data.length);
            }
            buf.put(data, pos, n);
            pos += n;
        }

        @Override
        public long skip(long n) {
            long k = Math.max(0, Math.min(n, data.length - pos));
            pos += (int) k;
            return k;
        }

        @Override
        public int available() {
            return data.length - pos;
        }
    }
}
