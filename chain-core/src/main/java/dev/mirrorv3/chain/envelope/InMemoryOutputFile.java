package dev.mirrorv3.chain.envelope;

import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** A Parquet {@link OutputFile} that collects the file in memory. */
final class InMemoryOutputFile implements OutputFile {
    private final ChunkedByteOutput stream = new ChunkedByteOutput();

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        return stream;
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
        stream.reset();
        return stream;
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

    /** The bytes written so far. */
    byte[] toByteArray() {
        return stream.toByteArray();
    }
}
