package dev.mirrorv3.chain.envelope;

import java.io.EOFException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The Parquet {@link SeekableInputStream} of our input files: an object read block by block from where it lives (a byte
 * array is one block; a store's object is read by ranges, so that a footer is read without the rest of the object).
 */
public final class BlockInputStream extends SeekableInputStream {
    /** Where an object's bytes come from. */
    public interface Blocks {
        /** The object's length in bytes (as {@link org.apache.parquet.io.InputFile#getLength()} has it). */
        long getLength();

        /** A block that holds the byte at {@code pos}, and ideally the {@code wanted - 1} after it. */
        Block blockAt(long pos, int wanted);

        /** What an {@link EOFException} says when {@code wanted} bytes are asked for at {@code pos}, and fewer are left. */
        String shortRead(long pos, int wanted);
    }

    /** Bytes of the object from offset {@code start}. */
    public record Block(long start, byte[] bytes) {
        boolean holds(long pos) {
            return pos >= start && pos < start + bytes.length;
        }
    }

    private final Blocks blocks;
    private Block block = new Block(0, new byte[0]);
    private long pos;

    public BlockInputStream(Blocks blocks) {
        this.blocks = blocks;
    }

    @Override
    public long getPos() {
        return pos;
    }

    @Override
    public void seek(long newPos) throws EOFException {
        if (newPos < 0 || newPos > length()) {
            throw new EOFException("seek to " + newPos + " outside 0.." + length());
        }
        pos = newPos;
    }

    @Override
    public int read() {
        if (pos >= length()) {
            return -1;
        }
        return currentBlock(1).bytes()[(int) (pos++ - block.start())] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (pos >= length()) {
            return -1;
        }
        int n = (int) Math.min(len, currentBlock(len).start() + block.bytes().length - pos);
        System.arraycopy(block.bytes(), (int) (pos - block.start()), b, off, n);
        pos += n;
        return n;
    }

    @Override
    public int read(ByteBuffer buf) {
        if (!buf.hasRemaining()) {
            return 0;
        }
        if (pos >= length()) {
            return -1;
        }
        int n = (int) Math.min(buf.remaining(), currentBlock(buf.remaining()).start() + block.bytes().length - pos);
        buf.put(block.bytes(), (int) (pos - block.start()), n);
        pos += n;
        return n;
    }

    @Override
    public void readFully(byte[] bytes) throws EOFException {
        readFully(bytes, 0, bytes.length);
    }

    @Override
    public void readFully(byte[] bytes, int start, int len) throws EOFException {
        requireLeft(len);
        for (int done = 0; done < len;) {
            done += read(bytes, start + done, len - done);
        }
    }

    @Override
    public void readFully(ByteBuffer buf) throws EOFException {
        requireLeft(buf.remaining());
        while (buf.hasRemaining()) {
            read(buf);
        }
    }

    @Override
    public long skip(long n) {
        long k = Math.max(0, Math.min(n, length() - pos));
        pos += k;
        return k;
    }

    /** The bytes readable without fetching: the rest of the current block. */
    @Override
    public int available() {
        return block.holds(pos) ? (int) (block.start() + block.bytes().length - pos) : 0;
    }

    private long length() {
        return blocks.getLength();
    }

    private void requireLeft(int wanted) throws EOFException {
        if (wanted > length() - pos) {
            throw new EOFException(blocks.shortRead(pos, wanted));
        }
    }

    private Block currentBlock(int wanted) {
        if (!block.holds(pos)) {
            block = blocks.blockAt(pos, wanted);
        }
        return block;
    }
}
