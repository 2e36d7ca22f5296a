package dev.mirrorv3.chain.envelope;

import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** A Parquet {@link OutputFile} that collects the file in memory, in the chunks of {@code stream} (from its first on). */
final class InMemoryOutputFile implements OutputFile {
    private final ChunkedByteOutput stream;

    /** Into chunks of its own ({@link #toByteArray()}). */
    InMemoryOutputFile() {
        this(new ChunkedByteOutput());
    }

    InMemoryOutputFile(ChunkedByteOutput stream) {
        this.stream = stream;
        stream.reset();
    }

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

    /** A copy of the bytes written so far. */
    byte[] toByteArray() {
        return stream.finish(() -> { }).toByteArray();
    }
}
