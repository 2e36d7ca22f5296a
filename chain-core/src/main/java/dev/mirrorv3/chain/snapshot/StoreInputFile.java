package dev.mirrorv3.chain.snapshot;

import dev.mirrorv3.chain.envelope.BlockInputStream;
import dev.mirrorv3.chain.store.Store;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * One object of a store as a Parquet {@link InputFile} read by ranges ({@link Store#readRange}), so that reading a footer
 * fetches the footer only, not a snapshot of gigabytes. Reads are fetched in blocks of at least {@link #BLOCK} bytes.
 */
record StoreInputFile(Store store, int partition, String name, long length) implements InputFile, BlockInputStream.Blocks {
    static final int BLOCK = 64 * 1024;

    StoreInputFile(Store store, int partition, String name) {
        this(store, partition, name, store.size(partition, name));
    }

    @Override
    public long getLength() {
        return length;
    }

    @Override
    public SeekableInputStream newStream() {
        return new BlockInputStream(this);
    }

    @Override
    public BlockInputStream.Block blockAt(long pos, int wanted) {
        int size = (int) Math.min(Math.max(wanted, BLOCK), length - pos);
        return new BlockInputStream.Block(pos, store.readRange(partition, name, pos, size));
    }

    @Override
    public String shortRead(long pos, int wanted) {
        return name + ": " + (wanted - (length - pos)) + " bytes missing at offset " + length + " of " + length;
    }
}
