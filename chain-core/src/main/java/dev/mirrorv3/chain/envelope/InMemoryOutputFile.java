package dev.mirrorv3.chain.envelope;

import java.util.Arrays;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** A Parquet {@link OutputFile} that collects the file in a growable byte array. */
final class InMemoryOutputFile implements OutputFile {
    private final Buffer buffer;

    InMemoryOutputFile(int initialCapacity) {
        this.buffer = new Buffer(Math.max(initialCapacity, 1024));
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        return buffer;
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
        buffer.count = 0;
        return buffer;
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return "memory";
    }

    /** The bytes written so far, trimmed to size. */
    byte[] toByteArray() {
        return Arrays.copyOf(buffer.bytes, buffer.count);
    }

    private static final class Buffer extends PositionOutputStream {
        private byte[] bytes;
        private int count;

        Buffer(int capacity) {
            this.bytes = new byte[capacity];
        }

        @Override
        public long getPos() {
            return count;
        }

        @Override
        public void write(int b) {
            ensure(1);
            bytes[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, bytes, count, len);
            count += len;
        }

        private void ensure(int more) {
            long needed = (long) count + more;
            if (needed > bytes.length) {
                if (needed > Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException("Parquet object exceeds 2 GiB");
                }
                bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, bytes.length * 2L)));
            }
        }
    }
}
