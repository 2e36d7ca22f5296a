package dev.mirrorv3.chain.envelope;

import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** A Parquet {@link InputFile} over a byte array (no copy): one block. */
final class InMemoryInputFile implements InputFile, BlockInputStream.Blocks {
    private final BlockInputStream.Block whole;

    InMemoryInputFile(byte[] data) {
        this.whole = new BlockInputStream.Block(0, data);
    }

    @Override
    public long getLength() {
        return whole.bytes().length;
    }

    @Override
    public SeekableInputStream newStream() {
        return new BlockInputStream(this);
    }

    @Override
    public BlockInputStream.Block blockAt(long pos, int wanted) {
        return whole;
    }

    @Override
    public String shortRead(long pos, int wanted) {
        return "need " + wanted + " bytes at " + pos + " but the object has " + getLength();
    }
}
