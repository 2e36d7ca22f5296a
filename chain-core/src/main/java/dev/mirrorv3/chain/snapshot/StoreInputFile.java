package dev.mirrorv3.chain.snapshot;

import dev.mirrorv3.chain.store.Store;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * One object of a store as a Parquet {@link InputFile} read by ranges ({@link Store#readRange}), so that reading a footer
 * fetches the footer only, not a snapshot of gigabytes. Reads are fetched in blocks of at least {@link #BLOCK} bytes.
 */
final class StoreInputFile implements InputFile {
    static final int BLOCK = 64 * 1024;

    private final Store store;
    private final int partition;
    private final String name;
    private final long length;

    StoreInputFile(Store store, int partition, String name) {
        this.store = store;
        this.partition = partition;
        this.name = name;
        this.length = store.size(partition, name);
    }

    @Override
    public long getLength() {
        return length;
    }

    @Override
    public SeekableInputStream newStream() {
        return new SeekableInputStream() {
            private long pos;
            private long blockStart = -1;
            private byte[] block = new byte[0];

            @Override
            public long getPos() {
                return pos;
            }

            @Override
            public void seek(long newPos) {
                pos = newPos;
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= length) {
                    return -1;
                }
                if (len == 0) {
                    return 0;
                }
                if (blockStart < 0 || pos < blockStart || pos >= blockStart + block.length) {
                    block = store.readRange(partition, name, pos, (int) Math.min(Math.max(len, BLOCK), length - pos));
                    blockStart = pos;
                }
                int n = (int) Math.min(len, blockStart + block.length - pos);
                System.arraycopy(block, (int) (pos - blockStart), b, off, n);
                pos += n;
                return n;
            }

            @Override
            public void readFully(byte[] bytes) throws IOException {
                readFully(bytes, 0, bytes.length);
            }

            @Override
            public void readFully(byte[] bytes, int start, int len) throws IOException {
                int done = 0;
                while (done < len) {
                    int n = read(bytes, start + done, len - done);
                    if (n < 0) {
                        throw new EOFException(name + ": " + (len - done) + " bytes missing at offset " + pos + " of " + length);
                    }
                    done += n;
                }
            }

            @Override
            public int read(ByteBuffer buf) {
                byte[] tmp = new byte[buf.remaining()];
                int n = read(tmp, 0, tmp.length);
                if (n > 0) {
                    buf.put(tmp, 0, n);
                }
                return n;
            }

            @Override
            public void readFully(ByteBuffer buf) throws IOException {
                byte[] tmp = new byte[buf.remaining()];
                readFully(tmp);
                buf.put(tmp);
            }
        };
    }
}
